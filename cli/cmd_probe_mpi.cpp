// Every rank parses the same argv, sets up its own probe environment, and all agree on going
// ahead before any collective measurement (a rank that cannot run makes all stop together,
// rather than leave the others waiting in a barrier). Each step: barrier, rank 0 broadcasts a
// start time a little ahead, active ranks measure from it, idle ranks sleep it out (MPI waits
// spin; a spinning idle rank would steal CPU from the ones measuring), reports are gathered.
#include "cli/cmd_probe_mpi.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <memory>
#include <thread>

#include "cli/command.h"
#include "cli/mpi_output.h"
#include "cli/probe_options.h"
#include "cli/sizing_common.h"
#include "core/evidence_json.h"
#include "core/exit_status.h"
#include "core/json_text.h"
#include "core/units.h"
#include "mpi/cluster_merge.h"
#include "mpi/mpi_world.h"
#include "mpi/ramp.h"
#include "mpi/smallfile_merge.h"
#include "probes/latency_probe.h"
#include "probes/redact.h"
#include "probes/smallfile_probe.h"
#include "probes/target.h"
#include "probes/throughput_probe.h"

namespace feedcheck::cli {
namespace {

constexpr double kStartLeadS = 0.3;          // room for the broadcast to reach every rank
constexpr size_t kMaxTimelinePoints = 2000;  // per rank and step, sent to rank 0

struct MpiFlags {
  std::string command;  // "throughput" | "latency" | "smallfiles"
  ProbeOptions common;
  std::string netns;  // namespace name, "{rank}" replaced
  // Throughput.
  std::string block_size = "4MiB";
  int concurrency = 4;
  std::string warmup;
  int retries = 3;
  bool ramp = false;
  std::string nic_gbps;
  std::string sku;
  std::string region;
  std::string account_kind;
  std::string account_egress_gbps;
  // Latency.
  LatencyProbeOptions latency;
  std::string range_size = "4KiB";
  // Small files.
  std::vector<std::string> sizes;
  int requests_per_size = SmallFileOptions{}.requests_per_size;
};

double EpochNow() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

void SleepUntilEpoch(double epoch_s) {
  double left = epoch_s - EpochNow();
  if (left > 0) std::this_thread::sleep_for(std::chrono::duration<double>(left));
}

int ExitFor(const std::string& status) {
  if (status == "unreachable") return ToInt(ExitStatus::kInputError);
  if (status == "failed") return ToInt(ExitStatus::kProbeFailed);
  return ToInt(ExitStatus::kOk);
}

std::string Replace(std::string text, const std::string& what, const std::string& with) {
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + with.size()))
    text.replace(at, what.size(), with);
  return text;
}

// Every rank's setup outcome: rank 0 prints the failures (naming rank and host); all return
// the worst exit status, or 0 when every rank can go ahead.
int Agree(const MpiWorld& w, int rc, const std::string& error) {
  std::string line = rc == 0 ? "" : fmt::format("rank {} ({}): {}", w.rank(), HostName(), error);
  std::vector<std::string> lines = w.Gather(line);
  if (w.root()) {
    // The same flag error on every rank is one message, not N.
    std::string previous_error;
    for (const std::string& l : lines) {
      if (l.empty()) continue;
      std::string msg = l.substr(l.find("): ") + 3);
      if (msg == previous_error) continue;
      previous_error = msg;
      fmt::print(stderr, "feedcheck-mpi probe: {}\n", l);
    }
  }
  return w.AllMax(rc);
}

struct Setup {
  HttpProbeEnv env;
  ThroughputProbeOptions throughput;
  LatencyProbeOptions latency;
  SmallFileOptions smallfiles;
  std::string local_dir;  // smallfiles on a local or mounted directory instead of a URL
  KnowledgeBase kb;
  NodeChoice node;
  AccountChoice account;
  bool have_account = false;
};

