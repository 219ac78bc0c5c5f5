// Stretches in which every GPU of a node stopped at once for longer than its input pipeline's
// pace explains: the job's own phases (validation, evaluation, saving), not its input.
//
// A node whose data loader cannot keep up idles in short, scattered waits: each step waits for
// its batch. A phase of the job's own code stops every GPU together for minutes. The two are told
// apart by how unlikely the stretch is as a run of the node's ordinary waits: with the node idle
// a share f of its samples, k idle samples in a row happen by chance with probability f^k.
#pragma once

#include <vector>

#include "core/evidence.h"

namespace feedcheck::diagnosis {

/// A stretch is a phase from this length on, however rare...
inline constexpr double kOwnPhaseMinS = 120;
/// ...and when the chance that any of the node's runs of idle samples is that long by chance
/// (its scattered waits, a run of k as likely as its idle share to the power k - 1) is at
/// most this.
inline constexpr double kOwnPhaseChance = 0.05;
/// A shorter run, from this length on, is a phase when runs that long would come anywhere in
/// the node's samples, at its idle share outside its phases, with at most this chance.
inline constexpr double kShortOwnPhaseMinS = 60;
inline constexpr double kShortOwnPhaseChance = kOwnPhaseChance / 10;
/// Phases that would fill more than this share of the node's time are none: its pace.
inline constexpr double kOwnPhasesMaxShare = 0.5;

/// A bucket that lost `lost_gpu_s` of its `full_gpu_s` (its GPUs x its width) is a whole stop:
/// every GPU idled, allowing for a sample that straddles its edge.
bool WholeStop(double lost_gpu_s, double full_gpu_s);

/// P(X >= n) and P(X <= n) for X Poisson with mean `mean` (n at or past the mean on the wrong
/// side is never a surprise: 1).
double PoissonTailAtLeast(double mean, double n);
double PoissonTailAtMost(double mean, double n);

struct TimeSpan {
  double start_s = 0;
  double end_s = 0;
};

/// Whether two spans share some time (spans that only touch do not).
inline bool Overlaps(const TimeSpan& a, const TimeSpan& b) {
  return a.start_s < b.end_s && b.start_s < a.end_s;
}

/// The runs of buckets of `lost` from `from_s` on in which all `gpus` idled, consecutive buckets
/// one width apart (the narrowest step between points, put in `width_s`).
std::vector<TimeSpan> WholeStopRuns(const Series& lost, double gpus, double from_s,
                                    double* width_s);

/// The phases in `lost` (a node's GPU-seconds lost per bucket, consecutive buckets one width
/// apart) from `from_s` on: runs of buckets in which all `gpus` idled, at least kOwnPhaseMinS
/// long and unlikely as one of the node's runs of waits (kOwnPhaseChance over all its runs) at
/// its idle share outside its phases, counted in samples of `sample_interval_s` (or of the
/// bucket, when wider). When the node has far more long runs than its waits would make, they
/// stand out by their number even when each is short; its runs of a minute or more do where
/// far fewer shorter runs come than its share would scatter (a long run beside them or not). A run
/// under half a sample (a sample cut at `from_s`) is none. None without a GPU count.
std::vector<TimeSpan> OwnPhases(const Series& lost, double gpus, double sample_interval_s,
                                double from_s);

}  // namespace feedcheck::diagnosis
