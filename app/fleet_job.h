// One job of a fleet: its post-mortem's Outcome reduced to the row the fleet keeps (nodes, GPUs,
// duration, GPU time lost, cause, fix and what it buys, the accounts it read), so the job's
// evidence can be dropped as soon as the row is made.
#pragma once

#include <string>

#include "app/outcome.h"
#include "core/fleet_summary.h"

namespace feedcheck::app {

/// The row of `job` (its name under the fleet folder, read at `path`) from its post-mortem.
/// An Outcome without a report (nothing readable, a broken input) gives a row that is not
/// diagnosed, its problem naming the folder and the first error.
FleetJob FleetJobFromOutcome(const std::string& job, const std::string& path,
                             const Outcome& outcome);

/// Causes that are a limit of the storage account the job read (its egress, request rate,
/// ingress, a partition, or a throttle whose limit the logs do not name).
bool IsAccountThrottle(const std::string& cause);

}  // namespace feedcheck::app
