// `feedcheck-mpi probe throughput | latency | smallfiles`: the flags and what rank 0 prints.
// Every rank parses the same argv and sets up its own probe (app/mpi_rank_probe); the start
// protocol — agree, barrier, broadcast a start, measure, gather — is mpi/coordinator's; rank 0
// merges the reports (mpi/cluster_merge) and prints them here.
#include "cli/cmd_probe_mpi.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <memory>

#include "app/mpi_cluster_result.h"
#include "app/mpi_rank_probe.h"
#include "cli/command.h"
#include "cli/mpi_output.h"
#include "cli/probe_options.h"
#include "core/evidence_json.h"
#include "core/exit_status.h"
#include "core/json_text.h"
#include "core/units.h"
#include "mpi/cluster_merge.h"
#include "mpi/coordinator.h"
#include "mpi/mpi_world.h"
#include "mpi/ramp.h"
#include "mpi/smallfile_merge.h"
#include "probes/redact.h"

namespace feedcheck::cli {
namespace {

using app::MpiProbeRequest;
using app::RankProbe;

std::string Replace(std::string text, const std::string& what, const std::string& with) {
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + with.size()))
    text.replace(at, what.size(), with);
  return text;
}

struct MpiFlags {
  MpiProbeRequest request;
  std::string netns;  // namespace name, "{rank}" replaced
};

// One step of every rank; rank 0 gets the reports and prints unreadable ones.
std::vector<RankReport> Step(const MpiWorld& w, const RankProbe& s, int active) {
  std::vector<std::string> errors;
  std::vector<RankReport> reports = RunSynchronizedStep(
      w, active, s.env.budget.duration_s, [&s](double start) { return app::MeasureRank(s, start); },
      &errors);
  for (const std::string& e : errors) fmt::print(stderr, "feedcheck-mpi: {}\n", e);
  return reports;
}

nlohmann::json ProbeJson(const MpiProbeRequest& f, const RankProbe& s, int ranks) {
  return {{"name", f.command},
          {"target", RedactUrl(s.env.target.Display())},
          {"ranks", ranks},
          {"duration_s", s.env.budget.duration_s},
          {"ramp", f.ramp}};
}

int RunThroughput(const MpiWorld& w, const MpiProbeRequest& f, const RankProbe& s, bool json) {
  const int n = w.size();
  if (w.root())
    fmt::print(stderr,
               "feedcheck-mpi probe throughput: {}; {} ranks x {} connections; {} s per {}; "
               "each rank at most {} requests and {} per {}\n",
               RedactUrl(s.env.target.Display()), n, f.concurrency, s.env.budget.duration_s,
               f.ramp ? "ramp step" : "run", s.env.budget.max_requests,
               FormatBytes(double(s.env.budget.max_bytes)), f.ramp ? "step" : "run");
  std::vector<ClusterThroughput> steps;
  std::vector<RankReport> last;
  for (int active = f.ramp ? 1 : n; active <= n; ++active) {
    last = Step(w, s, active);
    if (w.root()) {
      steps.push_back(MergeThroughput(last));
      PrintRankMessages(last);
    }
  }
  if (!w.root()) return 0;
  const ClusterThroughput& all = steps.back();
  app::ClusterThroughputResult result = app::AssembleThroughput(f, s, n, steps, last);
  const Evidence& ev = result.evidence;
  const int rc = result.exit_status;
  if (json) {
    nlohmann::json j = EvidenceToJson(ev);
    j["probe"] = ProbeJson(f, s, n);
    j["cluster"] = ThroughputClusterJson(steps, f.ramp ? &result.ramp : nullptr);
    fmt::print("{}\n", JsonText(j, 2));
    return rc;
  }
  fmt::print("cluster throughput: {} node{}, {} connections each, {} blocks\n", n,
             n == 1 ? "" : "s", f.concurrency, FormatBytes(double(s.throughput.block_bytes)));
  PrintClusterThroughput(all);
  if (f.ramp) PrintRamp(result.ramp, n, s.env.budget.duration_s);
  return rc;
}

