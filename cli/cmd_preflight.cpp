// `feedcheck preflight TARGET --sku S --nodes N [--profile P]`: can this storage feed this
// cluster? The workflow runs in app/preflight_workflow; this file binds the flags, guards the
// disk stage's test file against SIGINT/SIGTERM, and prints the outcome. Usable as a pipeline
// gate: 0 ready or below --fail-on, 1 findings at or above it, 3 target unreachable, 4 nothing
// measured.
#include <memory>

#include "app/preflight_workflow.h"
#include "cli/cluster_options.h"
#include "cli/command.h"
#include "cli/probe_options.h"
#include "cli/probe_output.h"
#include "cli/signal_guard.h"

namespace feedcheck::cli {
namespace {

struct PreflightFlags {
  app::PreflightRequest request;
  OutputFlags report;
};

int RunPreflight(PreflightFlags& flags, const GlobalOptions& globals) {
  app::CleanupRegistry registry;  // the disk stage's test file
  app::Outcome outcome;
  {
    SignalGuard guard(&registry);
    flags.request.knowledge = globals.knowledge;
    flags.request.fail_on = globals.fail_on;
    flags.request.cleanup = &registry;
    outcome = app::RunPreflight(flags.request, TerminalCallbacks(flags.request.session.duration));
  }
  return FinishProbeCommand("preflight", outcome, flags.report, globals);
}

}  // namespace

void SetupPreflight(CLI::App& root, CommandTable& table) {
  auto flags = std::make_shared<PreflightFlags>();
  app::PreflightRequest& r = flags->request;
  CLI::App* sub = root.add_subcommand(
      "preflight",
      "Check a storage target before a job: probes within a budget, rules, and a verdict "
      "(ready / at risk / will starve the GPUs)");
  AddProbeTargetOptions(sub, &r.session);
  AddProbeBudgetOptions(sub, &r.session);
  AddClusterOptions(sub, &r.cluster);
  sub->add_option("--profile", r.profile, "Workload profile YAML (examples/*.yaml)");
  sub->add_option("--probes", r.probes,
                  "Probes to run, in order (default: list,latency,smallfiles,throughput,nic and, "
                  "with --cache-dir, disk)")
      ->delimiter(',');
  sub->add_option("--cache-dir", r.cache_dir,
                  "Measure the cache disk: the directory the job will cache data in (the local "
                  "NVMe/temp disk, /mnt on Azure ML); one test file is written there and removed")
      ->check(CLI::ExistingDirectory);
  sub->add_option("--cache-test-bytes", r.cache_test_bytes,
                  "Size of the disk stage's test file (also capped by free space)")
      ->capture_default_str();
  sub->add_option("--max-concurrency", r.max_concurrency,
                  "Upper bound of the throughput sweep's connections, 1-1024")
      ->capture_default_str();
  AddOutputFlags(sub, &flags->report);
  table.Add(sub, [flags, &table] { return RunPreflight(*flags, table.globals()); });
}

}  // namespace feedcheck::cli