// Sizes and reads per size; a local path target reads that directory on every node.
int PrepareSmallFiles(const MpiFlags& f, Setup* s, std::string* error) {
  if (!f.sizes.empty()) {
    s->smallfiles.sizes.clear();
    for (const std::string& text : f.sizes) {
      std::string why;
      auto b = ParseBytes(text, &why);
      if (!b || *b < 1 || *b > double(1ull << 30)) {
        *error =
            "--sizes '" + text + "': a size from 1 B to 1 GiB" + (why.empty() ? "" : ": " + why);
        return ToInt(ExitStatus::kUsage);
      }
      s->smallfiles.sizes.push_back(static_cast<uint64_t>(*b));
    }
  }
  s->smallfiles.concurrency = f.concurrency;
  s->smallfiles.requests_per_size = f.requests_per_size;
  Target t;
  std::string why;
  if (ParseTarget(f.common.target, {}, &t, &why) && t.kind == TargetKind::kLocalPath) {
    s->local_dir = t.path;
    if (!ParseBudget(f.common, &s->env.budget, error)) return ToInt(ExitStatus::kUsage);
    s->env.target = t;
    return 0;
  }
  return BuildHttpProbeEnv(f.common, &s->env, error);
}

int Prepare(const MpiFlags& f, const GlobalOptions& globals, int rank, Setup* s,
            std::string* error) {
  if (!f.netns.empty()) {
    std::string ns = Replace(f.netns, "{rank}", std::to_string(rank));
    if (!EnterNetworkNamespace(ns, error)) {
      *error = "--netns: " + *error;
      return ToInt(ExitStatus::kInputError);
    }
  }
  if (f.command == "smallfiles") return PrepareSmallFiles(f, s, error);
  int rc = BuildHttpProbeEnv(f.common, &s->env, error);
  if (rc != 0) return rc;
  std::string why;
  if (f.command == "throughput") {
    auto block = ParseBytes(f.block_size, &why);
    if (!block || *block < double(1 << 20) || *block > double(64ull << 20)) {
      *error = "--block-size '" + f.block_size + "': must be a size from 1MiB to 64MiB";
      return ToInt(ExitStatus::kUsage);
    }
    s->throughput.block_bytes = static_cast<uint64_t>(*block);
    s->throughput.concurrency = f.concurrency;
    s->throughput.max_retries = f.retries;
    s->throughput.record_timeline = true;
    if (!f.warmup.empty()) {
      auto w = ParseSeconds(f.warmup, &why);
      if (!w || *w < 0) {
        *error = "--warmup '" + f.warmup + "': " + (why.empty() ? "must be >= 0" : why);
        return ToInt(ExitStatus::kUsage);
      }
      s->throughput.warmup_s = *w;
    }
    if (!f.sku.empty() || !f.region.empty() || !f.account_kind.empty()) {
      rc = LoadKnowledgeBase(globals, &s->kb);
      if (rc != 0) {
        *error = "the knowledge base did not load";
        return rc;
      }
    }
    FlagError fe;
    if (!ResolveNode(s->kb, f.sku, f.nic_gbps, &s->node, &fe)) {
      *error = fe.message;
      return ToInt(ExitStatus::kUsage);
    }
    s->throughput.nic_gbps = s->node.nic_gbps;
    if (!f.region.empty() || !f.account_kind.empty() || !f.account_egress_gbps.empty()) {
      if (!ResolveAccount(s->kb, f.region, f.account_kind, f.account_egress_gbps, &s->account,
                          &fe)) {
        *error = fe.message;
        return ToInt(ExitStatus::kUsage);
      }
      s->have_account = true;
    }
  } else {
    s->latency = f.latency;
    auto range = ParseBytes(f.range_size, &why);
    if (!range || *range < 1 || *range > double(64ull << 20)) {
      *error = "--range-size '" + f.range_size + "': must be a size from 1B to 64MiB";
      return ToInt(ExitStatus::kUsage);
    }
    s->latency.range_bytes = static_cast<uint64_t>(*range);
  }
  return 0;
}

RankReport FromProbe(const ProbeResult& r, int rank) {
  RankReport rep;
  rep.rank = rank;
  rep.host = HostName();
  rep.status = std::string(ProbeStatusName(r.status));
  rep.message = RedactText(r.message);
  const FactSet& f = r.evidence.facts;
  rep.errors = f.Number("probe.errors.total").value_or(0);
  rep.throttled = f.Number("probe.errors.throttled_egress").value_or(0) +
                  f.Number("probe.errors.throttled_requests").value_or(0);
  rep.retries = f.Number("probe.errors.retries").value_or(0);
  return rep;
}

