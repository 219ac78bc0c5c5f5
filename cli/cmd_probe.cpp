// `feedcheck probe throughput | latency TARGET`: measure one node against the storage target.
// The probes run in probes/; this file parses flags, states the budget, prints the result.
#include "cli/cmd_probe.h"

#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>

#include "cli/probe_options.h"
#include "cli/signal_guard.h"
#include "cli/sizing_common.h"
#include "core/evidence_json.h"
#include "core/exit_status.h"
#include "core/json_text.h"
#include "core/terminal_text.h"
#include "core/units.h"
#include "probes/latency_probe.h"
#include "probes/redact.h"
#include "probes/target_facts.h"
#include "probes/throughput_probe.h"

namespace feedcheck::cli {
namespace {

// How long a stopped read-only probe may take to print its partial result before the signal
// watcher exits without it.
constexpr double kStopGraceS = 5;

struct ThroughputFlags {
  ProbeOptions common;
  std::string block_size = "4MiB";
  std::string concurrency = "4";
  int max_concurrency = 64;
  std::string step_duration;
  std::string warmup;
  double nic_gbps = 0;
  std::string sku;  ///< VM size: its NIC bandwidth from the knowledge base (--nic-gbps wins)
  int retries = 3;
};

struct LatencyFlags {
  ProbeOptions common;
  LatencyProbeOptions probe;
  std::string range_size = "4KiB";
};

int UsageError(const std::string& command, const std::string& message) {
  fmt::print(stderr, "feedcheck probe {}: {}\n", command, message);
  return ToInt(ExitStatus::kUsage);
}

// Prints the JSON document: the evidence (loadable as facts.json) plus what the run was.
void PrintJson(const ProbeResult& r, const HttpProbeEnv& env) {
  Evidence evidence = r.evidence;
  AddTargetFacts(env.target, &evidence.facts);  // loopback/emulator figures stay marked
  nlohmann::json j = EvidenceToJson(evidence);
  j["probe"] = {{"name", r.probe},
                {"status", ProbeStatusName(r.status)},
                {"message", RedactText(r.message)},
                {"target", RedactUrl(env.target.Display())},
                {"target_kind", TargetKindName(env.target.kind)},
                {"auth", AuthKindName(env.signer.auth().kind)},
                {"requests", r.requests_sent},
                {"bytes", r.bytes_received},
                {"elapsed_s", r.elapsed_s}};
  fmt::print("{}\n", JsonText(j, 2));
}

void PrintStatusLine(const ProbeResult& r, const HttpProbeEnv& env) {
  if (r.status == ProbeStatus::kOk) return;
  fmt::print(stderr, "probe {}: {}: {}\n", r.probe, ProbeStatusName(r.status),
             TerminalSafe(RedactText(r.message)));
  bool denied = r.message.find("HTTP 403") != std::string::npos ||
                r.message.find("HTTP 401") != std::string::npos;
  if (denied && env.target.is_azure() && env.signer.auth().kind == AuthKind::kAnonymous)
    fmt::print(stderr,
               "  no credentials were found: set AZURE_STORAGE_SAS_TOKEN, AZURE_STORAGE_KEY or "
               "AZURE_STORAGE_BEARER_TOKEN, pass --sas-file/--key-file/--token-file, or use "
               "--auth managed-identity on an Azure VM\n");
}

std::string FactText(const FactSet& f, const std::string& key) {
  const Fact* fact = f.Find(key);
  return fact ? FormatFactValue(*fact) : "-";
}

int RunThroughput(const ThroughputFlags& flags, const GlobalOptions& globals) {
  // SIGINT/SIGTERM: the probe stops within about a second and prints what it measured,
  // marked partial; exit 128 + signal. Nothing to clean up (it only reads); the guard's
  // grace is a backstop should a request not stop.
  SignalGuard guard(nullptr, kStopGraceS);
  HttpProbeEnv env;
  std::string error;
  int rc = BuildHttpProbeEnv(flags.common, &env, &error);
  if (rc != 0) {
    fmt::print(stderr, "feedcheck probe throughput: {}\n", error);
    return rc;
  }
  ThroughputProbeOptions o;
  auto block = ParseBytes(flags.block_size, &error);
  if (!block || *block < double(1 << 20) || *block > double(64ull << 20))
    return UsageError("throughput",
                      "--block-size '" + flags.block_size + "': must be a size from 1MiB to 64MiB");
  o.block_bytes = static_cast<uint64_t>(*block);
  if (flags.concurrency == "auto") {
    o.concurrency = 0;
  } else {
    try {
      size_t used = 0;
      o.concurrency = std::stoi(flags.concurrency, &used);
      if (used != flags.concurrency.size() || o.concurrency < 1 || o.concurrency > 1024)
        throw std::invalid_argument("range");
    } catch (const std::exception&) {
      return UsageError("throughput", "--concurrency '" + flags.concurrency +
                                          "': must be a number from 1 to 1024, or auto");
    }
  }
  o.max_concurrency = flags.max_concurrency;
  if (!flags.step_duration.empty()) {
    auto s = ParseSeconds(flags.step_duration, &error);
    if (!s || *s <= 0) return UsageError("throughput", "--step-duration: " + error);
    o.step_duration_s = *s;
  }
  if (!flags.warmup.empty()) {
    auto s = ParseSeconds(flags.warmup, &error);
    if (!s || *s < 0) return UsageError("throughput", "--warmup: " + error);
    o.warmup_s = *s;
  }
  o.nic_gbps = flags.nic_gbps;
  if (o.nic_gbps <= 0 && !flags.sku.empty()) {
    KnowledgeBase kb;
    if (int code = LoadKnowledgeBase(globals, &kb)) return code;
    NodeChoice node;
    FlagError node_error;
    if (!ResolveNode(kb, flags.sku, "", &node, &node_error))
      return UsageError("throughput", node_error.message);
    o.nic_gbps = node.nic_gbps;
  }
  o.max_retries = flags.retries;
  env.progress = TerminalProgress();
  StateBudget("throughput", env,
              fmt::format("{} blocks, {} connections", FormatBytes(double(o.block_bytes)),
                          flags.concurrency));
  ThroughputProbeResult out = RunThroughputProbe(env, o);
  if (env.progress) fmt::print(stderr, "\r\033[K");
  PrintStatusLine(out.result, env);
  if (globals.json) {
    PrintJson(out.result, env);
    return ProbeExit(out.result.status);
  }
  const FactSet& f = out.result.evidence.facts;
  if (!out.steps.empty()) {
    fmt::print("throughput: {} at {} connection{} ({} blocks, {} object{})\n",
               FactText(f, "probe.throughput.gbps"), out.knee_concurrency,
               out.knee_concurrency == 1 ? "" : "s", FormatBytes(double(o.block_bytes)),
               FactText(f, "probe.throughput.objects"),
               FactText(f, "probe.throughput.objects") == "1" ? "" : "s");
    if (out.steps.size() > 1)
      fmt::print("  knee: {} connection{} at {:.3f} +- {:.3f} Gbit/s (two standard errors)\n",
                 out.knee_concurrency, out.knee_concurrency == 1 ? "" : "s", out.knee_gbps,
                 out.knee_noise_gbps);
    fmt::print("  {:>11}  {:>12}  {:>9}  {:>9}  {:>7}  {:>4}\n", "connections", "Gbit/s", "+-",
               "requests", "errors", "runs");
    for (const ThroughputStep& s : out.steps)
      fmt::print("  {:>11}  {:>12.3f}  {:>9.3f}  {:>9}  {:>7}  {:>4}\n", s.concurrency, s.gbps,
                 s.noise_gbps, s.requests, s.errors, s.runs);
    fmt::print("  probe CPU: {}", FactText(f, "probe.throughput.cpu_s_per_gb"));
    if (f.Has("probe.throughput.nic_fraction"))
      fmt::print("; {} of the NIC", FactText(f, "probe.throughput.nic_fraction"));
    fmt::print("\n  errors: {} ({} throttled egress, {} throttled requests), {} retries\n",
               FactText(f, "probe.errors.total"), FactText(f, "probe.errors.throttled_egress"),
               FactText(f, "probe.errors.throttled_requests"), FactText(f, "probe.errors.retries"));
  }
  return ProbeExit(out.result.status);
}

int RunLatency(const LatencyFlags& flags, const GlobalOptions& globals) {
  // SIGINT/SIGTERM: the probe stops within about a second and prints what it measured,
  // marked partial; exit 128 + signal. Nothing to clean up (it only reads); the guard's
  // grace is a backstop should a request not stop.
  SignalGuard guard(nullptr, kStopGraceS);
  HttpProbeEnv env;
  std::string error;
  int rc = BuildHttpProbeEnv(flags.common, &env, &error);
  if (rc != 0) {
    fmt::print(stderr, "feedcheck probe latency: {}\n", error);
    return rc;
  }
  LatencyProbeOptions o = flags.probe;
  auto range = ParseBytes(flags.range_size, &error);
  if (!range || *range < 1 || *range > double(64ull << 20))
    return UsageError("latency",
                      "--range-size '" + flags.range_size + "': must be a size from 1B to 64MiB");
  o.range_bytes = static_cast<uint64_t>(*range);
  env.progress = TerminalProgress();
  StateBudget("latency", env,
              fmt::format("{} GETs of {} on {} connection{}, {} HEADs, {} new connections",
                          o.requests, FormatBytes(double(o.range_bytes)), o.concurrency,
                          o.concurrency == 1 ? "" : "s", o.head_requests, o.new_connections));
  LatencyProbeResult out = RunLatencyProbe(env, o);
  if (env.progress) fmt::print(stderr, "\r\033[K");
  PrintStatusLine(out.result, env);
  if (globals.json) {
    PrintJson(out.result, env);
    return ProbeExit(out.result.status);
  }
  const FactSet& f = out.result.evidence.facts;
  if (out.ttfb.count()) {
    fmt::print("latency: {} ranged GETs of {} on a reused connection ({} measured in all)\n",
               out.ttfb.count(), FactText(f, "probe.latency.range_bytes"),
               FactText(f, "probe.latency.requests"));
    fmt::print("  time to first byte  p50 {}  p90 {}  p99 {}  p99.9 {}  max {}\n",
               FactText(f, "probe.latency.ttfb_p50_ms"), FactText(f, "probe.latency.ttfb_p90_ms"),
               FactText(f, "probe.latency.ttfb_p99_ms"), FactText(f, "probe.latency.ttfb_p999_ms"),
               FactText(f, "probe.latency.ttfb_max_ms"));
    fmt::print("  whole GET           p50 {}  p99 {}\n", FactText(f, "probe.latency.total_p50_ms"),
               FactText(f, "probe.latency.total_p99_ms"));
    fmt::print("  HEAD                p50 {}  p99 {}\n", FactText(f, "probe.latency.head_p50_ms"),
               FactText(f, "probe.latency.head_p99_ms"));
    fmt::print("  new connection      connect {}  TLS {}  first byte p50 {}\n",
               FactText(f, "probe.latency.connect_ms"),
               f.Has("probe.latency.tls_ms") ? FactText(f, "probe.latency.tls_ms") : "none (http)",
               FactText(f, "probe.latency.new_conn_ttfb_p50_ms"));
    if (f.Has("probe.latency.requests_per_s"))
      fmt::print("  request rate        {} at {} connection{}, probe CPU {} per request\n",
                 FactText(f, "probe.latency.requests_per_s"), o.concurrency,
                 o.concurrency == 1 ? "" : "s", FactText(f, "probe.latency.cpu_us_per_request"));
    fmt::print("  errors: {}\n", FactText(f, "probe.errors.total"));
  }
  return ProbeExit(out.result.status);
}

}  // namespace

void SetupProbe(CLI::App& root, CommandTable& table) {
  CLI::App* probe = root.add_subcommand(
      "probe", "Measure storage from this node: throughput, latency, list, smallfiles, disk, nic");
  probe->require_subcommand(1);

  auto tflags = std::make_shared<ThroughputFlags>();
  CLI::App* tp = probe->add_subcommand(
      "throughput", "Parallel ranged GETs: Gbit/s per connection count, knee, CPU cost");
  AddProbeTargetOptions(tp, &tflags->common);
  AddProbeBudgetOptions(tp, &tflags->common);
  tp->add_option("--block-size", tflags->block_size, "Ranged GET size, 1MiB-64MiB")
      ->capture_default_str();
  tp->add_option("--concurrency", tflags->concurrency, "Connections, or auto (1, 2, 4, ...)")
      ->capture_default_str();
  tp->add_option("--max-concurrency", tflags->max_concurrency, "Upper bound of the auto sweep")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  tp->add_option("--step-duration", tflags->step_duration,
                 "Length of each auto step (default: the budget split over the steps)");
  tp->add_option("--warmup", tflags->warmup,
                 "Excluded start of each step (default: 20% of it, at most 1s)");
  tp->add_option("--nic-gbps", tflags->nic_gbps, "NIC bandwidth of this node, Gbit/s")
      ->check(CLI::PositiveNumber);
  tp->add_option("--sku", tflags->sku,
                 "VM size of this node: the NIC bandwidth for the NIC fraction (knowledge base)");
  tp->add_option("--retries", tflags->retries, "Retries per block on throttling/faults")
      ->check(CLI::Range(0, 10))
      ->capture_default_str();
  table.Add(tp, [tflags, &table] { return RunThroughput(*tflags, table.globals()); });

  auto lflags = std::make_shared<LatencyFlags>();
  CLI::App* lp = probe->add_subcommand(
      "latency", "Small ranged GETs and HEADs: first byte, total, connect, TLS percentiles");
  AddProbeTargetOptions(lp, &lflags->common);
  AddProbeBudgetOptions(lp, &lflags->common);
  lp->add_option("--requests", lflags->probe.requests, "Measured GETs on a reused connection")
      ->check(CLI::Range(1, 10000000))
      ->capture_default_str();
  lp->add_option("--head-requests", lflags->probe.head_requests, "Measured HEADs")
      ->capture_default_str();
  lp->add_option("--new-connections", lflags->probe.new_connections,
                 "Measured GETs, each on a new connection")
      ->capture_default_str();
  lp->add_option("--warmup-requests", lflags->probe.warmup_requests, "Excluded first GETs")
      ->capture_default_str();
  lp->add_option("--range-size", lflags->range_size, "Size of each ranged GET")
      ->capture_default_str();
  lp->add_option("--concurrency", lflags->probe.concurrency,
                 "Connections with a request in flight each (request rate, CPU per request)")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  table.Add(lp, [lflags, &table] { return RunLatency(*lflags, table.globals()); });

  SetupProbeFs(*probe, table);
}

}  // namespace feedcheck::cli
