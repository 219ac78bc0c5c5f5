// `feedcheck preflight`: can this storage feed this cluster? Runs the probes inside one stated
// budget (probes/preflight_probes), layers what they measured over the declared cluster, the
// profile and the knowledge base, evaluates the rules, and ends in a verdict: ready, at risk, or
// will starve the GPUs. Storage is read only; the one thing written is the disk stage's test
// file in the cache directory, registered for removal on every exit path.
#pragma once

#include <string>
#include <vector>

#include "app/cluster_choice.h"
#include "app/knowledge_inputs.h"
#include "app/outcome.h"
#include "app/probe_session.h"
#include "probes/cleanup_registry.h"

namespace feedcheck::app {

struct PreflightRequest {
  ProbeSessionRequest session{.duration = "2min", .max_requests = 50000, .max_bytes = "64GiB"};
  ClusterSpec cluster;
  std::string profile;
  std::vector<std::string> probes;  ///< empty: list, latency, smallfiles, throughput, nic (+disk)
  std::string cache_dir;            ///< the disk stage's directory; "" : no disk stage
  std::string cache_test_bytes = "1GiB";
  int max_concurrency = 32;
  KnowledgeInputs knowledge;
  std::string fail_on = "critical";    ///< the findings' exit threshold
  CleanupRegistry* cleanup = nullptr;  ///< the disk stage's test file (required with a disk stage)
};

/// The status: the probes' (3 unreachable, 4 nothing measured) when nothing was measured, else
/// 1 when a finding is at or above `fail_on`, else 0; 2 for flags, 3 for unreadable inputs.
/// Result keys: verdict, findings, critical, warnings, per_node_gbps, nodes, probes_failed,
/// elapsed_s, requests, bytes.
Outcome RunPreflight(const PreflightRequest& request, const ProbeCallbacks& callbacks);

}  // namespace feedcheck::app