// One synchronized step: ranks below `active_ranks` measure for the budget's duration.
std::vector<RankReport> RunStep(const MpiWorld& w, const MpiFlags& f, const Setup& s,
                                int active_ranks) {
  w.Barrier();
  double start = w.Broadcast(w.root() ? EpochNow() + kStartLeadS : 0);
  SleepUntilEpoch(start);
  RankReport rep;
  rep.rank = w.rank();
  rep.host = HostName();
  if (w.rank() >= active_ranks) {
    rep.active = false;
    SleepUntilEpoch(start + s.env.budget.duration_s);
  } else if (f.command == "throughput") {
    ThroughputProbeResult out = RunThroughputProbe(s.env, s.throughput);
    rep = FromProbe(out.result, w.rank());
    if (!out.steps.empty()) {
      const ThroughputStep& step = out.steps.front();
      rep.gbps = step.gbps;
      rep.window_start_epoch_s = step.window_start_epoch_s;
      rep.window_end_epoch_s = step.window_end_epoch_s;
      rep.timeline = ThinTimeline(step.timeline, kMaxTimelinePoints);
    }
  } else if (f.command == "smallfiles") {
    ProbeResult out = s.local_dir.empty() ? RunSmallFileProbe(s.env, s.smallfiles)
                                          : RunLocalSmallFileProbe(s.local_dir, s.smallfiles,
                                                                   s.env.budget, ProgressFn{});
    rep = FromProbe(out, w.rank());
    if (const Series* m = out.evidence.FindSeries("probe.smallfile.time_by_size"))
      rep.smallfile_ms = m->points;
    rep.requests = static_cast<double>(out.requests_sent);
    rep.elapsed_s = EpochNow() - start;
  } else {
    LatencyProbeResult out = RunLatencyProbe(s.env, s.latency);
    rep = FromProbe(out.result, w.rank());
    rep.ttfb = out.ttfb;
    rep.total = out.total;
    rep.connect = out.connect;
  }
  std::vector<std::string> texts = w.Gather(JsonText(rep.ToJson(), -1));
  std::vector<RankReport> reports;
  for (size_t i = 0; i < texts.size(); ++i) {
    std::string error;
    auto parsed = nlohmann::json::parse(texts[i], nullptr, false);
    auto r = parsed.is_discarded() ? std::nullopt : RankReport::FromJson(parsed, &error);
    if (r) {
      reports.push_back(std::move(*r));
    } else {
      fmt::print(stderr, "feedcheck-mpi: rank {} sent an unreadable report: {}\n", i, error);
    }
  }
  return reports;
}

nlohmann::json ProbeJson(const MpiFlags& f, const Setup& s, int ranks) {
  return {{"name", f.command},
          {"target", RedactUrl(s.env.target.Display())},
          {"ranks", ranks},
          {"duration_s", s.env.budget.duration_s},
          {"ramp", f.ramp}};
}

int WorstExit(const std::vector<RankReport>& reports) {
  int rc = 0;
  for (const RankReport& r : reports)
    if (r.active) rc = std::max(rc, ExitFor(r.status));
  return rc;
}

std::string ThroughputSource(const MpiFlags& f, const Setup& s, int ranks) {
  return fmt::format("probe throughput under MPI ({} ranks, {} connections each, {} MiB blocks)",
                     ranks, f.concurrency, s.throughput.block_bytes >> 20);
}

// The node's NIC as the ramp's prediction uses it: from --nic-gbps or the --sku row.
RampLimit NicLimit(const Setup& s) {
  RampLimit l;
  l.gbps = s.node.nic_gbps;
  if (l.gbps <= 0) return l;
  if (s.node.nic_from_flag || !s.node.vm) {
    l.basis = fmt::format("NIC {} Gbit/s (--nic-gbps)", l.gbps);
    l.provenance = {FactOrigin::kDeclared, "--nic-gbps"};
  } else {
    const VmSize& vm = *s.node.vm;
    l.basis = fmt::format("NIC {} Gbit/s ({}, {})", l.gbps, vm.name, RowRef(vm.file, vm.line));
    l.provenance = {FactOrigin::kKnowledge,
                    fmt::format("knowledge base: {}:{} {}", vm.file, vm.line, vm.name), vm.file,
                    vm.line};
  }
  return l;
}

