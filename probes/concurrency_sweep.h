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

/// Index (in `steps`, ordered by concurrency) of the knee: the fewest connections whose rate
/// is not below the best one's by more than both bands added and `min_gain` of the best.
/// 0 when `steps` is empty.
size_t KneeOf(const std::vector<StepRate>& steps, double min_gain);

}  // namespace feedcheck
