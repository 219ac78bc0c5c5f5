// The start protocol of a multi-node probe. Every rank sets up on its own, then all agree to go
// ahead before any collective measurement (a rank that cannot run makes all stop together,
// rather than leave the others waiting in a barrier). Each step: barrier, rank 0 broadcasts a
// start time a little ahead, active ranks measure from it, idle ranks sleep it out (MPI waits
// spin; a spinning idle rank would steal CPU from the ones measuring), rank 0 gathers reports.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "mpi/cluster_merge.h"
#include "mpi/mpi_world.h"

namespace feedcheck {

/// Room for the start broadcast to reach every rank before the start time.
inline constexpr double kStartLeadS = 0.3;

/// Wall-clock seconds since the epoch (system_clock): the ranks' common time base.
double EpochNow();
void SleepUntilEpoch(double epoch_s);

/// Every rank's set-up outcome (0 or an exit status, and why). On rank 0 `failures` gets one line
/// per failing rank, "rank R (HOST): why", the same message from several ranks once. Every rank
/// returns the worst status, so all go ahead or all stop.
int AgreeToStart(const MpiWorld& world, int status, const std::string& error,
                 std::vector<std::string>* failures);

/// What a rank measures in a step, given the common start time; returns its report.
using MeasureFn = std::function<RankReport(double start_epoch_s)>;

/// One synchronized step: ranks below `active_ranks` run `measure` from the common start; the
/// others sleep `idle_s` past it and report themselves inactive. Returns every rank's report on
/// rank 0 (empty elsewhere); a report that does not parse is left out with a line in `errors`.
std::vector<RankReport> RunSynchronizedStep(const MpiWorld& world, int active_ranks, double idle_s,
                                            const MeasureFn& measure,
                                            std::vector<std::string>* errors);

/// Every step of a probe run: one step of all ranks, or with `ramp` steps of 1, 2, ... N active
/// ranks (each `step_s` long for the ranks sitting it out). Returns on rank 0 each step's
/// reports, in order (empty elsewhere); unreadable reports as in RunSynchronizedStep.
std::vector<std::vector<RankReport>> RunSteps(const MpiWorld& world, bool ramp, double step_s,
                                              const MeasureFn& measure,
                                              std::vector<std::string>* errors);

}  // namespace feedcheck
