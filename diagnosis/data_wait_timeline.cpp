#include "diagnosis/data_wait_timeline.h"

#include <fmt/format.h>

#include <map>

namespace feedcheck::diagnosis {

std::optional<Series> DataWaitTimeline(const std::vector<analyzers::RankFigures>& ranks) {
  struct Step {
    double start_sum_s = 0, step_s = 0, wait_s = 0;
    size_t ranks = 0;
  };
  std::map<int64_t, Step> steps;  // by step number: the ranks' step N together
  size_t placed = 0;
  bool approximate = false;
  for (const auto& r : ranks) {
    if (r.clock == analyzers::TraceClock::kNone || r.steps.empty()) continue;
    ++placed;
    approximate = approximate || r.clock == analyzers::TraceClock::kFileStamp;
    for (const auto& f : r.steps) {
      Step& s = steps[f.number];
      s.start_sum_s += f.start_epoch_s;
      s.step_s += f.step_s;
      s.wait_s += f.wait_s;
      ++s.ranks;
    }
  }
  if (steps.empty()) return std::nullopt;
  Series s;
  s.key = kDataWaitSeries;
  s.title = fmt::format("waited for data, share of each step ({} rank{}, {} step{}: #{}-#{}{})",
                        placed, placed == 1 ? "" : "s", steps.size(), steps.size() == 1 ? "" : "s",
                        steps.begin()->first, steps.rbegin()->first,
                        approximate ? ", placed approximately" : "");
  s.x_label = "time";
  s.x_unit = Unit::kSeconds;
  s.y_label = "waited for data";
  s.y_unit = Unit::kPercent;
  for (const auto& [number, step] : steps)
    s.points.push_back({step.start_sum_s / static_cast<double>(step.ranks),
                        step.step_s > 0 ? 100 * step.wait_s / step.step_s : 0});
  return s;
}

}  // namespace feedcheck::diagnosis
