// `fetch JOB`: what a post-mortem needs from Azure, through the Azure CLI the user is logged
// into: the job's logs (az ml job download --all), its window and inputs (az ml job show), the
// storage account behind each input (az ml datastore show, az storage account show) and that
// account's blob metrics for the window at 1-minute grain (az monitor metrics list), written in
// the folder layout `postmortem` reads (docs/postmortem.md, "Fetch a job from Azure ML").
#pragma once

#include <string>

#include "app/az_commands.h"
#include "app/outcome.h"
#include "app/process_runner.h"

namespace feedcheck::app {

struct FetchRequest {
  std::string job;  ///< the Azure ML job's name
  AzWorkspace workspace;
  std::string out_dir;             ///< -o DIR: created; must not hold files yet
  double command_timeout_s = 900;  ///< each az command's time limit
  /// Minutes of metrics before the job's start and after its end (queueing, slow clocks).
  double margin_min = 10;
};

/// The plan and its run: each az command through `run` (argv, never a shell), stopping at the
/// first failure with the diagnostic that says which command failed and why (AzNotLoggedIn,
/// AzForbidden, AzNotFound, ...). A datastore that names no storage account is a warning (its
/// metrics are skipped), not a stop. Writes DIR/ (the download), DIR/metrics/<account>-*.json.
/// The Report: the job, its window, each account and what was written, every command run.
Outcome RunFetch(const FetchRequest& request, const ProcessRunner& run);

}  // namespace feedcheck::app

#include "app/fleet_workflow.h"

namespace feedcheck::app {

/// `postmortem --job JOB ...`: RunFetch into `fetch.out_dir`, then the post-mortem of that
/// folder with `postmortem`'s flags. A failed fetch is the outcome (its diagnostics say which
/// az command failed and why); no post-mortem runs on a partial folder.
Outcome RunFetchAndPostmortem(const FetchRequest& fetch, FleetRequest postmortem,
                              const ProcessRunner& run);

}  // namespace feedcheck::app