int RunLatency(const MpiWorld& w, const MpiProbeRequest& f, const RankProbe& s, bool json) {
  const int n = w.size();
  if (w.root())
    fmt::print(stderr,
               "feedcheck-mpi probe latency: {}; {} ranks, each {} GETs of {}, {} HEADs, {} new "
               "connections; at most {} s\n",
               RedactUrl(s.env.target.Display()), n, s.latency.requests,
               FormatBytes(double(s.latency.range_bytes)), s.latency.head_requests,
               s.latency.new_connections, s.env.budget.duration_s);
  std::vector<RankReport> reports = Step(w, s, n);
  if (!w.root()) return 0;
  PrintRankMessages(reports);
  app::ClusterLatencyResult result = app::AssembleLatency(s, n, reports);
  const ClusterLatency& c = result.merged;
  const Evidence& ev = result.evidence;
  const int rc = result.exit_status;
  if (json) {
    nlohmann::json j = EvidenceToJson(ev);
    j["probe"] = ProbeJson(f, s, n);
    j["cluster"] = {{"nodes", NodesJson(c.nodes)}, {"ttfb_histogram", c.ttfb.ToJson()}};
    fmt::print("{}\n", JsonText(j, 2));
    return rc;
  }
  PrintClusterLatency(c, ev.facts, n);
  return rc;
}

int RunSmallFiles(const MpiWorld& w, const MpiProbeRequest& f, const RankProbe& s, bool json) {
  const int n = w.size();
  std::string target =
      s.local_dir.empty() ? RedactUrl(s.env.target.Display()) : s.local_dir + " (local path)";
  if (w.root())
    fmt::print(stderr,
               "feedcheck-mpi probe smallfiles: {}; {} ranks, each {} sizes at concurrency {}, "
               "up to {} reads per size; each rank at most {} s, {} requests, {}\n",
               target, n, s.smallfiles.sizes.size(), s.smallfiles.concurrency,
               s.smallfiles.requests_per_size, s.env.budget.duration_s, s.env.budget.max_requests,
               FormatBytes(double(s.env.budget.max_bytes)));
  std::vector<RankReport> reports = Step(w, s, n);
  if (!w.root()) return 0;
  PrintRankMessages(reports);
  app::ClusterSmallFilesResult result = app::AssembleSmallFiles(s, n, reports);
  const ClusterSmallFiles& c = result.merged;
  const Evidence& ev = result.evidence;
  const int rc = result.exit_status;
  if (json) {
    nlohmann::json j = EvidenceToJson(ev);
    j["probe"] = ProbeJson(f, s, n);
    if (!s.local_dir.empty()) j["probe"]["target"] = s.local_dir;
    j["cluster"] = SmallFilesClusterJson(c);
    fmt::print("{}\n", JsonText(j, 2));
    return rc;
  }
  PrintSmallFilesText(c, n);
  return rc;
}

void AddCommonFlags(CLI::App* app, MpiFlags* f) {
  AddProbeTargetOptions(app, &f->request.session);
  AddProbeBudgetOptions(app, &f->request.session);
  app->add_option("--netns", f->netns,
                  "Run each rank's probe inside this network namespace ({rank} is replaced): "
                  "emulated clusters on one host");
}

}  // namespace

