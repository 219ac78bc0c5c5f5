#include "analyzers/clock_offset.h"

#include <cmath>

namespace feedcheck::analyzers {

namespace {
constexpr double kStepS = 15 * 60;
constexpr int kMaxSteps = 14 * 4;  // UTC-12 .. UTC+14
}  // namespace

std::optional<double> LocalClockOffsetS(double samples_first_s, double samples_last_s,
                                        double logs_first_s, double logs_last_s, double slack_s) {
  if (!(samples_first_s <= samples_last_s) || !(logs_first_s <= logs_last_s)) return std::nullopt;
  auto overlaps = [&](double offset_s) {
    return samples_first_s + offset_s <= logs_last_s + slack_s &&
           samples_last_s + offset_s >= logs_first_s - slack_s;
  };
  if (overlaps(0)) return std::nullopt;
  std::optional<double> best;
  double best_miss = 0;
  for (int k = -kMaxSteps; k <= kMaxSteps; ++k) {
    if (k == 0) continue;
    double offset = k * kStepS;
    if (!overlaps(offset)) continue;
    double miss = std::fabs(samples_first_s + offset - logs_first_s);
    if (!best || miss < best_miss || (miss == best_miss && std::fabs(offset) < std::fabs(*best))) {
      best = offset;
      best_miss = miss;
    }
  }
  return best;
}

}  // namespace feedcheck::analyzers
