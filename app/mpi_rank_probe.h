// One rank's side of `feedcheck-mpi probe`: its set-up from the same plain request on every rank
// (target, credential, budget, probe options, the node and account from the knowledge base),
// and one measurement turned into the RankReport rank 0 merges. No MPI here: mpi/coordinator
// starts the steps; this runs the probe inside one.
#pragma once

#include <string>
#include <vector>

#include "app/cluster_choice.h"
#include "app/knowledge_inputs.h"
#include "app/probe_latency.h"
#include "app/probe_session.h"
#include "core/knowledge_base.h"
#include "mpi/cluster_merge.h"
#include "mpi/ramp.h"
#include "probes/latency_probe.h"
#include "probes/smallfile_probe.h"
#include "probes/throughput_probe.h"

namespace feedcheck::app {

struct MpiProbeRequest {
  std::string command;  ///< "throughput" | "latency" | "smallfiles"
  ProbeSessionRequest session;
  KnowledgeInputs knowledge;         ///< --kb files (NIC, egress) and --rules directories
  std::string netns;                 ///< network namespace per rank, "{rank}" replaced; "" for none
  std::string fail_on = "critical";  ///< findings at or above it give exit 1
  // Throughput.
  std::string block_size = "4MiB";
  int concurrency = 4;  ///< per rank (small files: parallel reads per rank)
  std::string warmup;
  int retries = 3;
  bool ramp = false;
  std::string nic_gbps;
  std::string sku;
  std::string region;
  std::string account_kind;
  std::string account_egress_gbps;
  // Latency: the flags as given, checked by ParseLatencyOptions (app/probe_latency).
  uint64_t requests = LatencyRequest{}.requests;
  uint64_t head_requests = LatencyRequest{}.head_requests;
  uint64_t new_connections = LatencyRequest{}.new_connections;
  uint64_t warmup_requests = LatencyRequest{}.warmup_requests;
  std::string range_size = LatencyRequest{}.range_size;
  // Small files.
  std::vector<std::string> sizes;
  int requests_per_size = SmallFileOptions{}.requests_per_size;
};

/// One rank, set up. Built in place (the node choice points into the knowledge base).
struct RankProbe {
  std::string command;
  HttpProbeEnv env;
  ThroughputProbeOptions throughput;
  LatencyProbeOptions latency;
  SmallFileOptions smallfiles;
  std::string local_dir;  ///< small files on a local or mounted directory instead of a URL
  KnowledgeBase kb;
  NodeChoice node;
  AccountChoice account;
  bool have_account = false;
};

/// Sets this rank up; 0, or the exit status with `error` naming the flag.
int PrepareRankProbe(const MpiProbeRequest& request, RankProbe* probe, std::string* error);

/// Runs the rank's probe once (from the common start) and reports what it measured.
RankReport MeasureRank(const RankProbe& probe, double start_epoch_s);

/// The node's NIC as the ramp's prediction uses it: from --nic-gbps or the --sku row.
RampLimit NicLimit(const RankProbe& probe);
/// The account's egress: --account-egress-gbps, or the knowledge base's row.
RampLimit EgressLimit(const RankProbe& probe);

/// The exit status of a rank's probe status name ("unreachable" 3, "failed" 4, else 0).
int RankExitStatus(const std::string& status);
/// The worst exit status over the active ranks.
int WorstRankExit(const std::vector<RankReport>& reports);

}  // namespace feedcheck::app
