#include "diagnosis/ledger_nodes.h"

#include <algorithm>
#include <cmath>

namespace feedcheck::diagnosis {

std::vector<const Series*> JobLostByNode(const Evidence& job, const Series& job_lost) {
  const auto& pts = job_lost.points;
  std::vector<const Series*> nodes;
  for (const auto& s : job.series) {
    if (s.key != "gpu.node_lost_gpu_s_by_time" || s.node.empty()) continue;
    if (s.points.size() != pts.size()) return {};
    for (size_t i = 0; i < pts.size(); ++i)
      if (s.points[i].x != pts[i].x) return {};
    nodes.push_back(&s);
  }
  if (nodes.size() < 2) return {};
  // Every idle bucket is the nodes' together, or a split would not add up to the job's.
  for (size_t i = 0; i < pts.size(); ++i) {
    if (!(pts[i].y > 0) || !std::isfinite(pts[i].y)) continue;
    double sum = 0;
    for (const Series* s : nodes)
      if (std::isfinite(s->points[i].y) && s->points[i].y > 0) sum += s->points[i].y;
    if (std::fabs(sum - pts[i].y) > 1e-6 * std::max(1.0, pts[i].y)) return {};
  }
  return nodes;
}

void SplitJobBucketsByNode(const Evidence& job, const Series& job_lost,
                           const std::vector<IdleState>& placed, IdleLedger* ledger) {
  const auto& pts = job_lost.points;
  if (placed.size() != pts.size()) return;
  const std::vector<const Series*> nodes = JobLostByNode(job, job_lost);
  for (const Series* s : nodes) {
    StateGpuS& mine = ledger->by_node[s->node];
    for (size_t i = 0; i < pts.size(); ++i) {
      const double y = s->points[i].y;
      if (!(pts[i].y > 0) || !std::isfinite(pts[i].y) || !(y > 0) || !std::isfinite(y)) continue;
      mine[static_cast<int>(placed[i])] += y;
    }
  }
}

}  // namespace feedcheck::diagnosis
