// What a post-mortem concluded beyond the findings: the GPU time lost and when, the cause with
// its confidence, what fixing it would buy, and the per-node table of a multi-node job. Filled
// by diagnosis/ (which computes); reporters only print it.
#pragma once

#include <string>
#include <vector>

namespace feedcheck {

/// GPU time lost and sampled; where it went is the idle ledger's (LedgerSummary). GPU-seconds
/// are summed over GPUs.
struct GpuTimeLost {
  bool known = false;  ///< GPU samples were read
  int gpus = 0;
  double lost_gpu_s = 0;
  double sampled_gpu_s = 0;
  double idle_s = 0;  ///< wall clock the GPUs stood idle (lost / GPUs)
  double span_s = 0;  ///< wall clock sampled
  double idle_fraction = 0;
  /// "GPUs idle 13 min 32 s of 61 min (22%), 108 GPU-minutes: 65% at the account's egress
  /// limit, 35% waiting for the download": the idle ledger's split, by state
  std::string headline;
};

/// What fixing the cause would buy, predicted from the supply model; always an estimate.
struct FixEstimate {
  bool available = false;
  std::string
      text;  ///< "2 accounts: download ~6 min instead of 13.5, GPUs idle 10% instead of 22%"
  std::vector<std::string> assumptions;
  double idle_fraction_before = 0;
  double idle_fraction_after = 0;
};

/// One state of the idle ledger: its stable key ("account_egress"), its name and GPU-seconds.
struct LedgerShare {
  std::string state;
  double gpu_s = 0;
};

/// One node of a multi-node job. Negative numbers: not known for that node.
struct NodeRow {
  std::string node;
  double download_s = -1;
  double gpu_util_mean = -1;
  /// The node's GPU time lost: the sum of `states` when the idle ledger was kept per node, else
  /// the node's own GPU samples' (gpu.node_lost_gpu_s.*, which sum to the job's ledger).
  double gpu_lost_gpu_s = -1;
  double throttled = -1;  ///< refused requests in that node's own log
  /// Reads in that node's own rslex log (span closes and responses); 0: it read nothing.
  double reads = -1;
  /// The node's idle GPU time by ledger state, largest first (the ledger's by_node); empty when
  /// the ledger was kept for the job as a whole (its GPU samples not in the node folders).
  std::vector<LedgerShare> states;
  bool straggler = false;
};

/// The idle ledger as reports keep it: every idle GPU-second in one state, per job and per node.
struct LedgerSummary {
  bool present = false;
  std::string cause_state;          ///< the key of the verdict's state
  double lost_gpu_s = 0;            ///< the sum of `states`
  std::vector<LedgerShare> states;  ///< states holding time, largest first
  /// Per node (multi-node jobs read per node): the node and its states, largest first.
  std::vector<std::pair<std::string, std::vector<LedgerShare>>> nodes;
};

struct DiagnosisSummary {
  bool present = false;    ///< a post-mortem filled it
  std::string cause;       ///< "account egress", "none found", "inconclusive", ...
  std::string confidence;  ///< "confirmed" | "likely" | "inconclusive"
  std::vector<std::string> agreeing_sources;  ///< the independent sources behind the cause
  std::string settle_with;  ///< inconclusive: the file (and how to get it) that would settle it
  std::string fix;          ///< the deciding finding's advice, or what to do next
  double attributed_gpu_s = -1;  ///< GPU time lost attributed to the cause (< 0: not known)
  GpuTimeLost gpu;
  FixEstimate estimate;
  std::vector<NodeRow> nodes;
  std::string straggler;  ///< the slow node's name and why, "" when none stands out
  /// Nodes whose GPUs idled while they read nothing: "node-3: GPUs 0% busy, read nothing".
  std::vector<std::string> not_storage_nodes;
  LedgerSummary ledger;  ///< every idle GPU-second by state: what every figure above is read from
};

}  // namespace feedcheck
