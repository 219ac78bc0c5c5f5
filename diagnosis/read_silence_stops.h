// Stops of the job's own code seen in a mount's reads: the node's data runtime, which closed
// read spans at its own steady pace, fell silent far longer than its ordinary gaps (the
// analyzer's "read silences", beyond Tukey's far fence of its gaps) while every GPU of the node
// idled through most of the silence.
//
// A loader waiting for storage keeps asking for data, so its reads go on; GPUs that wait while
// nothing is read wait on the job (validation, evaluation, a barrier), or on a cache that serves
// the reads. A cache feeds the GPUs at the loader's pace (they are busy some of the time), so a
// silence counts only where the GPUs stopped outright. This tells a short stop from the node's
// waits where the GPU samples alone cannot: a node idle 90% of the time makes a run of five idle
// minutes likely, but not a five-minute hole in reads that came every half minute.
#pragma once

#include <optional>
#include <vector>

#include "core/evidence.h"
#include "diagnosis/own_phases.h"

namespace feedcheck::diagnosis {

/// A silence is a stop when one whole stop of all the GPUs covers at least this share of it.
inline constexpr double kSilenceStoppedShare = 0.5;

/// The stops in `silences` (a node's read silences between reads): in each, the longest run of
/// buckets of `lost` from `from_s` on in which all `gpus` idled, when it covers at least
/// kSilenceStoppedShare of the silence. And in the silence from `last_read_s` to `samples_end_s`,
/// when longer than `fence_s`: its buckets when all of them idled wholly, which the node's idle
/// share before it makes no likelier than kOwnPhaseChance (in samples of `sample_interval_s`, or of
/// a bucket when wider). None without a GPU count.
std::vector<TimeSpan> ReadSilenceStops(const Series& lost, double gpus,
                                       std::vector<TimeSpan> silences,
                                       std::optional<double> fence_s,
                                       std::optional<double> last_read_s, double from_s,
                                       double samples_end_s, double sample_interval_s);

}  // namespace feedcheck::diagnosis
