#include "diagnosis/idle_nodes.h"

namespace feedcheck::diagnosis {

std::vector<IdleNodeReadingNothing> NodesIdleReadingNothing(const std::vector<NodeRow>& rows,
                                                            double busy_percent) {
  std::vector<IdleNodeReadingNothing> out;
  if (rows.size() < 2) return out;
  for (const auto& r : rows)
    if (r.reads == 0 && r.gpu_util_mean >= 0 && r.gpu_util_mean < busy_percent &&
        r.gpu_lost_gpu_s > 0)
      out.push_back({r.node, r.gpu_lost_gpu_s, r.gpu_util_mean});
  // Every node idle and reading nothing is a job that never started its work, not one node.
  if (out.size() == rows.size()) out.clear();
  return out;
}

}  // namespace feedcheck::diagnosis
