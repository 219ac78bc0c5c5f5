// `probe throughput`: parallel ranged GETs, by default a concurrency sweep that finds the knee,
// ending in one conclusion (NIC-, storage- or client-CPU-bound) and the headline numbers.
#pragma once

#include <string>

#include "app/knowledge_inputs.h"
#include "app/outcome.h"
#include "app/probe_session.h"

namespace feedcheck::app {

struct ThroughputRequest {
  ProbeSessionRequest session;
  KnowledgeInputs knowledge;  ///< for --sku
  std::string block_size = "4MiB";
  std::string concurrency = "auto";  ///< a count, or auto: the sweep (as `azcopy bench` tunes)
  int max_concurrency = 64;
  std::string step_duration;  ///< "" : the budget split over the steps
  std::string warmup;         ///< "" : 20% of a step, at most 1 s
  double nic_gbps = 0;        ///< --nic-gbps (wins over --sku)
  std::string sku;            ///< VM size: its NIC from the knowledge base
  int retries = 3;
  int cpu_cores = 0;  ///< cores this process may use; 0: asked of the OS
};

/// Runs the probe. Result keys: peak_gbps, knee_connections, knee_gbps, gbps_per_connection,
/// cpu_s_per_gb, cores_busy, nic_gbps, nic_fraction, bound, conclusion, then the run's status.
/// The report's verdict is the conclusion's bound ("NIC-bound", "storage-bound", ...).
Outcome RunProbeThroughput(const ThroughputRequest& request, const ProbeCallbacks& callbacks);

}  // namespace feedcheck::app
