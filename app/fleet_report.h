// The fleet's post-mortem (a folder of jobs) as the generic parts of a report: the "fleet"
// section (the totals as labelled lines, the bar chart of GPU time lost by cause, the tables of
// jobs, causes, fixes and accounts with their notes) whose JSON is the `fleet` object scripts and
// `feedcheck compare` read, then the jobs not diagnosed and how the folder was read. No reporter
// knows the fleet: they lay out these parts as they do every command's.
#pragma once

#include "core/fleet_summary.h"
#include "reports/report.h"

namespace feedcheck::app {

/// The key of the fleet's section: its JSON object's name in a saved report.
inline constexpr const char* kFleetSection = "fleet";

/// Puts `fleet` into `report` as its sections, replacing those of an earlier call.
void PutFleet(const FleetSummary& fleet, Report* report);

/// The fleet a report carries (its section's JSON, also of a saved report read back), its
/// orders set; `present` false when it has none.
FleetSummary FleetOf(const Report& report);

}  // namespace feedcheck::app
