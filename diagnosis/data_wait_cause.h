// Why a training loop waited for its data, from plain values: the share of its steps it spent in
// the DataLoader's `__next__` (a profiler trace, analyzers/torch_steps.h), what the data runtime's
// reads showed (slow or refused, fast, or nothing), and the node's CPU where it was recorded.
// The trace says THAT the loop waited; only the evidence beside it says why:
//   loader wait + storage slow or refusing        -> storage
//   loader wait + storage fast + CPU busy (or not
//   recorded), or CPU busy and no reads logged    -> the input pipeline (num_workers, decode)
//   no loader wait                                -> not input
//   loader wait and nothing beside it to settle it -> "waited for data, cause not shown"
// The post-mortem's per-rank section calls it; the idle ledger can call it per node.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/fact_set.h"

namespace feedcheck::diagnosis {

/// A loop that waited for data this share of its step time or more "waited for data".
inline constexpr double kLoaderWaitFraction = 0.2;
/// Traced steps whose GPUs idled under this share of them were GPU-bound: that the loop did not
/// wait then says nothing of the job's idle time.
inline constexpr double kTracedIdleShare = 0.1;
/// A node whose CPU was this busy (Azure ML's CpuUtilization, percent) had no CPU to spare for
/// the DataLoader's decode and transforms.
inline constexpr double kCpuBusyPercent = 85;
/// A read of the data runtime taking this long on average is slow (a local disk or a warm cache
/// answers in well under a millisecond; a blob read across a region in tens).
inline constexpr double kSlowReadMs = 50;

enum class StorageSpeed {
  kUnknown,         ///< no data-runtime logs to tell
  kSlowOrRefusing,  ///< reads slow, or refused / retried / timed out
  kFast,            ///< reads fast and none refused
};

enum class DataWaitCause { kNotInput, kStorage, kInputPipeline, kCauseNotShown };

struct DataWaitInputs {
  double loader_wait_fraction = 0;  ///< of step time, 0..1
  StorageSpeed storage = StorageSpeed::kUnknown;
  std::optional<bool> cpu_busy;  ///< the node's CPU, when recorded
};

struct DataWaitVerdict {
  DataWaitCause cause = DataWaitCause::kCauseNotShown;
  std::string key;   ///< "storage", "input_pipeline", "not_input", "cause_not_shown"
  std::string text;  ///< one sentence for the report
};

DataWaitVerdict ClassifyDataWait(const DataWaitInputs& in);
std::string_view DataWaitCauseKey(DataWaitCause cause);

/// What the data runtime's facts say of storage: refusals (runtime.throttled.*, 403/404/503
/// responses, give-ups, timeouts) or reads slower than kSlowReadMs (runtime.read_ms_mean) are
/// slow or refusing; reads timed and fast with nothing refused are fast; else unknown.
/// `why` gets the evidence in words.
StorageSpeed StorageSpeedOf(const FactSet& facts, std::string* why);

/// The CPU utilisation (percent) of `node`, the node a trace ran on: its own
/// (cpu.node_util_mean.<node>), or, when the traces ran on one node (`one_node`) and the metric
/// names at most one, the only one there is (Azure ML names a node by its NodeId, which a job
/// folder's node names do not show). nullopt when the CPU was not recorded or not for that node.
std::optional<double> NodeCpuPercentOf(const FactSet& facts, const std::string& node,
                                       bool one_node);

}  // namespace feedcheck::diagnosis
