// `feedcheck postmortem JOB_LOG_DIR [--metrics M] [--gpu G] [--trace T] [--profile P] [--with
// RESULT.json]
// [--sku S --nodes N --region R] [--layout auto|job|fleet] [--gpu-hour-price USD] [-f F]
// [-o FILE]`: flags for app::RunPostmortemCommand, which names the cause with its confidence and
// the GPU time it cost, for one job or for each job of a folder of jobs.
#include <map>
#include <memory>

#include "app/fetch_workflow.h"
#include "app/fleet_workflow.h"
#include "cli/cluster_options.h"
#include "cli/command.h"
#include "cli/report_output.h"

namespace feedcheck::cli {

void AddFetchOptions(CLI::App* sub, app::FetchRequest* request);  // cmd_fetch.cpp

void SetupPostmortem(CLI::App& root, CommandTable& table) {
  auto fleet = std::make_shared<app::FleetRequest>();
  app::PostmortemRequest* request = &fleet->each;
  auto output = std::make_shared<OutputFlags>();
  CLI::App* sub = root.add_subcommand(
      "postmortem",
      "Name the bottleneck of a finished job from its logs, storage metrics and GPU samples");
  sub->add_option("JOB_LOG_DIR", request->job_dir,
                  "Job log folder (system_logs/data_capability/), or a folder of job folders");
  auto fetch = std::make_shared<app::FetchRequest>();
  sub->add_option("--job", fetch->job,
                  "Fetch this Azure ML job first (as feedcheck fetch does; with --workspace, "
                  "--resource-group), then diagnose it");
  sub->add_option("--fetch-dir", fetch->out_dir,
                  "With --job: the folder to fetch into (new or empty; default ./JOB)");
  AddFetchOptions(sub, fetch.get());
  sub->add_option("--layout", fleet->layout,
                  "auto: a folder of job folders is a fleet, one row per job (default); job: "
                  "one job; fleet: each subfolder a job")
      ->check(CLI::IsMember({"auto", "job", "fleet"}));
  sub->add_option("--gpu-hour-price", fleet->gpu_hour_price_usd,
                  "Your price of one GPU-hour in USD: GPU time lost is also shown in money, "
                  "as an estimate from this price")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--workers", fleet->workers,
                  "Jobs of a fleet diagnosed at once (default: one per core)")
      ->check(CLI::Range(1u, 256u));
  sub->add_option("--metrics", request->metrics, "Storage account metrics export (JSON or CSV)");
  sub->add_option("--gpu", request->gpu, "GPU utilisation samples (nvidia-smi CSV, DCGM)");
  sub->add_option("--trace", request->traces,
                  "PyTorch profiler trace (.pt.trace.json, .json.gz), one per rank, besides those "
                  "found in the job folder: how long each step waited for data");
  sub->add_option("--profile", request->profile, "Workload profile YAML (examples/*.yaml)");
  sub->add_option("--with", request->with,
                  "Saved preflight or probe result (JSON): its measurements and charts join the "
                  "job's");
  AddClusterOptions(sub, &request->cluster);
  sub->add_option("--gpu-utc-offset", request->gpu_utc_offset,
                  "The zone nvidia-smi's clock was in, as +HH:MM or -HH:MM (its timestamps carry "
                  "none; default: UTC, guessed when they miss the logs by hours)");
  sub->add_option("--gpu-busy-threshold", request->gpu_busy_threshold_percent,
                  "GPU utilisation (%) under which a sample counts as starved")
      ->check(CLI::Range(0.0, 100.0));
  AddOutputFlags(sub, output.get());
  sub->parse_complete_callback([fleet, fetch] {
    if (fetch->job.empty() == fleet->each.job_dir.empty())
      throw CLI::ValidationError("give JOB_LOG_DIR, or --job JOB to fetch it (not both)");
    if (!fetch->job.empty() && fetch->out_dir.empty()) fetch->out_dir = fetch->job;
  });
  table.Add(sub, [fleet, fetch, output, &table] {
    fleet->each.knowledge = table.globals().knowledge;
    fleet->each.fail_on = table.globals().fail_on;
    if (!fetch->job.empty())
      return Render(app::RunFetchAndPostmortem(*fetch, *fleet, app::RunProcess), *output,
                    table.globals(), "postmortem");
    return Render(app::RunPostmortemCommand(*fleet), *output, table.globals(), "postmortem");
  });
}

}  // namespace feedcheck::cli
