#include "app/probe_throughput.h"

#include <fmt/format.h>
#include <sched.h>

#include <stdexcept>
#include <thread>

#include "app/cluster_choice.h"
#include "app/fact_gathering.h"
#include "app/probe_report.h"
#include "core/diagnostic_codes.h"
#include "core/units.h"
#include "probes/throughput_conclusion.h"
#include "probes/throughput_probe.h"

namespace feedcheck::app {
namespace {

// Cores this process may run on (its affinity mask, as in a container), not the host's count.
int UsableCores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) return CPU_COUNT(&set);
  return static_cast<int>(std::thread::hardware_concurrency());
}

// Flags into probe options; false with a diagnostic naming the flag.
bool ParseOptions(const ThroughputRequest& r, ThroughputProbeOptions* o, DiagnosticList* d) {
  std::string error;
  auto block = ParseBytes(r.block_size, &error);
  if (!block || *block < double(1 << 20) || *block > double(64ull << 20)) {
    d->Add(
        FlagDiagnostic("--block-size '" + r.block_size + "': must be a size from 1MiB to 64MiB"));
    return false;
  }
  o->block_bytes = static_cast<uint64_t>(*block);
  if (r.concurrency == "auto") {
    o->concurrency = 0;
  } else {
    try {
      size_t used = 0;
      o->concurrency = std::stoi(r.concurrency, &used);
      if (used != r.concurrency.size() || o->concurrency < 1 || o->concurrency > 1024)
        throw std::invalid_argument("range");
    } catch (const std::exception&) {
      d->Add(FlagDiagnostic("--concurrency '" + r.concurrency +
                            "': must be a number from 1 to 1024, or auto"));
      return false;
    }
  }
  if (r.max_concurrency < 1 || r.max_concurrency > 1024) {
    d->Add(FlagDiagnostic("--max-concurrency must be from 1 to 1024"));
    return false;
  }
  o->max_concurrency = r.max_concurrency;
  if (!r.step_duration.empty()) {
    auto s = ParseSeconds(r.step_duration, &error);
    if (!s || *s <= 0) {
      d->Add(FlagDiagnostic("--step-duration '" + r.step_duration +
                            "': " + (error.empty() ? "must be positive" : error)));
      return false;
    }
    o->step_duration_s = *s;
  }
  if (!r.warmup.empty()) {
    auto s = ParseSeconds(r.warmup, &error);
    if (!s || *s < 0) {
      d->Add(FlagDiagnostic("--warmup '" + r.warmup +
                            "': " + (error.empty() ? "must be 0 or more" : error)));
      return false;
    }
    o->warmup_s = *s;
  }
  if (r.retries < 0 || r.retries > 10) {
    d->Add(FlagDiagnostic("--retries must be from 0 to 10"));
    return false;
  }
  o->max_retries = r.retries;
  return true;
}

// The node's NIC: --nic-gbps, else the --sku row of the knowledge base, else unknown (0).
bool ResolveNic(const ThroughputRequest& r, double* nic_gbps, DiagnosticList* d) {
  *nic_gbps = r.nic_gbps;
  if (*nic_gbps > 0 || r.sku.empty()) return true;
  KnowledgeBase kb;
  if (!LoadKnowledgeBase(r.knowledge, &kb, d)) return false;
  NodeChoice node;
  FlagError error;
  if (!ResolveNode(kb, r.sku, "", &node, &error)) {
    d->Add(FlagDiagnostic(error.message));
    return false;
  }
  *nic_gbps = node.nic_gbps;
  return true;
}

std::string Verdict(ThroughputBound bound) {
  switch (bound) {
    case ThroughputBound::kNic:
      return "NIC-bound";
    case ThroughputBound::kStorage:
      return "storage-bound";
    case ThroughputBound::kClientCpu:
      return "client CPU-bound";
    case ThroughputBound::kNotSaturated:
      return "not saturated";
    case ThroughputBound::kUndetermined:
      return "";
  }
  return "";
}

}  // namespace

