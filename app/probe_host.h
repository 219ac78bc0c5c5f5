// The probes of this node rather than of storage: `probe disk` (the cache directory's
// sequential write/read and random-read IOPS, in MB/s as fio prints them) and `probe nic` (the
// interface that routes to the target: speed, driver, accelerated networking).
#pragma once

#include <string>

#include "app/knowledge_inputs.h"
#include "app/outcome.h"
#include "app/probe_session.h"
#include "probes/cleanup_registry.h"

namespace feedcheck::app {

struct DiskRequest {
  std::string path;
  ProbeSessionRequest session;  ///< only the budget fields are read
  std::string file_size = "1GiB";
  std::string block_size = "1MiB";
  int random_threads = 4;
  std::string random_duration = "3s";
  bool no_direct = false;
  CleanupRegistry* cleanup = nullptr;  ///< the test file is registered here (required)
};

/// Result keys: write_mb_s, read_mb_s, random_read_iops, direct_io, device, kind, then status.
Outcome RunProbeDisk(const DiskRequest& request, const ProbeCallbacks& callbacks);

struct NicRequest {
  std::string target;  ///< "" : the default route
  std::string sku;
  std::string nic_gbps;
  std::string interface;
  KnowledgeInputs knowledge;
  std::string root;  ///< "" : this machine; tests pass a fixture tree with proc/ and sys/
};

/// Result keys: link_gbps, expected_gbps, interface, driver, mtu, accelerated, then status.
Outcome RunProbeNic(const NicRequest& request, const ProbeCallbacks& callbacks);

}  // namespace feedcheck::app
