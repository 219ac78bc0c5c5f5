// `compare A.json B.json` when both are fleets (last week's jobs against this week's): the
// totals, GPU time lost by cause and the accounts that throttled jobs, side by side. A fleet's
// figures are sums of what its jobs lost, not measurements with a noise band: they are judged
// per job (a fleet of more jobs loses more), beyond the tolerance.
#pragma once

#include <string>

#include "app/outcome.h"
#include "core/fleet_summary.h"

namespace feedcheck::app {

/// The Report ("Compare fleets"): verdict better | worse | no change on the GPU-hours lost per
/// job with GPU samples; `result` a, b, jobs_a, jobs_b, gpu_hours_lost_a/_b,
/// gpu_hours_lost_per_job_a/_b, change_per_job; tables "Fleet totals", "GPU time lost by
/// cause" and "Storage accounts that throttled jobs". Status kFindings when worse and
/// `fail_on_worse`.
Outcome CompareFleets(const std::string& a_name, const FleetSummary& a, const std::string& b_name,
                      const FleetSummary& b, double tolerance, bool fail_on_worse);

}  // namespace feedcheck::app