int RunMpiProbeCommand(MpiWorld& world, int argc, char** argv) {
  CLI::App app{
      "feedcheck-mpi: the feedcheck probes on every MPI rank at once; rank 0 merges "
      "(aggregate over one common window, latency histograms merged bucket by bucket)"};
  app.set_version_flag("--version", FEEDCHECK_VERSION);
  app.require_subcommand(1);
  app.fallthrough();
  GlobalOptions globals;
  app.add_flag("--json", globals.json, "Evidence as JSON on rank 0 (other ranks print nothing)");
  app.add_option("--kb", globals.knowledge.kb_files, "Extra knowledge-base YAML file")
      ->check(CLI::ExistingFile);
  CLI::App* probe = app.add_subcommand("probe", "Measure storage from every rank at once");
  probe->require_subcommand(1);

  auto flags = std::make_shared<MpiFlags>();
  MpiProbeRequest* f = &flags->request;
  CLI::App* tp = probe->add_subcommand(
      "throughput", "Ranged GETs from every rank; aggregate over the common window; --ramp");
  AddCommonFlags(tp, flags.get());
  tp->add_option("--block-size", f->block_size, "Ranged GET size, 1MiB-64MiB")
      ->capture_default_str();
  tp->add_option("--concurrency", f->concurrency, "Connections per rank")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  tp->add_option("--warmup", f->warmup, "Excluded start of each run (default 20%, at most 1s)");
  tp->add_option("--retries", f->retries, "Retries per block on throttling/faults")
      ->check(CLI::Range(0, 10))
      ->capture_default_str();
  tp->add_flag("--ramp", f->ramp,
               "Steps of 1, 2, ... N active ranks, each --duration long: where the aggregate "
               "stops growing, against the knowledge base's prediction");
  tp->add_option("--nic-gbps", f->nic_gbps, "NIC bandwidth of one node (e.g. 24, 500Mbit/s)");
  tp->add_option("--sku", f->sku, "VM size of the nodes (knowledge base: NIC bandwidth)");
  tp->add_option("--region", f->region, "Region of the account (knowledge base: egress limit)");
  tp->add_option("--account-kind", f->account_kind, "Storage target profile (knowledge base)");
  tp->add_option("--account-egress-gbps", f->account_egress_gbps, "Account egress limit");

  CLI::App* lp = probe->add_subcommand(
      "latency", "Small ranged GETs from every rank; percentiles of all samples together");
  AddCommonFlags(lp, flags.get());
  lp->add_option("--requests", f->latency.requests, "Measured GETs per rank, reused connection")
      ->check(CLI::Range(1, 10000000))
      ->capture_default_str();
  lp->add_option("--head-requests", f->latency.head_requests, "Measured HEADs per rank")
      ->capture_default_str();
  lp->add_option("--new-connections", f->latency.new_connections,
                 "Measured GETs per rank, each on a new connection")
      ->capture_default_str();
  lp->add_option("--warmup-requests", f->latency.warmup_requests, "Excluded first GETs")
      ->capture_default_str();
  lp->add_option("--range-size", f->range_size, "Size of each ranged GET")->capture_default_str();

  CLI::App* sp = probe->add_subcommand(
      "smallfiles",
      "Reads of 4 KiB ... 64 MiB objects from every rank (a storage prefix, or a local path: "
      "each node's own directory); per-node overhead and bandwidth, one fit over all nodes' "
      "points, aggregate requests/s");
  AddCommonFlags(sp, flags.get());
  sp->add_option("--sizes", f->sizes, "Object sizes, e.g. 4KiB,64KiB,1MiB")->delimiter(',');
  sp->add_option("--concurrency", f->concurrency, "Parallel reads per rank")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  sp->add_option("--requests-per-size", f->requests_per_size,
                 "Reads per size and rank (fewer for big sizes when --max-bytes is tight)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return world.root() ? app.exit(e) : 0;
  } catch (const CLI::ParseError& e) {
    if (world.root()) app.exit(e);
    return ToInt(ExitStatus::kUsage);
  }
  f->command = tp->parsed() ? "throughput" : sp->parsed() ? "smallfiles" : "latency";

  f->knowledge = globals.knowledge;

  RankProbe s;
  std::string error;
  int rc = 0;
  if (!flags->netns.empty()) {
    std::string ns = Replace(flags->netns, "{rank}", std::to_string(world.rank()));
    if (!EnterNetworkNamespace(ns, &error)) {
      error = "--netns: " + error;
      rc = ToInt(ExitStatus::kInputError);
    }
  }
  if (rc == 0) rc = app::PrepareRankProbe(*f, &s, &error);
  std::vector<std::string> failures;
  rc = AgreeToStart(world, rc, RedactText(error), &failures);
  for (const std::string& line : failures) fmt::print(stderr, "feedcheck-mpi probe: {}\n", line);
  if (rc != 0) return rc;
  if (f->command == "throughput") return RunThroughput(world, *f, s, globals.json);
  if (f->command == "smallfiles") return RunSmallFiles(world, *f, s, globals.json);
  return RunLatency(world, *f, s, globals.json);
}

}  // namespace feedcheck::cli
