// The nodes of a multi-node job whose GPUs sat idle while their own data runtime read nothing:
// storage cannot have held back a node that asked it for nothing. The idle ledger charges their
// time to its own state (not_storage_node), and the verdict names them.
#pragma once

#include <string>
#include <vector>

#include "core/diagnosis_summary.h"

namespace feedcheck::diagnosis {

/// A node whose GPUs sat idle while its data runtime read nothing.
struct IdleNodeReadingNothing {
  std::string node;
  double lost_gpu_s = 0;
  double util_mean_percent = 0;
};

/// Nodes of `rows` whose log shows no reads (reads == 0) and whose GPUs were mostly idle
/// (mean utilisation under `busy_percent`, some GPU time lost). None when every node is such a
/// node: that is a job that never started its work, not one node.
std::vector<IdleNodeReadingNothing> NodesIdleReadingNothing(const std::vector<NodeRow>& rows,
                                                            double busy_percent);

}  // namespace feedcheck::diagnosis
