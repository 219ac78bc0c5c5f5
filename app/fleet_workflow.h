// `postmortem DIR` when DIR holds several jobs (a fleet): each job's post-mortem, run in parallel
// on a bounded pool of workers, reduced to one row per job, then the totals: GPU time lost by
// cause, the fixes ranked by what they win back, the storage accounts the jobs shared.
#pragma once

#include <string>

#include "app/fleet_layout.h"
#include "app/outcome.h"
#include "app/postmortem_workflow.h"

namespace feedcheck::app {

struct FleetRequest {
  /// The flags every job shares (--sku, --nodes, --profile, ...); `job_dir` is the folder given.
  PostmortemRequest each;
  std::string layout = "auto";  ///< --layout: auto | job | fleet
  /// --gpu-hour-price in USD; < 0: none given, no money shown.
  double gpu_hour_price_usd = -1;
  /// Jobs diagnosed at once; 0: one per core of the machine.
  unsigned workers = 0;
};

/// `feedcheck postmortem DIR`: one job's post-mortem (RunPostmortem, with the price when given)
/// or, when DetectFleetLayout says DIR holds several jobs, the fleet's (RunFleet).
Outcome RunPostmortemCommand(const FleetRequest& request);

/// The fleet of `layout.jobs` under `request.each.job_dir`. Each job is read by one worker at a
/// time and only its row is kept, so memory holds at most one job's evidence per worker. A job
/// that cannot be diagnosed is a row saying why and a warning naming its folder; the rest of
/// the fleet is reported. Status: kFindings when a job's primary finding is at or above
/// --fail-on; kInputError when no job could be diagnosed.
Outcome RunFleet(const FleetRequest& request, const FleetLayout& layout);

}  // namespace feedcheck::app
