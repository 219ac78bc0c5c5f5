#include "diagnosis/checkpoint_stops.h"

#include <algorithm>
#include <cmath>

namespace feedcheck::diagnosis {

std::vector<TimeSpan> CheckpointStops(const std::vector<TimeSpan>& stops, double every_s,
                                      double sample_interval_s, double input_start_s) {
  std::vector<TimeSpan> out;
  if (!(every_s > 0) || !std::isfinite(every_s)) return out;
  const double drift_s = std::max(kCheckpointDriftShare * every_s,
                                  kCheckpointStartSamples * std::max(0.0, sample_interval_s));
  // A cadence the samples cannot resolve (a stop would be its own partner) says nothing.
  if (drift_s >= every_s / 2) return out;
  // Starts in order: a partner is the first start at or past (start + cadence - drift).
  auto candidate = [&](const TimeSpan& s) {
    return std::isfinite(s.start_s) && !(s.start_s < input_start_s + drift_s);
  };
  std::vector<double> starts;
  for (const auto& s : stops)
    if (candidate(s)) starts.push_back(s.start_s);
  std::sort(starts.begin(), starts.end());
  auto partner_at = [&](double t) {
    auto it = std::lower_bound(starts.begin(), starts.end(), t - drift_s);
    return it != starts.end() && *it <= t + drift_s;
  };
  for (const auto& s : stops)
    if (candidate(s) && (partner_at(s.start_s + every_s) || partner_at(s.start_s - every_s)))
      out.push_back(s);
  return out;
}

}  // namespace feedcheck::diagnosis
