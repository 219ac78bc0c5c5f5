#include "analyzers/node_cpu_metric.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "analyzers/bounded_series.h"
#include "analyzers/text_util.h"

namespace feedcheck::analyzers {

namespace {

// A percentage a little past 100 is the metric's rounding; more is not a utilisation.
constexpr double kRoundingPercent = 0.5;
// A node's CPU series keeps at most this many buckets (a week of minutes is 10,080).
constexpr size_t kMaxCpuPointsPerNode = 4096;

// The buckets at their starts (a point's time is its minute's start, as the metric's), each
// its points' mean: the series is read per bucket (analyzers/series_at.h).
std::vector<SeriesPoint> BucketStarts(const BoundedSeries& series) {
  std::vector<SeriesPoint> out;
  for (const auto& b : series.Buckets()) out.push_back({b.x_start, b.y_mean});
  return out;
}

}  // namespace

bool IsCpuMetricName(std::string_view name) {
  return IEquals(name, "CpuUtilization") || IEquals(name, "CpuUtilizationPercentage");
}

std::optional<double> CpuPercentOf(double value, std::string* why) {
  if (!std::isfinite(value)) {
    *why = "not a finite number";
    return std::nullopt;
  }
  if (value < 0 || value > 100 + kRoundingPercent) {
    *why = fmt::format("{} is not a utilisation (0 to 100 %)", value);
    return std::nullopt;
  }
  return std::min(value, 100.0);
}

void AddNodeCpuFacts(const std::vector<CpuMetricPoint>& points, Evidence* out) {
  if (points.empty()) return;
  struct Sum {
    double percent = 0;
    size_t n = 0;
    std::string file;
  };
  Sum all;
  std::map<std::string, Sum> nodes;
  for (const auto& p : points) {
    all.percent += p.util_percent;
    ++all.n;
    if (all.file.empty()) all.file = p.file;
    if (p.node.empty()) continue;
    Sum& s = nodes[KeySegment(p.node)];
    s.percent += p.util_percent;
    ++s.n;
    if (s.file.empty()) s.file = p.file;
  }
  auto where = [](const Sum& s, const std::string& what) {
    return Provenance{FactOrigin::kObserved,
                      fmt::format("{} (Azure ML CpuUtilization, {} point{}{})", s.file, s.n,
                                  s.n == 1 ? "" : "s", what),
                      s.file, 0};
  };
  out->facts.Set(NumberFact("cpu.samples", static_cast<double>(all.n), Unit::kCount,
                            where(all, ", all nodes")));
  out->facts.Set(NumberFact("cpu.util_mean", all.percent / static_cast<double>(all.n),
                            Unit::kPercent, where(all, ", all nodes")));
  for (const auto& [node, s] : nodes)
    out->facts.Set(NumberFact("cpu.node_util_mean." + node, s.percent / static_cast<double>(s.n),
                              Unit::kPercent, where(s, ", node " + node)));
  // Each named node's minutes, in time order: the idle ledger reads a node's CPU where its GPUs
  // idled. Bounded like every series of the job (a week of minutes merges into wider buckets).
  std::map<std::string, BoundedSeries> by_node;
  for (const auto& p : points)
    if (!p.node.empty())
      by_node.try_emplace(p.node, p.interval_s > 0 ? p.interval_s : 60.0, kMaxCpuPointsPerNode)
          .first->second.Add(p.epoch_s, p.util_percent);
  for (auto& [node, series] : by_node)
    out->series.push_back(Series{"cpu.util_percent", "CPU utilisation, node " + node, "time",
                                 Unit::kSeconds, "CPU utilisation", Unit::kPercent,
                                 BucketStarts(series), node});
}

}  // namespace feedcheck::analyzers
