#include "diagnosis/own_phases.h"

#include <algorithm>
#include <cmath>

namespace feedcheck::diagnosis {

namespace {

// A bucket in which all the GPUs idled, allowing for a sample that straddles its edge.
constexpr double kStoppedShare = 0.98;

}  // namespace

std::vector<TimeSpan> OwnPhases(const Series& lost, double gpus, double sample_interval_s,
                                double from_s) {
  std::vector<TimeSpan> phases;
  const auto& pts = lost.points;
  if (!(gpus > 0) || pts.size() < 2) return phases;
  double width = 0;
  for (size_t i = 1; i < pts.size(); ++i) {
    const double w = pts[i].x - pts[i - 1].x;
    if (w > 0 && (width == 0 || w < width)) width = w;
  }
  if (!(width > 0)) return phases;
  const double full = gpus * width;
  const double sample_s = std::max(width, sample_interval_s);
  auto stopped = [&](const SeriesPoint& p) {
    return p.x >= from_s && std::isfinite(p.y) && p.y >= kStoppedShare * full;
  };
  // The runs of whole stops.
  std::vector<TimeSpan> runs;
  for (size_t i = 0; i < pts.size();) {
    if (!stopped(pts[i])) {
      ++i;
      continue;
    }
    size_t j = i + 1;
    while (j < pts.size() && stopped(pts[j]) && pts[j].x - pts[j - 1].x <= width * (1 + 1e-9)) ++j;
    runs.push_back({pts[i].x, pts[j - 1].x + width});
    i = j;
  }
  // The node's ordinary pace is its idle share outside its phases, and which long runs are
  // phases depends on that pace: start from its idle share over all, and take out each run too
  // unlikely at the pace, until none moves (runs only ever become phases: a node that waits
  // often is never told its waits were phases by a pace its phases lowered).
  const double chance_each =
      kOwnPhaseChance / static_cast<double>(std::max<size_t>(1, runs.size()));
  std::vector<bool> phase(runs.size(), false);
  for (bool moved = true; moved;) {
    moved = false;
    double idle = 0, buckets = 0;
    size_t r = 0;
    for (const auto& p : pts) {
      if (p.x < from_s || !std::isfinite(p.y)) continue;
      while (r < runs.size() && runs[r].end_s <= p.x) ++r;
      if (r < runs.size() && p.x >= runs[r].start_s && phase[r]) continue;
      idle += std::clamp(p.y / full, 0.0, 1.0);
      buckets += 1;
    }
    // Idle throughout (or nothing left beside the phases): no ordinary pace to stand out from.
    if (!(buckets > 0) || idle >= buckets) break;
    const double pace = idle / buckets;
    for (size_t k = 0; k < runs.size(); ++k) {
      if (phase[k] || runs[k].end_s - runs[k].start_s < kOwnPhaseMinS) continue;
      // A run under way goes on with the chance of one more idle sample.
      const double samples = (runs[k].end_s - runs[k].start_s) / sample_s;
      if (pace <= 0 || std::pow(pace, samples - 1) <= chance_each) {
        phase[k] = true;
        moved = true;
      }
    }
  }
  for (size_t k = 0; k < runs.size(); ++k)
    if (phase[k]) phases.push_back(runs[k]);
  return phases;
}

}  // namespace feedcheck::diagnosis
