// Stops at the job's declared checkpoint cadence. A checkpoint written through an rw_mount
// output stops every GPU of the node until it is written, and no data-runtime log shows the
// write: where the account's Ingress is not there to say when the job wrote, the profile's
// `workload.checkpoint_every` is. A node's own stops recur at it; a validation's recur at their
// own period, and a stop with no partner a cadence away is left to the job's own code.
#pragma once

#include <vector>

#include "diagnosis/own_phases.h"

namespace feedcheck::diagnosis {

/// Checkpoints drift from their cadence by up to this share of it (a cadence declared to the
/// minute; a checkpoint every N steps comes a little later when the steps slowed)...
inline constexpr double kCheckpointDriftShare = 0.05;
/// ...and a stop's start is known to within this many sample intervals.
inline constexpr double kCheckpointStartSamples = 2;

/// The stops of `stops` (a node's stops of its own) with another stop starting a cadence
/// `every_s` away from their start, either side, within the drift (the larger of
/// kCheckpointDriftShare of the cadence and kCheckpointStartSamples sample intervals): a chain
/// of checkpoints, each a cadence after the last (a run too short for a second checkpoint
/// shows none: its one stop is left to the job's own code). A stop that starts within the
/// drift of the node's input (`input_start_s`) is its wait for its first batch: no checkpoint,
/// nor a partner of one. None without a cadence, or for one under twice the drift (the
/// samples cannot tell it).
std::vector<TimeSpan> CheckpointStops(const std::vector<TimeSpan>& stops, double every_s,
                                      double sample_interval_s, double input_start_s);

/// The same over all of a node's whole stops (`runs`, WholeStopRuns over `sampled_s` of
/// samples), short ones too (a checkpoint of seconds stops a sample or two): its runs paired
/// at the cadence, when that many would be paired by chance, with its runs starting at random
/// at their rate, with probability at most kOwnPhaseChance (Poisson); else none. A node that
/// stops often pairs its runs at any cadence.
std::vector<TimeSpan> RecurringCheckpointRuns(const std::vector<TimeSpan>& runs, double every_s,
                                              double sample_interval_s, double input_start_s,
                                              double sampled_s);

}  // namespace feedcheck::diagnosis
