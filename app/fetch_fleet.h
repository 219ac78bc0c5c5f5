// `fetch --jobs-since 7d`: the workspace's jobs that finished in the window (az ml job list),
// each fetched as `fetch JOB` does into DIR/<job>, so `postmortem DIR` reads them as a fleet.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "app/fetch_workflow.h"

namespace feedcheck::app {

struct FetchFleetRequest {
  FetchRequest each;       ///< the workspace, the time limit; out_dir: the fleet's folder
  double since_s = 0;      ///< jobs created this long before `now`
  double now_epoch_s = 0;  ///< 0: the clock (tests give a fixed time)
  int max_jobs = 200;      ///< az ml job list --max-results
};

/// "7d", "36h", "90m" -> seconds; nullopt for anything else.
std::optional<double> ParseSince(std::string_view text);

/// Lists, filters (finished: Completed, Failed, Canceled; created within the window) and
/// fetches each job. A job whose fetch fails is a warning and a row saying why; a failure that
/// every job would meet (not logged in, no permission, az missing, a time-out) stops the run.
Outcome RunFetchFleet(const FetchFleetRequest& request, const ProcessRunner& run);

}  // namespace feedcheck::app
