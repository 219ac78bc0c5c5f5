// `probe list`: List Blobs / List Paths pages (or readdir + stat on a local path) and the
// dataset's shape; the headline numbers are pages, entries, seconds and what the listing cost.
#pragma once

#include "app/outcome.h"
#include "app/probe_session.h"
#include "probes/cleanup_registry.h"

namespace feedcheck::app {

struct ListRequest {
  ProbeSessionRequest session;
  int max_pages = 100;
  int page_size = 5000;
  std::string delimiter;
  bool create_test_data = false;
  CleanupRegistry* cleanup = nullptr;  ///< test data is registered here (required with it)
};

/// Result keys: pages, entries, seconds, entries_per_s, list_requests (billed operations),
/// ms_per_1000_entries, complete, files/bytes of the dataset when known, then the run's status.
Outcome RunProbeList(const ListRequest& request, const ProbeCallbacks& callbacks);

}  // namespace feedcheck::app