Outcome RunProbeThroughput(const ThroughputRequest& r, const ProbeCallbacks& callbacks) {
  DiagnosticList diagnostics;
  HttpProbeEnv env;
  ExitStatus opened = OpenHttpSession(r.session, &env, &diagnostics);
  if (opened != ExitStatus::kOk) return Stopped(opened, std::move(diagnostics));
  ThroughputProbeOptions o;
  if (!ParseOptions(r, &o, &diagnostics))
    return Stopped(ExitStatus::kUsage, std::move(diagnostics));
  if (!ResolveNic(r, &o.nic_gbps, &diagnostics)) {
    // A VM size the knowledge base lacks is the flag's fault; a broken knowledge base is not.
    ExitStatus status = diagnostics.kept().back().code == codes::kProbeBadFlag
                            ? ExitStatus::kUsage
                            : ExitStatus::kInputError;
    return Stopped(status, std::move(diagnostics));
  }
  env.progress = callbacks.progress;
  callbacks.Notice(DescribeSession(
      "throughput", env,
      fmt::format("{} blocks, {}", FormatBytes(double(o.block_bytes)),
                  o.concurrency > 0 ? fmt::format("{} connections", o.concurrency)
                                    : fmt::format("concurrency sweep 1..{}", o.max_concurrency))));
  ThroughputProbeResult out = RunThroughputProbe(env, o);

  ConclusionInputs inputs;
  inputs.nic_gbps = o.nic_gbps;
  inputs.cpu_cores = r.cpu_cores > 0 ? r.cpu_cores : UsableCores();
  inputs.swept = o.concurrency == 0;
  inputs.max_concurrency = o.max_concurrency;
  ThroughputConclusion conclusion = ConcludeThroughput(out, inputs);

  ProbeTargetInfo target = TargetInfoOf(env);
  Report report = StartProbeReport(out.result, target);
  const FactSet& f = out.result.evidence.facts;
  if (!out.steps.empty() && out.best_gbps > 0) {
    report.verdict = Verdict(conclusion.bound);
    // Using the whole NIC is what a node can do; a busy client CPU is this side's to fix.
    report.verdict_level = conclusion.bound == ThroughputBound::kNic ? VerdictLevel::kGood
                           : conclusion.bound == ThroughputBound::kClientCpu
                               ? VerdictLevel::kWarning
                               : VerdictLevel::kUnknown;
    report.verdict_detail = conclusion.line;
    AddNumberResult("peak_gbps", out.best_gbps, "Gbit/s", "Peak throughput", &report);
    AddNumberResult("knee_connections", out.knee_concurrency, "", "Knee (connections)", &report);
    AddNumberResult("knee_gbps", out.knee_gbps, "Gbit/s", "Throughput at the knee", &report);
    AddNumberResult("knee_noise_gbps", out.knee_noise_gbps, "Gbit/s", "Noise band at the knee",
                    &report);
    if (out.knee_concurrency > 0)
      AddNumberResult("gbps_per_connection", out.knee_gbps / out.knee_concurrency, "Gbit/s",
                      "Per connection at the knee", &report);
    AddFactResult(f, "probe.throughput.cpu_s_per_gb", "cpu_s_per_gb", "Client CPU per GB", &report);
    AddNumberResult("cores_busy", conclusion.cores_busy, "", "Cores busy at the peak", &report);
    if (o.nic_gbps > 0) AddNumberResult("nic_gbps", o.nic_gbps, "Gbit/s", "NIC", &report);
    AddFactResult(f, "probe.throughput.nic_fraction", "nic_fraction", "Share of the NIC", &report);
    AddNumberResult("steps", static_cast<double>(out.steps.size()), "", "Steps measured", &report);
  }
  AddTextResult("bound", std::string(ThroughputBoundName(conclusion.bound)), "Bound by", &report);
  AddTextResult("conclusion", conclusion.line, "Conclusion", &report);
  AddRunResult(out.result, target, &report);
  return FinishProbe(std::move(report), out.result, target, std::move(diagnostics));
}

}  // namespace feedcheck::app
