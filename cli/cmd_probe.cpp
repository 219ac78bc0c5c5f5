// `feedcheck probe throughput | latency TARGET`: measure one node against the storage target.
// The workflows run in app/ (app/probe_throughput, app/probe_latency); this file binds the
// flags and prints the outcome.
#include "cli/cmd_probe.h"

#include <memory>

#include "app/probe_latency.h"
#include "app/probe_throughput.h"
#include "cli/probe_options.h"
#include "cli/probe_output.h"
#include "cli/signal_guard.h"

namespace feedcheck::cli {
namespace {

// How long a stopped read-only probe may take to print its partial result before the signal
// watcher exits without it.
constexpr double kStopGraceS = 5;

struct ThroughputFlags {
  app::ThroughputRequest request;
  OutputFlags report;
};

struct LatencyFlags {
  app::LatencyRequest request;
  OutputFlags report;
};

int RunThroughput(ThroughputFlags& flags, const GlobalOptions& globals) {
  // SIGINT/SIGTERM: the probe stops within about a second and prints what it measured,
  // marked partial; exit 128 + signal. Nothing to clean up (it only reads); the guard's
  // grace is a backstop should a request not stop.
  SignalGuard guard(nullptr, kStopGraceS);
  flags.request.knowledge = globals.knowledge;
  app::Outcome outcome =
      app::RunProbeThroughput(flags.request, TerminalCallbacks(flags.request.session.duration));
  return FinishProbeCommand("probe throughput", outcome, flags.report, globals);
}

int RunLatency(const LatencyFlags& flags, const GlobalOptions& globals) {
  SignalGuard guard(nullptr, kStopGraceS);  // as for throughput
  app::Outcome outcome =
      app::RunProbeLatency(flags.request, TerminalCallbacks(flags.request.session.duration));
  return FinishProbeCommand("probe latency", outcome, flags.report, globals);
}

void SetupThroughput(CLI::App* probe, CommandTable& table) {
  auto flags = std::make_shared<ThroughputFlags>();
  app::ThroughputRequest& r = flags->request;
  CLI::App* tp = probe->add_subcommand(
      "throughput",
      "Parallel ranged GETs: a sweep of connection counts to the knee, Gbit/s, CPU cost, and "
      "what limits the node (NIC, storage or client CPU)");
  AddProbeTargetOptions(tp, &r.session);
  AddProbeBudgetOptions(tp, &r.session);
  tp->add_option("--block-size", r.block_size, "Ranged GET size, 1MiB-64MiB")
      ->capture_default_str();
  tp->add_option("--concurrency", r.concurrency,
                 "Connections, or auto: 1, 2, 4, ... until more stop helping (as azcopy bench "
                 "tunes itself)")
      ->capture_default_str();
  tp->add_option("--max-concurrency", r.max_concurrency, "Upper bound of the auto sweep, 1-1024")
      ->capture_default_str();
  tp->add_option("--step-duration", r.step_duration,
                 "Length of each auto step (default: the budget split over the steps)");
  tp->add_option("--warmup", r.warmup,
                 "Excluded start of each step (default: 20% of it, at most 1s)");
  tp->add_option("--nic-gbps", r.nic_gbps, "NIC bandwidth of this node, Gbit/s")
      ->check(CLI::PositiveNumber);
  tp->add_option("--sku", r.sku,
                 "VM size of this node: the NIC bandwidth for the NIC fraction (knowledge base)");
  tp->add_option("--retries", r.retries, "Retries per block on throttling/faults, 0-10")
      ->capture_default_str();
  AddOutputFlags(tp, &flags->report);
  table.Add(tp, [flags, &table] { return RunThroughput(*flags, table.globals()); });
}

void SetupLatency(CLI::App* probe, CommandTable& table) {
  auto flags = std::make_shared<LatencyFlags>();
  app::LatencyRequest& r = flags->request;
  CLI::App* lp = probe->add_subcommand(
      "latency", "Small ranged GETs and HEADs: first byte, total, connect, TLS percentiles");
  AddProbeTargetOptions(lp, &r.session);
  AddProbeBudgetOptions(lp, &r.session);
  lp->add_option("--requests", r.requests, "Measured GETs on a reused connection, 1-10000000")
      ->capture_default_str();
  lp->add_option("--head-requests", r.head_requests, "Measured HEADs")->capture_default_str();
  lp->add_option("--new-connections", r.new_connections, "Measured GETs, each on a new connection")
      ->capture_default_str();
  lp->add_option("--warmup-requests", r.warmup_requests, "Excluded first GETs")
      ->capture_default_str();
  lp->add_option("--range-size", r.range_size, "Size of each ranged GET")->capture_default_str();
  lp->add_option("--concurrency", r.concurrency,
                 "Connections with a request in flight each (request rate, CPU per request), "
                 "1-1024")
      ->capture_default_str();
  AddOutputFlags(lp, &flags->report);
  table.Add(lp, [flags, &table] { return RunLatency(*flags, table.globals()); });
}

}  // namespace

void SetupProbe(CLI::App& root, CommandTable& table) {
  CLI::App* probe = root.add_subcommand(
      "probe", "Measure storage from this node: throughput, latency, list, smallfiles, disk, nic");
  probe->require_subcommand(1);
  SetupThroughput(probe, table);
  SetupLatency(probe, table);
  SetupProbeStorage(*probe, table);
  SetupProbeHost(*probe, table);
}

}  // namespace feedcheck::cli
