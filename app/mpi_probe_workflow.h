// `feedcheck-mpi probe throughput | latency | smallfiles`: the workflow every rank runs. Each
// rank enters its network namespace (--netns) and sets up its own probe; rank 0 also loads the
// rules; all agree to go ahead (mpi/coordinator), run the steps together, and rank 0 merges the
// ranks' reports into one Report, judged by the rules. Built into feedcheck_app_mpi, the one
// part of app/ that links MPI, and only when MPI is found.
#pragma once

#include "app/mpi_rank_probe.h"
#include "app/outcome.h"
#include "app/probe_session.h"
#include "mpi/mpi_world.h"

namespace feedcheck::app {

/// Runs the probe on every rank. Rank 0 returns the Report (has_report) with the diagnostics
/// met on the way: ranks that could not start (`mpi_codes` M001, all ranks then stop with the
/// worst status), reports that did not arrive readable (M002), ranks whose probe did not end ok
/// (M003). Other ranks return only the status. `callbacks.notice` gets rank 0's budget line.
Outcome RunMpiProbe(const MpiWorld& world, const MpiProbeRequest& request,
                    const ProbeCallbacks& callbacks);

}  // namespace feedcheck::app
