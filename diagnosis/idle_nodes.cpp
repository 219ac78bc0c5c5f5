#include "diagnosis/idle_nodes.h"

#include <algorithm>

namespace feedcheck::diagnosis {

std::set<std::string> NodesMeetingFailure(const std::vector<TimelineInterval>& timeline) {
  std::set<std::string> out;
  for (const auto& iv : timeline)
    if (!iv.node.empty() &&
        (iv.lane == "access" || (iv.lane == "data-runtime" && iv.status.rfind("Failure", 0) == 0)))
      out.insert(iv.node);
  return out;
}

std::vector<IdleNodeReadingNothing> NodesIdleReadingNothing(const std::vector<NodeRow>& rows,
                                                            double busy_percent,
                                                            const std::set<std::string>& failed) {
  std::vector<IdleNodeReadingNothing> out;
  if (rows.size() < 2) return out;
  for (const auto& r : rows)
    if (r.reads == 0 && r.gpu_util_mean >= 0 && r.gpu_util_mean < busy_percent &&
        r.gpu_lost_gpu_s > 0)
      out.push_back({r.node, r.gpu_lost_gpu_s, r.gpu_util_mean});
  // Every node idle and reading nothing is a job that never started its work, not one node;
  // but where some met the job's failure in their own logs, those that met none never asked.
  if (out.size() == rows.size()) {
    const auto met = std::count_if(out.begin(), out.end(),
                                   [&](const auto& n) { return failed.count(n.node) > 0; });
    if (met == 0 || met == static_cast<long>(out.size())) {
      out.clear();
    } else {
      out.erase(std::remove_if(out.begin(), out.end(),
                               [&](const auto& n) { return failed.count(n.node) > 0; }),
                out.end());
    }
  }
  return out;
}

}  // namespace feedcheck::diagnosis
