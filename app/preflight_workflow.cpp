#include "app/preflight_workflow.h"

#include <fmt/format.h>

#include <algorithm>

#include "app/fact_gathering.h"
#include "app/probe_report.h"
#include "app/rule_evaluation.h"
#include "core/diagnostic_codes.h"
#include "core/redact.h"
#include "core/run_context.h"
#include "core/supply_model.h"
#include "core/units.h"
#include "probes/budget_tracker.h"
#include "probes/preflight_probes.h"
#include "reports/verdict.h"

namespace feedcheck::app {
namespace {

// The storage stages and the NIC always; the cache disk when a directory for it is named.
std::vector<std::string> DefaultProbes(const PreflightRequest& r) {
  std::vector<std::string> probes = {"list", "latency", "smallfiles", "throughput", "nic"};
  if (!r.cache_dir.empty()) probes.push_back("disk");
  return probes;
}

// What the probes spent against what they were allowed: facts, so reports show them.
void AddSpendFacts(const PreflightProbeResult& r, const ProbeBudget& budget, FactSet* facts) {
  Provenance spent{FactOrigin::kMeasured, "preflight probes"};
  facts->Set(NumberFact("preflight.elapsed_s", r.elapsed_s, Unit::kSeconds, spent));
  facts->Set(NumberFact("preflight.requests", double(r.requests_sent), Unit::kCount, spent));
  facts->Set(NumberFact("preflight.bytes", double(r.bytes_received), Unit::kBytes, spent));
  facts->Set(NumberFact("preflight.budget_s", budget.duration_s, Unit::kSeconds,
                        Provenance{FactOrigin::kDeclared, "--duration"}));
}

// Which probes measured nothing, as facts the rules judge (rules/builtin/preflight.yaml): a
// verdict must not say "ready" when it rests on half the probes. The NIC stage is left out: not
// being able to describe the interface says nothing about the storage.
void AddStageOutcomeFacts(const PreflightProbeResult& r, FactSet* facts) {
  Provenance outcome{FactOrigin::kMeasured, "preflight probes"};
  int failed = 0;
  bool reads_failed = false;
  std::string list;
  for (const auto& s : r.stages) {
    if (s.stage == PreflightStage::kNic) continue;
    if (s.result.status != ProbeStatus::kFailed && s.result.status != ProbeStatus::kUnreachable)
      continue;
    ++failed;
    list += fmt::format("{}{} ({})", list.empty() ? "" : "; ", PreflightStageName(s.stage),
                        RedactText(s.result.message));
    // Not read for want of budget is not the storage failing to deliver.
    if (s.stage == PreflightStage::kThroughput && s.ran) reads_failed = true;
  }
  facts->Set(NumberFact("preflight.probes_failed", failed, Unit::kCount, outcome));
  if (failed > 0) facts->Set(TextFact("preflight.probes_failed_list", list, outcome));
  facts->Set(BoolFact("preflight.reads_failed", reads_failed, outcome));
}

// Flags into the probe plan; false with a diagnostic naming the flag.
bool PlanStages(const PreflightRequest& r, PreflightProbeOptions* o, DiagnosticList* d) {
  o->stages.clear();
  for (const auto& name : r.probes.empty() ? DefaultProbes(r) : r.probes) {
    PreflightStage stage;
    if (!ParsePreflightStage(name, &stage)) {
      d->Add(FlagDiagnostic("--probes: unknown probe '" + name +
                            "' (list, latency, smallfiles, throughput, nic, disk)"));
      return false;
    }
    if (std::find(o->stages.begin(), o->stages.end(), stage) == o->stages.end())
      o->stages.push_back(stage);
  }
  bool disk =
      std::find(o->stages.begin(), o->stages.end(), PreflightStage::kDisk) != o->stages.end();
  if (disk && r.cache_dir.empty()) {
    d->Add(FlagDiagnostic("--probes disk needs --cache-dir DIR (where the job will cache data)"));
    return false;
  }
  if (disk) {
    std::string size_error;
    auto bytes = ParseBytes(r.cache_test_bytes, &size_error);
    if (!bytes || *bytes < double(8 << 20) || *bytes > double(64ull << 30)) {
      d->Add(FlagDiagnostic("--cache-test-bytes '" + r.cache_test_bytes + "': from 8MiB to 64GiB"));
      return false;
    }
    o->disk.path = r.cache_dir;
    o->disk.file_bytes = static_cast<uint64_t>(*bytes);
  }
  if (r.max_concurrency < 1 || r.max_concurrency > 1024) {
    d->Add(FlagDiagnostic("--max-concurrency must be from 1 to 1024"));
    return false;
  }
  o->throughput.concurrency = 0;  // sweep for the knee
  o->throughput.max_concurrency = r.max_concurrency;
  return true;
}

// The verdict when the probes measured nothing, or when the throughput stage read nothing.
void JudgeProbes(const PreflightProbeResult& probed, Report* report, ExitStatus* status) {
  if (probed.status == ProbeStatus::kUnreachable || probed.status == ProbeStatus::kFailed) {
    // Nothing measured: the rules would judge the declared cluster alone, which is not what a
    // pre-flight check promises. Say so, keep the report, and exit with the probe's code.
    report->verdict =
        probed.status == ProbeStatus::kUnreachable ? "target unreachable" : "nothing measured";
    report->verdict_level = VerdictLevel::kBad;
    report->verdict_detail = RedactText(probed.message);
    *status = ProbeExitStatus(probed.status);
    return;
  }
  // Whether the storage can feed the GPUs is the throughput stage's question: when it read
  // nothing, the other stages cannot make the cluster ready.
  for (const auto& s : probed.stages) {
    bool unread =
        s.stage == PreflightStage::kThroughput &&
        (s.result.status == ProbeStatus::kFailed || s.result.status == ProbeStatus::kUnreachable);
    if (unread && report->verdict_level == VerdictLevel::kGood) {
      report->verdict = "at risk";
      report->verdict_level = VerdictLevel::kWarning;
      report->verdict_detail = "The throughput probe read no data (" +
                               RedactText(s.result.message) +
                               "), so nothing shows the storage can feed the GPUs.";
    }
  }
}

void AddHeadline(const FactSet& facts, const PreflightProbeResult& probed, Report* out) {
  AddTextResult("verdict", out->verdict, "Verdict", out);
  size_t critical = 0, warnings = 0;
  for (const Finding& f : out->findings) {
    if (f.severity == Severity::kCritical) ++critical;
    if (f.severity == Severity::kWarning) ++warnings;
  }
  AddNumberResult("findings", double(out->findings.size()), "", "Findings", out);
  AddNumberResult("critical", double(critical), "", "Critical", out);
  AddNumberResult("warnings", double(warnings), "", "Warnings", out);
  AddFactResult(facts, "probe.throughput.gbps", "per_node_gbps", "Per-node throughput", out);
  AddFactResult(facts, "probe.latency.ttfb_p99_ms", "ttfb_p99_ms", "First byte p99", out);
  AddFactResult(facts, "node.count", "nodes", "Nodes", out);
  AddFactResult(facts, "account.egress_gbps", "account_egress_gbps", "Account egress", out);
  AddFactResult(facts, "preflight.probes_failed", "probes_failed", "Probes that failed", out);
  AddNumberResult("elapsed_s", probed.elapsed_s, "s", "Elapsed", out);
  AddNumberResult("requests", double(probed.requests_sent), "", "Requests", out);
  AddNumberResult("bytes", double(probed.bytes_received), "bytes", "Bytes received", out);
}

}  // namespace

Outcome RunPreflight(const PreflightRequest& r, const ProbeCallbacks& callbacks) {
  DiagnosticList diagnostics;
  if (r.cluster.sku.empty() && r.profile.empty())
    return StoppedOnFlag(
        std::move(diagnostics),
        "--sku is required (the VM size of the cluster's nodes), or a --profile that "
        "names one");
  if (r.cluster.nodes <= 0 && r.profile.empty())
    return StoppedOnFlag(
        std::move(diagnostics),
        "--nodes is required (how many nodes will read at once), or a --profile that "
        "states node.count");
  PreflightProbeOptions options;
  if (!PlanStages(r, &options, &diagnostics))
    return Stopped(ExitStatus::kUsage, std::move(diagnostics));
  KnowledgeBase kb;
  if (!LoadKnowledgeBase(r.knowledge, &kb, &diagnostics))
    return Stopped(ExitStatus::kInputError, std::move(diagnostics));
  ClusterChoice cluster;
  FlagError flag_error;
  if (!ResolveCluster(kb, r.cluster, &cluster, &flag_error))
    return StoppedOnFlag(std::move(diagnostics), flag_error.message);

  // Probe.
  std::string local_path;
  const bool local = IsLocalPathTarget(r.session.target, &local_path);
  HttpProbeEnv env;
  if (local) {
    if (!ParseProbeBudget(r.session, &options.budget, &diagnostics))
      return Stopped(ExitStatus::kUsage, std::move(diagnostics));
  } else {
    ExitStatus opened = OpenHttpSession(r.session, &env, &diagnostics);
    if (opened != ExitStatus::kOk) return Stopped(opened, std::move(diagnostics));
    options.budget = env.budget;
  }
  std::string stage_list;
  for (PreflightStage s : options.stages)
    stage_list += (stage_list.empty() ? "" : ", ") + std::string(PreflightStageName(s));
  callbacks.Notice(fmt::format("preflight: {} ({}); probes {}; budget {} in all",
                               local ? local_path : RedactUrl(env.target.Display()),
                               local ? "local path" : std::string(TargetKindName(env.target.kind)),
                               stage_list, DescribeBudget(options.budget)));
  if (!options.disk.path.empty())
    callbacks.Notice(
        fmt::format("preflight: disk writes one test file of up to {} in {} (removed afterwards)",
                    FormatBytes(static_cast<double>(options.disk.file_bytes)), options.disk.path));
  if (cluster.node.nic_gbps > 0) {
    options.nic.expected_gbps = cluster.node.nic_gbps;
    options.nic.expected_source = NicSource(cluster.node);
  }
  CleanupRegistry own;
  options.cleanup = r.cleanup ? r.cleanup : &own;
  PreflightProbeResult probed;
  if (local) {
    probed = RunLocalPreflightProbes(local_path, options, callbacks.progress);
  } else {
    env.progress = callbacks.progress;
    probed = RunPreflightProbes(env, options);
  }
  options.cleanup->RunAll();

  // Facts: measured over flags over the profile over the knowledge base.
  Report report;
  report.context = CurrentRunContext("preflight");
  report.context.target = local ? local_path : RedactUrl(env.target.Display());
  report.title = "Pre-flight check";
  // A loopback or emulator target is said once, in the verdict banner, from the target.* facts
  // the probes add (reports/measurement_caveat).
  for (const auto& s : probed.stages) {
    if (s.result.status == ProbeStatus::kOk) continue;
    std::string line = fmt::format("probe {} {}: {}", PreflightStageName(s.stage),
                                   ProbeStatusName(s.result.status), RedactText(s.result.message));
    report.context.warnings.push_back(line);
    diagnostics.Add({codes::kProbeStatus, DiagnosticSeverity::kWarning, line, {}, "", ""});
    std::string advice = AccessDeniedAdvice(
        s.result, local ? ProbeTargetInfo{local_path, "local_path", ""} : TargetInfoOf(env));
    if (!advice.empty() && std::find(report.context.warnings.begin(), report.context.warnings.end(),
                                     advice) == report.context.warnings.end()) {
      report.context.warnings.push_back(advice);
      diagnostics.Add({codes::kAccessDenied, DiagnosticSeverity::kNote, advice, {}, "", ""});
    }
  }
  FactSet overrides = ClusterFlagFacts(r.cluster, cluster);
  overrides.Merge(probed.evidence.facts);
  AddSpendFacts(probed, options.budget, &overrides);
  AddStageOutcomeFacts(probed, &overrides);

  rules::Profile profile;
  FactSet facts;
  // --account-kind is looked up with the region, as `egress` does (core/account_lookup.h).
  AccountDefaults account{r.cluster.account_kind, /*assume_listed_region=*/false, ""};
  bool inputs_ok =
      GatherFacts({}, r.profile, r.knowledge, &facts, &profile, &diagnostics, &overrides, &account);
  // A pre-flight judges a cluster against an account: without one named, assume the standard
  // account of a listed region (stated in the report's warnings).
  if (!cluster.account_given && !facts.Has("account.egress_gbps") &&
      !cluster.account.assumption.empty())
    report.context.warnings.push_back(cluster.account.assumption);
  AddClusterKnowledge(kb, cluster, /*use_default_account=*/true, &facts);
  rules::RuleSet rule_set;
  inputs_ok = LoadRules(r.knowledge, &rule_set, &diagnostics) && inputs_ok;
  if (!inputs_ok) return Stopped(ExitStatus::kInputError, std::move(diagnostics));

  report.evidence = std::move(probed.evidence);
  report.evidence.facts = facts;
  auto per_node = facts.NumberIn("probe.throughput.gbps", Unit::kGbps);
  auto limit = facts.NumberIn("account.egress_gbps", Unit::kGbps);
  if (per_node && limit && *per_node > 0) {
    // Profiles and flags bound node.count; the clamp keeps the chart's cast defined regardless.
    int planned = static_cast<int>(std::clamp(facts.Number("node.count").value_or(1), 1.0, 1e6));
    report.evidence.series.push_back(
        PredictedRampSeries(RampNodesToDraw(planned, *per_node, *limit), *per_node, *limit));
  }

  ExitStatus status = ExitStatus::kOk;
  if (probed.status != ProbeStatus::kUnreachable && probed.status != ProbeStatus::kFailed)
    ApplyRules(rule_set, facts, &PreflightVerdict, &report);
  JudgeProbes(probed, &report, &status);
  if (status == ExitStatus::kOk) status = FindingsExitStatus(report.findings, r.fail_on);
  AddHeadline(facts, probed, &report);
  Outcome out;
  out.report = std::move(report);
  out.status = status;
  out.diagnostics = std::move(diagnostics);
  out.has_report = true;
  return out;
}

}  // namespace feedcheck::app