// The account's egress: --account-egress-gbps, or the knowledge base's row for the region/kind.
RampLimit EgressLimit(const Setup& s) {
  RampLimit l;
  if (!s.have_account) return l;
  const StorageTarget& t = s.account.target;
  l.gbps = t.egress_gbps;
  if (s.account.egress_from_flag) {
    l.basis = fmt::format("account egress {} Gbit/s (--account-egress-gbps)", l.gbps);
    l.provenance = {FactOrigin::kDeclared, "--account-egress-gbps"};
  } else {
    l.basis =
        fmt::format("account egress {} Gbit/s ({}, {})", l.gbps, t.name, RowRef(t.file, t.line));
    l.provenance = {FactOrigin::kKnowledge,
                    fmt::format("knowledge base: {}:{} {}", t.file, t.line, t.name), t.file,
                    t.line};
  }
  return l;
}

int RunThroughput(const MpiWorld& w, const MpiFlags& f, const Setup& s, bool json) {
  const int n = w.size();
  std::string source = ThroughputSource(f, s, n);
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
    last = RunStep(w, f, s, active);
    if (w.root()) {
      steps.push_back(MergeThroughput(last));
      PrintRankMessages(last);
    }
  }
  if (!w.root()) return 0;
  const ClusterThroughput& all = steps.back();
  Evidence ev;
  AddThroughputFacts(all, source, &ev.facts);
  nlohmann::json ramp_json = nlohmann::json::array();
  Ramp ramp;
  if (f.ramp) {
    std::vector<double> measured;
    for (const ClusterThroughput& c : steps) measured.push_back(c.aggregate_gbps);
    RampLimit nic = NicLimit(s), egress = EgressLimit(s);
    ramp = BuildRamp(std::move(measured), nic, egress);
    AddRampEvidence(ramp, nic, egress, source, &ev);
    for (size_t i = 0; i < ramp.measured_gbps.size(); ++i)
      ramp_json.push_back({{"nodes", i + 1},
                           {"aggregate_gbps", ramp.measured_gbps[i]},
                           {"predicted_gbps", ramp.predicted_gbps[i]},
                           {"window_s", steps[i].window_s},
                           {"ranks", NodesJson(steps[i].nodes)}});
  }
  int rc = WorstExit(last);
  if (all.window_s <= 0) rc = std::max(rc, ToInt(ExitStatus::kProbeFailed));
  if (json) {
    nlohmann::json j = EvidenceToJson(ev);
    j["probe"] = ProbeJson(f, s, n);
    j["cluster"] = {{"aggregate_gbps", all.aggregate_gbps},
                    {"window_s", all.window_s},
                    {"window_start_epoch_s", all.window_start_epoch_s},
                    {"common_window_bytes", all.common_bytes},
                    {"error", all.error},
                    {"nodes", NodesJson(all.nodes)}};
    if (f.ramp) j["cluster"]["ramp"] = ramp_json;
    fmt::print("{}\n", JsonText(j, 2));
    return rc;
  }
  fmt::print("cluster throughput: {} node{}, {} connections each, {} blocks\n", n,
             n == 1 ? "" : "s", f.concurrency, FormatBytes(double(s.throughput.block_bytes)));
  PrintClusterThroughput(all);
  if (f.ramp) {
    const auto& m = ramp.measured_gbps;
    const auto& p = ramp.predicted_gbps;
    fmt::print("ramp (each step {:.1f} s):\n  {:>5}  {:>16}  {:>9}\n", s.env.budget.duration_s,
               "nodes", "aggregate Gbit/s", "predicted");
    for (size_t i = 0; i < m.size(); ++i)
      fmt::print("  {:>5}  {:>16.3f}  {:>9.3f}\n", i + 1, m[i], p[i]);
    fmt::print("  knee: {} node{} ({:.3f} Gbit/s){}; predicted {} node{} ({:.3f} Gbit/s)\n",
               ramp.knee, ramp.knee == 1 ? "" : "s", m[size_t(ramp.knee - 1)],
               ramp.knee == n ? ", or further: it still grew at the last step" : "",
               ramp.predicted_knee, ramp.predicted_knee == 1 ? "" : "s",
               p[size_t(ramp.predicted_knee - 1)]);
    fmt::print("  prediction from {}\n", ramp.prediction_basis);
  }
  return rc;
}

