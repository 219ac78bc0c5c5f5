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

/// What a node's data runtime logged of its reads.
struct NodeReads {
  std::vector<TimeSpan> silences;  ///< between reads, beyond the fence
  std::optional<double> fence_s;   ///< the fence of its gaps between closes
  std::optional<double> last_read_s;
  double samples_end_s = 0;  ///< the end of its last GPU sample
  /// False where a capped cache is known to hold less than the input, or the job reads its
  /// input once: no cache can have served the node after its last read, so the silence to the
  /// end is not a cache's.
  bool cache_may_hold_input = true;
};

/// The stops in `reads.silences` (between reads): in each, the longest run of buckets of `lost`
/// from `from_s` on in which all `gpus` idled, when it covers at least kSilenceStoppedShare of
/// the silence. And in the silence from the last read to the end of the samples, when longer
/// than the fence: its buckets when all of them idled wholly, and either the cache cannot have
/// held the input or the node's idle share before it makes that no likelier than
/// kOwnPhaseChance (in samples of `sample_interval_s`, or of a bucket when wider); else the
/// stops that stand out from that stretch's own pace (OwnPhases). None without a GPU count.
std::vector<TimeSpan> ReadSilenceStops(const Series& lost, double gpus, double sample_interval_s,
                                       double from_s, NodeReads reads);

}  // namespace feedcheck::diagnosis
