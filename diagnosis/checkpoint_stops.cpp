#include "diagnosis/checkpoint_stops.h"

#include <algorithm>
#include <cmath>

namespace feedcheck::diagnosis {

namespace {

double DriftS(double every_s, double sample_interval_s) {
  return std::max(kCheckpointDriftShare * every_s,
                  kCheckpointStartSamples * std::max(0.0, sample_interval_s));
}

// A stop that may be a checkpoint: not the node's wait for its first batch (one starting
// within the drift of its input's start).
bool MayBeCheckpoint(const TimeSpan& s, double input_start_s, double drift_s) {
  return std::isfinite(s.start_s) && !(s.start_s < input_start_s + drift_s);
}

}  // namespace

std::vector<TimeSpan> CheckpointStops(const std::vector<TimeSpan>& stops, double every_s,
                                      double sample_interval_s, double input_start_s) {
  std::vector<TimeSpan> out;
  if (!(every_s > 0) || !std::isfinite(every_s)) return out;
  const double drift_s = DriftS(every_s, sample_interval_s);
  // A cadence the samples cannot resolve (a stop would be its own partner) says nothing.
  if (drift_s >= every_s / 2) return out;
  // Starts in order: a partner is the first start at or past (start + cadence - drift).
  auto candidate = [&](const TimeSpan& s) { return MayBeCheckpoint(s, input_start_s, drift_s); };
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

std::vector<TimeSpan> RecurringCheckpointRuns(const std::vector<TimeSpan>& runs, double every_s,
                                              double sample_interval_s, double input_start_s,
                                              double sampled_s) {
  std::vector<TimeSpan> paired = CheckpointStops(runs, every_s, sample_interval_s, input_start_s);
  if (paired.size() < 2 || !(sampled_s > 0)) return {};
  const double drift_s = DriftS(every_s, sample_interval_s);
  double starts = 0;
  for (const auto& r : runs)
    if (MayBeCheckpoint(r, input_start_s, drift_s)) starts += 1;
  // A run has a partner by chance when another starts in either window (2 drifts wide).
  const double per_run = 1 - std::exp(-(starts / sampled_s) * 4 * drift_s);
  if (PoissonTailAtLeast(starts * per_run, static_cast<double>(paired.size())) > kOwnPhaseChance)
    return {};
  return paired;
}

}  // namespace feedcheck::diagnosis
