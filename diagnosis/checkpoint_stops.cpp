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

// The stops of `stops` with a partner a cadence away, either side: another stop's start from
// their start, and (`ends_too`) another's end from their end.
std::vector<TimeSpan> PairedStops(const std::vector<TimeSpan>& stops, double every_s,
                                  double sample_interval_s, double input_start_s, bool ends_too) {
  std::vector<TimeSpan> out;
  if (!(every_s > 0) || !std::isfinite(every_s)) return out;
  const double drift_s = DriftS(every_s, sample_interval_s);
  // A cadence the samples cannot resolve (a stop would be its own partner) says nothing.
  if (drift_s >= every_s / 2) return out;
  auto candidate = [&](const TimeSpan& s) { return MayBeCheckpoint(s, input_start_s, drift_s); };
  std::vector<double> starts, ends;
  for (const auto& s : stops)
    if (candidate(s)) {
      starts.push_back(s.start_s);
      ends.push_back(s.end_s);
    }
  std::sort(starts.begin(), starts.end());
  std::sort(ends.begin(), ends.end());
  // In order: a partner is the first at or past (t - drift), no later than (t + drift).
  auto partner_at = [&](const std::vector<double>& at, double t) {
    auto it = std::lower_bound(at.begin(), at.end(), t - drift_s);
    return it != at.end() && *it <= t + drift_s;
  };
  auto paired = [&](const std::vector<double>& at, double t) {
    return partner_at(at, t + every_s) || partner_at(at, t - every_s);
  };
  for (const auto& s : stops)
    if (candidate(s) && (paired(starts, s.start_s) || (ends_too && paired(ends, s.end_s))))
      out.push_back(s);
  return out;
}

}  // namespace

std::vector<TimeSpan> CheckpointStops(const std::vector<TimeSpan>& stops, double every_s,
                                      double sample_interval_s, double input_start_s) {
  // A checkpoint next to another stop of the node's own (a validation before it) makes one
  // stop with it: its start moves, its end stays a cadence from the next checkpoint's.
  return PairedStops(stops, every_s, sample_interval_s, input_start_s, /*ends_too=*/true);
}

std::vector<TimeSpan> RecurringCheckpointRuns(const std::vector<TimeSpan>& runs, double every_s,
                                              double sample_interval_s, double input_start_s,
                                              double sampled_s) {
  // Starts alone: the chance below is of a start in either window.
  std::vector<TimeSpan> paired =
      PairedStops(runs, every_s, sample_interval_s, input_start_s, /*ends_too=*/false);
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
