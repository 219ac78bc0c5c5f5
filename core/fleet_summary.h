// What a post-mortem of a folder of jobs (a fleet) concluded: one row per job, then the totals
// (GPU time lost by cause, the fixes ranked by what they win back, the storage accounts several
// jobs shared). Filled by app/fleet_* (which computes); app/fleet_report lays it out as the
// generic parts of a report.
#pragma once

#include <string>
#include <vector>

namespace feedcheck {

/// The cause the part of a job's idle time that is not its cause's is filed under.
inline constexpr const char* kFleetOtherIdle = "other idle time (not the job's cause)";

/// One job of the fleet. Negative numbers: not known for that job.
struct FleetJob {
  std::string job;   ///< the job folder's name under the fleet folder
  std::string path;  ///< the folder as read
  bool diagnosed = false;
  std::string problem;  ///< why it was not diagnosed (the folder and what was wrong), else ""
  int nodes = -1;
  int gpus = -1;  ///< all the job's GPUs (from its GPU samples)
  double duration_s = -1;
  double gpu_lost_gpu_s = -1;
  double cause_gpu_s = -1;  ///< the part of it the diagnosis attributes to the cause
  std::string cause;        ///< "account egress", "none found", ...
  std::string confidence;   ///< "confirmed" | "likely" | "inconclusive"
  /// GPU samples were read: the GPU time lost is measured (without them the cause may still be
  /// confirmed, its cost is not known).
  bool gpu_time_measured = false;
  std::string verdict_level;  ///< "good" | "warning" | "bad" | "unknown"
  std::string fix_id;         ///< the rule id of the finding that decided the cause, "" for none
  std::string fix_title;      ///< that finding's title
  std::string fix;            ///< its advice (what to do), or the next step when none decided
  std::string fix_buys;       ///< what fixing it would buy, as the post-mortem worded it
  /// GPU time the fix wins back: the supply model's estimate when `won_back_estimated`, else
  /// the time lost to the cause (the most a fix of that cause can win back).
  double won_back_gpu_s = -1;
  bool won_back_estimated = false;
  std::vector<std::string> accounts;  ///< the storage accounts its logs or metrics name
  std::string sku;                    ///< the VM size its facts name (--sku, profile), or ""
  /// The price of its GPU-hour: --gpu-hour-price, else its VM size's pay-as-you-go price over
  /// its GPUs from the knowledge base; < 0 when neither is known.
  double usd_per_gpu_hour = -1;
  double lost_usd = -1;  ///< priced jobs only: an estimate
  double won_back_usd = -1;
  /// Where its profiler traces were read: the share of step time its training loop waited for
  /// data (all ranks), and why ("storage", "input_pipeline", "not_input", "cause_not_shown");
  /// < 0 and "" without traces.
  double loader_wait_fraction = -1;
  std::string data_wait_cause;
};

/// GPU time lost by cause over the fleet: each job's time lost to its cause under that cause,
/// the rest of its idle time under "other idle time".
struct FleetCauseTotal {
  std::string cause;
  int jobs = 0;
  double gpu_lost_gpu_s = 0;
  double lost_usd = -1;
};

/// One fix (the finding that decided the cause, by rule id) over every job it would help.
struct FleetFixTotal {
  std::string fix_id;
  std::string title;
  std::string fix;  ///< the advice, as the first job it decided worded it
  std::vector<std::string> jobs;
  int estimated_jobs = 0;  ///< jobs whose figure is the supply model's estimate
  double won_back_gpu_s = 0;
  double won_back_usd = -1;
};

/// A storage account the fleet's jobs read; `throttled_jobs` are those whose cause was one of
/// the account's limits. Several jobs throttled by one account are one finding.
struct FleetAccount {
  std::string account;
  std::vector<std::string> jobs;
  std::vector<std::string> throttled_jobs;
  std::vector<std::string> causes;  ///< the limits it was throttled at
  double throttled_gpu_s = 0;       ///< GPU time those jobs lost to it
  double lost_usd = -1;
  std::string finding;  ///< "throttled 3 of its 4 jobs (account egress): 12.1 GPU-hours"
};

/// One sortable column of the jobs table: each job's place when the table is sorted by it,
/// smallest first, unknown values last (`rank[i]` is job i's place).
struct FleetSortColumn {
  std::string key;  ///< "job", "nodes", "gpus", "duration_s", "gpu_lost_gpu_s", ...
  std::vector<int> rank;
};

struct FleetSummary {
  bool present = false;
  std::string root;                     ///< the folder holding the jobs
  std::string layout;                   ///< why its subfolders were read as jobs
  std::vector<FleetJob> jobs;           ///< in folder name order
  std::vector<std::string> skipped;     ///< subfolders that are not jobs, each with why
  std::vector<FleetCauseTotal> causes;  ///< most GPU time lost first
  std::vector<FleetFixTotal> fixes;     ///< most GPU time won back first
  std::vector<FleetAccount> accounts;   ///< most throttled GPU time first
  int diagnosed = 0;
  int not_diagnosed = 0;
  int with_gpu_samples = 0;
  double gpu_lost_gpu_s = 0;
  double won_back_gpu_s = 0;
  /// The one price of a GPU-hour every priced job had (--gpu-hour-price, or one VM size's
  /// price); < 0 when none was given and the jobs' sizes differ in price or have none.
  double gpu_hour_price_usd = -1;
  double lost_usd = -1;  ///< totals over the priced jobs; < 0 when no job is priced
  double won_back_usd = -1;
  /// Says every money figure is an estimate and from which price(s); "" when nothing is priced.
  std::string price_note;
  /// Money columns are shown: some job is priced.
  bool priced() const { return !price_note.empty(); }
  int workers = 0;  ///< jobs diagnosed at once
  /// The jobs, most GPU time lost first (jobs without GPU samples, then those not diagnosed,
  /// last), and every sortable column's order: set by SetFleetOrders, so no reporter sorts.
  std::vector<size_t> by_gpu_lost;
  std::vector<FleetSortColumn> sort_columns;
};

/// What a cause is: "storage" (a limit, access, the mode, ...), "not storage" ("none found",
/// "not storage", the job's own phases, idle time not the job's cause) or "unknown"
/// ("inconclusive": nothing to place it).
std::string CauseKind(const std::string& cause);

/// The fleet's GPU time lost, split the way "how much did storage cost us" asks: the sums of
/// its causes' GPU time by CauseKind (the per-job figures as each job's diagnosis gave them).
struct StorageSplit {
  double storage_gpu_s = 0;
  double not_storage_gpu_s = 0;
  double unknown_gpu_s = 0;
  std::string top_storage_cause;  ///< the storage cause that cost most, "" when none
  int top_storage_jobs = 0;
  double top_storage_gpu_s = 0;
};
StorageSplit SplitByStorage(const FleetSummary& fleet);

/// Fills `by_gpu_lost` and `sort_columns` from `jobs` (also after reading a saved fleet).
void SetFleetOrders(FleetSummary* fleet);

}  // namespace feedcheck
