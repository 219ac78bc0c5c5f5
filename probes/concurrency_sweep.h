// The auto concurrency sweep's statistics: each step's noise band from the rates of short
// intervals inside its own window, whether a step gained over the one before beyond both
// steps' noise, and the knee (the fewest connections not measurably slower than the best).
// Pure, so the decisions are unit-tested without a network.
#pragma once

#include <cstddef>
#include <vector>

#include "core/evidence.h"

namespace feedcheck {

/// One step's measurement as the sweep compares it.
struct StepRate {
  int concurrency = 0;
  double gbps = 0;
  double noise_gbps = 0;  ///< half-width of the band: two standard errors of the interval mean
};

/// Rates (Gbit/s) of consecutive intervals of at least `interval_s` from samples of
/// (seconds, cumulative bytes), in time order. A final interval shorter than half of
/// `interval_s` is dropped (too few bytes to say anything).
std::vector<double> IntervalGbps(const std::vector<SeriesPoint>& samples, double interval_s);

/// Two standard errors of the mean of `interval_gbps` (0 with fewer than 2 intervals).
double NoiseBandGbps(const std::vector<double>& interval_gbps);

enum class StepGain {
  kGained,  ///< higher by more than both bands added (no overlap) and by min_gain
  kWithin,  ///< inside the noise: neither gained nor lost
  kLost,    ///< lower by more than both bands added
};

/// Compares `higher` (more connections) with `lower`. `min_gain` (a fraction of `lower`) is
/// the smallest gain worth more connections even when the measurement could resolve less.
StepGain CompareSteps(const StepRate& lower, const StepRate& higher, double min_gain);

/// What a second run of a step says about the first. Runs that agree (neither gained nor lost
/// against the other, as CompareSteps judges two steps) measured one state twice and pool into
/// a longer one. Runs that disagree measured two states: fresh connections of the same count
/// reached a different rate, so the slower run was held below what the path carries by
/// something that does not last (a server whose BBR left its start-up paces each connection
/// at its own stale bandwidth estimate: three connections at 50 ms RTT stayed at 0.87 Gbit/s
/// for 8 s behind it where CUBIC recovered in 1 s; or another tenant). Averaging the two would
/// report neither; the step keeps the faster run and sets the slower one aside.
enum class RunMerge {
  kPool,        ///< one state: pool the runs
  kKeepFirst,   ///< the new run is the slower state: set it aside
  kKeepSecond,  ///< the first run(s) were the slower state: replace them
};
RunMerge MergeRuns(const StepRate& first, const StepRate& second, double min_gain);

/// Whether the count between two doublings (`middle`) fell short of the doubling above it
/// (`upper`) beyond the noise: the knee then moves up to `upper` on one run of `middle`, so
/// `middle` is measured once more before the sweep settles on it.
bool MiddleFellShort(const StepRate& middle, const StepRate& upper, double min_gain);

/// Index (in `steps`, ordered by concurrency) of the knee: the fewest connections whose rate
/// is not below the best one's by more than both bands added and `min_gain` of the best.
/// 0 when `steps` is empty.
size_t KneeOf(const std::vector<StepRate>& steps, double min_gain);

}  // namespace feedcheck
