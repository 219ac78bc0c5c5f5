// `feedcheck fetch JOB_NAME --workspace WS --resource-group RG [--subscription S] --dir DIR`:
// flags for app::RunFetch, which gets what a post-mortem needs through the az CLI on PATH.
// Also `postmortem --job JOB ...` (see cmd_postmortem.cpp) shares AddFetchOptions.
#include <memory>

#include "app/fetch_fleet.h"
#include "app/fetch_workflow.h"
#include "app/report_output.h"
#include "cli/command.h"
#include "cli/report_output.h"

namespace feedcheck::cli {

void AddFetchOptions(CLI::App* sub, app::FetchRequest* request) {
  sub->add_option("--workspace,-w", request->workspace.workspace, "Azure ML workspace name");
  sub->add_option("--resource-group,-g", request->workspace.resource_group,
                  "The workspace's resource group");
  sub->add_option("--subscription", request->workspace.subscription,
                  "Subscription name or id (default: az's current one)");
  sub->add_option("--storage-subscription", request->workspace.storage_subscription,
                  "The storage accounts' subscription when it is not the workspace's (default: "
                  "--subscription)");
  sub->add_option("--az-timeout", request->command_timeout_s,
                  "Seconds each az command may take before it is stopped (default 900)")
      ->check(CLI::Range(1.0, 86400.0));
}

void SetupFetch(CLI::App& root, CommandTable& table) {
  auto request = std::make_shared<app::FetchRequest>();
  auto output = std::make_shared<OutputFlags>();
  CLI::App* sub = root.add_subcommand(
      "fetch",
      "Download what a post-mortem needs from Azure ML (logs, window, storage metrics) "
      "with the az CLI");
  auto since = std::make_shared<std::string>();
  sub->add_option("JOB_NAME", request->job, "The Azure ML job's name");
  sub->add_option("--jobs-since", *since,
                  "Instead of one job: every job of the workspace that finished and was created "
                  "within this long (7d, 36h, 90m), each into DIR/JOB, a fleet for postmortem")
      ->type_name("DURATION");
  AddFetchOptions(sub, request.get());
  // A folder here, where every other command's -o is the report file: the flag is --dir, and
  // -o/--output still work (the fetch's own report goes to the terminal, in the format asked).
  sub->add_option("--dir,-o,--output", request->out_dir,
                  "Folder to write (new or empty): the job's logs and metrics, as feedcheck "
                  "postmortem reads them. -o is this folder here, not a report file as in the "
                  "other commands")
      ->type_name("DIR")
      ->required();
  sub->add_option("-f,--format", output->format, "Output format of the fetch's own report")
      ->check(CLI::IsMember(app::ReportFormatNames()));
  sub->parse_complete_callback([request, since] {
    if (request->job.empty() == since->empty())
      throw CLI::ValidationError("give JOB_NAME, or --jobs-since DURATION (not both)");
    if (!since->empty() && !app::ParseSince(*since))
      throw CLI::ValidationError("--jobs-since " + *since + ": a duration such as 7d, 36h, 90m");
  });
  table.Add(sub, [request, since, output, &table] {
    if (!since->empty()) {
      app::FetchFleetRequest fleet;
      fleet.each = *request;
      fleet.since_s = *app::ParseSince(*since);
      return Render(app::RunFetchFleet(fleet, app::RunProcess), *output, table.globals(), "fetch");
    }
    return Render(app::RunFetch(*request, app::RunProcess), *output, table.globals(), "fetch");
  });
}

}  // namespace feedcheck::cli
