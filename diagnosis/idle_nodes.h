// The nodes of a multi-node job whose GPUs sat idle while their own data runtime read nothing:
// storage cannot have held back a node that asked it for nothing. The idle ledger charges their
// time to its own state (not_storage_node), and the verdict names them.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "core/diagnosis_summary.h"
#include "core/evidence.h"

namespace feedcheck::diagnosis {

/// A node whose GPUs sat idle while its data runtime read nothing.
struct IdleNodeReadingNothing {
  std::string node;
  double lost_gpu_s = 0;
  double util_mean_percent = 0;
};

/// The nodes whose own data-runtime log shows a failure: an access refusal, or an input or
/// output activity that ended in failure (the timeline's intervals by node).
std::set<std::string> NodesMeetingFailure(const std::vector<TimelineInterval>& timeline);

/// Nodes of `rows` whose log shows no reads (reads == 0) and whose GPUs were mostly idle
/// (mean utilisation under `busy_percent`, some GPU time lost). When every node is such a node,
/// the job never started its work, not one node: none, unless some of them met a failure in
/// their own log (`failed`: the job could not reach its input) and the others did not (a node
/// that never asked storage never met it: its GPUs idled for a reason of its own).
std::vector<IdleNodeReadingNothing> NodesIdleReadingNothing(
    const std::vector<NodeRow>& rows, double busy_percent,
    const std::set<std::string>& failed = {});

}  // namespace feedcheck::diagnosis
