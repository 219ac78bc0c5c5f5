// `probe smallfiles`: reads of 4 KiB ... 64 MiB objects fitted to overhead + size / bandwidth;
// the headline numbers are the per-request overhead, the bandwidth and the break-even size.
#pragma once

#include <string>
#include <vector>

#include "app/outcome.h"
#include "app/probe_session.h"
#include "probes/cleanup_registry.h"

namespace feedcheck::app {

struct SmallFilesRequest {
  ProbeSessionRequest session;
  std::vector<std::string> sizes;  ///< as typed ("4KiB"); empty: the probe's default ladder
  int concurrency = 4;
  int requests_per_size = 16;
  bool create_test_data = false;
  CleanupRegistry* cleanup = nullptr;  ///< test data is registered here (required with it)
};

/// Result keys: overhead_ms, bandwidth_gbps, breakeven_bytes, breakeven_bytes_one_stream,
/// concurrency, fit_r2, then the run's status.
Outcome RunProbeSmallFiles(const SmallFilesRequest& request, const ProbeCallbacks& callbacks);

}  // namespace feedcheck::app
