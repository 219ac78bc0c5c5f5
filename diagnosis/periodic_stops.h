// Stops that recur at a regular period: a job's validation or evaluation every N steps.
//
// A node whose loader is slow idles much of the time, so a validation of a few minutes is not
// unlikely as one run of its scattered waits and OwnPhases leaves it to the input pipeline. But
// the scattered waits fall at random times, while validations come every N steps: several long
// runs starting at one period are jointly unlikely when runs fall at random.
#pragma once

#include <vector>

#include "core/evidence.h"
#include "diagnosis/own_phases.h"

namespace feedcheck::diagnosis {

/// Validations recur from this period on (shorter is the loader's own rhythm)...
inline constexpr double kPeriodicStopMinPeriodS = 300;
/// ...and a recurring run is at least this long (and two samples).
inline constexpr double kPeriodicStopMinS = 60;

/// The runs of whole stops of `lost` (all `gpus` idle, from `from_s` on) that recur at a
/// common period, at least three of them, each as long as a run the node rarely makes, and not
/// already in `taken` (OwnPhases' phases). A chain of runs starts at two runs (its first period)
/// and goes on a period at a time, allowing about a sample interval of drift either way; it is
/// taken when, with the node's runs at least that long falling at random over its span, that
/// many of its later periods would hold one with chance at most kOwnPhaseChance over every
/// pair of runs tried (Bonferroni over pairs, lengths and ends).
std::vector<TimeSpan> PeriodicStops(const Series& lost, double gpus, double sample_interval_s,
                                    double from_s, const std::vector<TimeSpan>& taken);

}  // namespace feedcheck::diagnosis
