// `feedcheck-mpi probe throughput | latency | smallfiles`: the flags. Every rank parses the same
// argv; the workflow (app/mpi_probe_workflow) sets each rank up, runs the steps together and
// merges on rank 0, whose Report goes through the reporters like every `feedcheck` command's.
#include "cli/cmd_probe_mpi.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include "app/mpi_probe_workflow.h"
#include "app/report_format.h"
#include "cli/command.h"
#include "cli/finite_flags.h"
#include "cli/probe_options.h"
#include "cli/probe_output.h"
#include "cli/report_output.h"
#include "core/exit_status.h"
#include "mpi/mpi_world.h"

namespace feedcheck::cli {
namespace {

void AddGlobalFlags(CLI::App* app, GlobalOptions* g) {
  app->add_flag("--json", g->json, "The report as JSON on rank 0 (other ranks print nothing)");
  app->add_option("--kb", g->knowledge.kb_files, "Extra knowledge-base YAML file")
      ->check(CLI::ExistingFile);
  app->add_option("--rules", g->knowledge.rules_dirs, "Directory of extra rules (*.yaml)");
  app->add_option("--fail-on", g->fail_on, "Exit 1 when a finding is at or above this severity")
      ->check(CLI::IsMember({"info", "warning", "critical", "never"}));
  app->add_flag("-v,--verbose", g->verbose, "List every rule not evaluated and what it lacked");
}

// Target, budget, --netns and -f/-o: what every probe subcommand takes.
void AddCommonFlags(CLI::App* sub, app::MpiProbeRequest* r, OutputFlags* output) {
  AddProbeTargetOptions(sub, &r->session);
  AddProbeBudgetOptions(sub, &r->session);
  sub->add_option("--netns", r->netns,
                  "Run each rank's probe inside this network namespace ({rank} is replaced): "
                  "emulated clusters on one host");
  AddOutputFlags(sub, output);
}

CLI::App* AddThroughput(CLI::App* probe, app::MpiProbeRequest* r, OutputFlags* output) {
  CLI::App* tp = probe->add_subcommand(
      "throughput", "Ranged GETs from every rank; aggregate over the common window; --ramp");
  AddCommonFlags(tp, r, output);
  tp->add_option("--block-size", r->block_size, "Ranged GET size, 1MiB-64MiB")
      ->capture_default_str();
  tp->add_option("--concurrency", r->concurrency, "Connections per rank")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  tp->add_option("--warmup", r->warmup, "Excluded start of each run (default 20%, at most 1s)");
  tp->add_option("--retries", r->retries, "Retries per block on throttling/faults")
      ->check(CLI::Range(0, 10))
      ->capture_default_str();
  tp->add_flag("--ramp", r->ramp,
               "Steps of 1, 2, ... N active ranks, each --duration long: where the aggregate "
               "stops growing, against the knowledge base's prediction");
  tp->add_option("--nic-gbps", r->nic_gbps, "NIC bandwidth of one node (e.g. 24, 500Mbit/s)");
  tp->add_option("--sku", r->sku, "VM size of the nodes (knowledge base: NIC bandwidth)");
  tp->add_option("--region", r->region, "Region of the account (knowledge base: egress limit)");
  tp->add_option("--account-kind", r->account_kind, "Storage target profile (knowledge base)");
  tp->add_option("--account-egress-gbps", r->account_egress_gbps, "Account egress limit");
  return tp;
}

CLI::App* AddLatency(CLI::App* probe, app::MpiProbeRequest* r, OutputFlags* output) {
  CLI::App* lp = probe->add_subcommand(
      "latency", "Small ranged GETs from every rank; percentiles of all samples together");
  AddCommonFlags(lp, r, output);
  lp->add_option("--requests", r->requests, "Measured GETs per rank, reused connection, 1-10000000")
      ->capture_default_str();
  lp->add_option("--head-requests", r->head_requests, "Measured HEADs per rank")
      ->capture_default_str();
  lp->add_option("--new-connections", r->new_connections,
                 "Measured GETs per rank, each on a new connection")
      ->capture_default_str();
  lp->add_option("--warmup-requests", r->warmup_requests, "Excluded first GETs")
      ->capture_default_str();
  lp->add_option("--range-size", r->range_size, "Size of each ranged GET")->capture_default_str();
  return lp;
}

CLI::App* AddSmallFiles(CLI::App* probe, app::MpiProbeRequest* r, OutputFlags* output) {
  CLI::App* sp = probe->add_subcommand(
      "smallfiles",
      "Reads of 4 KiB ... 64 MiB objects from every rank (a storage prefix, or a local path: "
      "each node's own directory); per-node overhead and bandwidth, one fit over all nodes' "
      "points, aggregate requests/s");
  AddCommonFlags(sp, r, output);
  sp->add_option("--sizes", r->sizes, "Object sizes, e.g. 4KiB,64KiB,1MiB")->delimiter(',');
  sp->add_option("--concurrency", r->concurrency, "Parallel reads per rank")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  sp->add_option("--requests-per-size", r->requests_per_size,
                 "Reads per size and rank (fewer for big sizes when --max-bytes is tight)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  return sp;
}

}  // namespace

int RunMpiProbeCommand(MpiWorld& world, int argc, char** argv) {
  CLI::App app{
      "feedcheck-mpi: the feedcheck probes on every MPI rank at once; rank 0 merges "
      "(aggregate over one common window, latency histograms merged bucket by bucket)"};
  app.name("feedcheck-mpi");
  app.set_version_flag("--version", FEEDCHECK_VERSION);
  app.require_subcommand(1);
  app.fallthrough();
  GlobalOptions globals;
  // Never colour: Open MPI gives each rank a pseudo-terminal even when mpirun's own output is a
  // pipe or a file, so the rank cannot tell, and escape codes would end up in saved output.
  globals.no_color = true;
  AddGlobalFlags(&app, &globals);
  CLI::App* probe = app.add_subcommand("probe", "Measure storage from every rank at once");
  probe->require_subcommand(1);
  app::MpiProbeRequest request;
  OutputFlags output;
  CLI::App* tp = AddThroughput(probe, &request, &output);
  CLI::App* sp = AddSmallFiles(probe, &request, &output);
  AddLatency(probe, &request, &output);
  RefuseNonFiniteNumbers(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return world.root() ? app.exit(e) : 0;
  } catch (const CLI::ParseError& e) {
    if (world.root()) app.exit(e);
    return ToInt(ExitStatus::kUsage);
  }
  request.command = tp->parsed() ? "throughput" : sp->parsed() ? "smallfiles" : "latency";
  // Conflicting format flags are a usage error before any rank measures, not after.
  std::string format_error;
  if (!app::ChooseReportFormat({globals.json, output.format, output.output}, &format_error)) {
    if (world.root()) fmt::print(stderr, "feedcheck-mpi: {}\n", format_error);
    return ToInt(ExitStatus::kUsage);
  }
  request.knowledge = globals.knowledge;
  request.fail_on = globals.fail_on;

  app::Outcome outcome = app::RunMpiProbe(world, request, TerminalCallbacks());
  if (!world.root()) return ToInt(outcome.status);  // rank 0 alone prints
  return Render(outcome, output, globals, "mpi probe " + request.command);
}

}  // namespace feedcheck::cli
