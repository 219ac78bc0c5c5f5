// The post-mortem's "Waited for data" section: per rank of the job's PyTorch profiler traces, the
// steps the trace covers, the step time, the share of it the loop waited in the DataLoader's
// `__next__`, the GPU's idle time during that wait (GPU traces), and why it waited, from the
// evidence beside the trace (diagnosis/data_wait_cause.h). Kept apart from the "GPU time and
// cause" section: the trace is direct evidence the diagnosis may use, not its conclusion.
#pragma once

#include <vector>

#include "analyzers/torch_steps.h"
#include "core/fact_set.h"
#include "reports/report.h"

namespace feedcheck::app {

/// The key of the section: its JSON object's name in a saved report.
inline constexpr const char* kDataWaitSection = "data_wait";

/// Adds the section (and `result` entries: loader_wait_fraction, data_wait_cause) for `ranks`;
/// nothing when there are none. `facts` are the job's (the data runtime's reads, the node's CPU).
/// `multi_node_job`: the job folder holds a folder per node; its CPU metric's nodes are then
/// matched to the ranks' by name only, never taken to be the one node the traces ran on.
void PutDataWait(const std::vector<analyzers::RankFigures>& ranks, const FactSet& facts,
                 Report* report, bool multi_node_job = false);

/// A saved report read back: lays the section out again from its JSON.
void RestoreDataWait(Report* report);

}  // namespace feedcheck::app