int RunLatency(const MpiWorld& w, const MpiFlags& f, const Setup& s, bool json) {
  const int n = w.size();
  if (w.root())
    fmt::print(stderr,
               "feedcheck-mpi probe latency: {}; {} ranks, each {} GETs of {}, {} HEADs, {} new "
               "connections; at most {} s\n",
               RedactUrl(s.env.target.Display()), n, s.latency.requests,
               FormatBytes(double(s.latency.range_bytes)), s.latency.head_requests,
               s.latency.new_connections, s.env.budget.duration_s);
  std::vector<RankReport> reports = RunStep(w, f, s, n);
  if (!w.root()) return 0;
  PrintRankMessages(reports);
  ClusterLatency c = MergeLatency(reports);
  std::string source = fmt::format("probe latency under MPI ({} ranks, {} GETs of {} each)", n,
                                   s.latency.requests, FormatBytes(double(s.latency.range_bytes)));
  Evidence ev;
  AddLatencyFacts(c, source, &ev.facts);
  if (c.ttfb.count())
    ev.series.push_back(LatencyCdfSeries(c.ttfb, "probe.latency.ttfb_cdf",
                                         "time to first byte, all ranks together"));
  if (c.total.count())
    ev.series.push_back(
        LatencyCdfSeries(c.total, "probe.latency.total_cdf", "whole GET, all ranks together"));
  int rc = WorstExit(reports);
  if (c.ttfb.count() == 0) rc = std::max(rc, ToInt(ExitStatus::kProbeFailed));
  if (json) {
    nlohmann::json j = EvidenceToJson(ev);
    j["probe"] = ProbeJson(f, s, n);
    j["cluster"] = {{"nodes", NodesJson(c.nodes)}, {"ttfb_histogram", c.ttfb.ToJson()}};
    fmt::print("{}\n", JsonText(j, 2));
    return rc;
  }
  auto fact = [&](const char* key) {
    const Fact* x = ev.facts.Find(key);
    return x ? FormatFactValue(*x) : std::string("-");
  };
  fmt::print("cluster latency: {} node{}, {} samples of time to first byte, merged\n", n,
             n == 1 ? "" : "s", c.ttfb.count());
  fmt::print("  all ranks together  p50 {}  p90 {}  p99 {}  p99.9 {}\n",
             fact("probe.cluster.ttfb_p50_ms"), fact("probe.cluster.ttfb_p90_ms"),
             fact("probe.cluster.ttfb_p99_ms"), fact("probe.cluster.ttfb_p999_ms"));
  PrintNodeTable(c.nodes);
  if (c.slowest >= 0) {
    const NodeRow& lo = c.nodes[static_cast<size_t>(c.slowest)];
    const NodeRow& hi = c.nodes[static_cast<size_t>(c.fastest)];
    fmt::print("  slowest: rank {} ({}) p50 {:.2f} ms; fastest: rank {} ({}) p50 {:.2f} ms\n",
               lo.rank, lo.host, lo.ttfb_p50_ms, hi.rank, hi.host, hi.ttfb_p50_ms);
  }
  return rc;
}

int RunSmallFiles(const MpiWorld& w, const MpiFlags& f, const Setup& s, bool json) {
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
  std::vector<RankReport> reports = RunStep(w, f, s, n);
  if (!w.root()) return 0;
  PrintRankMessages(reports);
  ClusterSmallFiles c = MergeSmallFiles(reports);
  std::string source = fmt::format("probe smallfiles under MPI ({} ranks, concurrency {} each)", n,
                                   s.smallfiles.concurrency);
  Evidence ev;
  AddSmallFileFacts(c, source, &ev.facts);
  AddSmallFileSeries(c, &ev);
  int rc = WorstExit(reports);
  if (!c.fit) rc = std::max(rc, ToInt(ExitStatus::kProbeFailed));
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
  AddProbeTargetOptions(app, &f->common);
  AddProbeBudgetOptions(app, &f->common);
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

  auto f = std::make_shared<MpiFlags>();
  CLI::App* tp = probe->add_subcommand(
      "throughput", "Ranged GETs from every rank; aggregate over the common window; --ramp");
  AddCommonFlags(tp, f.get());
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
  AddCommonFlags(lp, f.get());
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
  AddCommonFlags(sp, f.get());
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

  Setup s;
  std::string error;
  int rc = Prepare(*f, globals, world.rank(), &s, &error);
  rc = Agree(world, rc, error);
  if (rc != 0) return rc;
  if (f->command == "throughput") return RunThroughput(world, *f, s, globals.json);
  if (f->command == "smallfiles") return RunSmallFiles(world, *f, s, globals.json);
  return RunLatency(world, *f, s, globals.json);
}

}  // namespace feedcheck::cli
