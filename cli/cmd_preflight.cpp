// `feedcheck preflight TARGET --sku S --nodes N [--profile P]`: can this storage feed this
// cluster? Runs the probes inside one stated budget (probes/preflight_probes), layers what they
// measured over the declared cluster and the knowledge base, evaluates the rules, and ends in a
// verdict (reports/verdict): ready, at risk, or will starve the GPUs. Usable as a pipeline gate:
// 0 ready or below --fail-on, 1 findings at or above it, 3 target unreachable, 4 nothing measured.
// Storage is read only; the one thing written is the disk stage's test file in --cache-dir,
// removed on every exit path (normal, error, SIGINT, SIGTERM).
#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "cli/advice_common.h"
#include "cli/cluster_options.h"
#include "cli/command.h"
#include "cli/probe_options.h"
#include "cli/report_output.h"
#include "cli/signal_guard.h"
#include "core/exit_status.h"
#include "core/supply_model.h"
#include "core/terminal_text.h"
#include "probes/budget_tracker.h"
#include "probes/preflight_probes.h"
#include "probes/redact.h"
#include "reports/verdict.h"

namespace feedcheck::cli {

namespace {

struct PreflightFlags {
  ProbeOptions common{.duration = "2min", .max_requests = 50000, .max_bytes = "64GiB"};
  ClusterFlags cluster;
  std::string profile;
  std::vector<std::string> probes;  ///< empty: the default stages (DefaultProbes)
  std::string cache_dir;
  std::string cache_test_bytes = "1GiB";
  int max_concurrency = 32;
  std::string format = "term";
  std::string output;
};

// The storage stages and the NIC always; the cache disk when a directory for it is named.
std::vector<std::string> DefaultProbes(const PreflightFlags& flags) {
  std::vector<std::string> probes = {"list", "latency", "smallfiles", "throughput", "nic"};
  if (!flags.cache_dir.empty()) probes.push_back("disk");
  return probes;
}

int UsageError(const std::string& message) {
  fmt::print(stderr, "feedcheck preflight: {}\n", message);
  return ToInt(ExitStatus::kUsage);
}

bool IsLoopback(const Target& t) {
  return t.host.rfind("127.", 0) == 0 || t.host.rfind("localhost", 0) == 0 ||
         t.host.rfind("[::1]", 0) == 0;
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
                        TerminalSafe(RedactText(s.result.message)));
    // Not read for want of budget is not the storage failing to deliver.
    if (s.stage == PreflightStage::kThroughput && s.ran) reads_failed = true;
  }
  facts->Set(NumberFact("preflight.probes_failed", failed, Unit::kCount, outcome));
  if (failed > 0) facts->Set(TextFact("preflight.probes_failed_list", list, outcome));
  facts->Set(BoolFact("preflight.reads_failed", reads_failed, outcome));
}

int RunPreflight(const PreflightFlags& flags, const GlobalOptions& globals) {
  if (flags.cluster.sku.empty() && flags.profile.empty())
    return UsageError(
        "--sku is required (the VM size of the cluster's nodes), or a --profile "
        "that names one");
  if (flags.cluster.nodes <= 0 && flags.profile.empty())
    return UsageError(
        "--nodes is required (how many nodes will read at once), or a --profile "
        "that states node.count");
  PreflightProbeOptions options;
  options.stages.clear();
  for (const auto& name : flags.probes.empty() ? DefaultProbes(flags) : flags.probes) {
    PreflightStage stage;
    if (!ParsePreflightStage(name, &stage))
      return UsageError("--probes: unknown probe '" + name +
                        "' (list, latency, smallfiles, throughput, nic, disk)");
    if (std::find(options.stages.begin(), options.stages.end(), stage) == options.stages.end())
      options.stages.push_back(stage);
  }
  bool disk = std::find(options.stages.begin(), options.stages.end(), PreflightStage::kDisk) !=
              options.stages.end();
  if (disk && flags.cache_dir.empty())
    return UsageError("--probes disk needs --cache-dir DIR (where the job will cache data)");
  if (disk) {
    std::string size_error;
    auto bytes = ParseBytes(flags.cache_test_bytes, &size_error);
    if (!bytes || *bytes < double(8 << 20) || *bytes > double(64ull << 30))
      return UsageError("--cache-test-bytes '" + flags.cache_test_bytes + "': from 8MiB to 64GiB");
    options.disk.path = flags.cache_dir;
    options.disk.file_bytes = static_cast<uint64_t>(*bytes);
  }
  options.throughput.concurrency = 0;  // sweep for the knee
  options.throughput.max_concurrency = flags.max_concurrency;

  KnowledgeBase kb;
  if (int code = LoadKnowledgeBase(globals, &kb)) return code;
  ClusterChoice cluster;
  FlagError flag_error;
  if (!ResolveCluster(kb, flags.cluster, &cluster, &flag_error))
    return UsageError(flag_error.message);

  // Probe.
  Target target;
  std::string error;
  bool local = ParseTarget(flags.common.target, {}, &target, &error) &&
               target.kind == TargetKind::kLocalPath;
  HttpProbeEnv env;
  if (local) {
    if (!ParseBudget(flags.common, &options.budget, &error)) return UsageError(error);
  } else {
    int rc = BuildHttpProbeEnv(flags.common, &env, &error);
    if (rc != 0) {
      fmt::print(stderr, "feedcheck preflight: {}\n", error);
      return rc;
    }
    options.budget = env.budget;
    target = env.target;
  }
  std::string stage_list;
  for (PreflightStage s : options.stages)
    stage_list += (stage_list.empty() ? "" : ", ") + std::string(PreflightStageName(s));
  fmt::print(stderr, "preflight: {} ({}); probes {}; budget {} in all\n",
             local ? target.path : target.Display(), TargetKindName(target.kind), stage_list,
             DescribeBudget(options.budget));
  if (disk)
    fmt::print(stderr,
               "preflight: disk writes one test file of up to {} in {} (removed afterwards)\n",
               FormatBytes(static_cast<double>(options.disk.file_bytes)), options.disk.path);
  if (cluster.node.nic_gbps > 0) {
    options.nic.expected_gbps = cluster.node.nic_gbps;
    options.nic.expected_source = NicSource(cluster.node);
  }
  CleanupRegistry registry;  // the disk stage's test file
  options.cleanup = &registry;
  PreflightProbeResult probed;
  {
    SignalGuard guard(&registry);
    if (local) {
      probed = RunLocalPreflightProbes(target.path, options, TerminalProgress());
    } else {
      env.progress = TerminalProgress();
      probed = RunPreflightProbes(env, options);
      if (env.progress) fmt::print(stderr, "\r\033[K");
    }
    registry.RunAll();
  }
  for (const auto& s : probed.stages)
    if (s.result.status != ProbeStatus::kOk)
      fmt::print(stderr, "preflight: {} {}: {}\n", PreflightStageName(s.stage),
                 ProbeStatusName(s.result.status), TerminalSafe(RedactText(s.result.message)));

  // Facts: measured over flags over the profile over the knowledge base.
  Report report;
  report.context = CurrentRunContext("preflight");
  report.context.target = local ? target.path : RedactUrl(target.Display());
  report.title = "Pre-flight check";
  if (!local && IsLoopback(target))
    report.context.warnings.push_back(
        "the target is on this machine (loopback): the figures describe this host, not an "
        "Azure storage account");
  for (const auto& s : probed.stages)
    if (s.result.status != ProbeStatus::kOk)
      report.context.warnings.push_back(fmt::format("probe {} {}: {}", PreflightStageName(s.stage),
                                                    ProbeStatusName(s.result.status),
                                                    RedactText(s.result.message)));
  FactSet overrides = ClusterFlagFacts(flags.cluster, cluster);
  overrides.Merge(probed.evidence.facts);
  AddSpendFacts(probed, options.budget, &overrides);
  AddStageOutcomeFacts(probed, &overrides);

  DiagnosticList diagnostics;
  rules::Profile profile;
  FactSet facts;
  // --account-kind is looked up with the region, as `egress` does (core/account_lookup.h).
  AccountDefaults account{flags.cluster.account_kind, /*assume_listed_region=*/false, ""};
  bool inputs_ok =
      GatherFacts({}, flags.profile, globals, &facts, &profile, &diagnostics, &overrides, &account);
  // A pre-flight judges a cluster against an account: without one named, assume the standard
  // account of a listed region (stated in the report's warnings).
  if (!cluster.account_given && !facts.Has("account.egress_gbps") &&
      !cluster.account.assumption.empty())
    report.context.warnings.push_back(cluster.account.assumption);
  AddClusterKnowledge(kb, cluster, /*use_default_account=*/true, &facts);
  rules::RuleSet rule_set;
  inputs_ok = LoadRules(globals, &rule_set, &diagnostics) && inputs_ok;
  PrintDiagnostics(diagnostics);
  if (!inputs_ok) return ToInt(ExitStatus::kInputError);

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

  int status_code = 0;
  if (probed.status == ProbeStatus::kUnreachable || probed.status == ProbeStatus::kFailed) {
    // Nothing measured: the rules would judge the declared cluster alone, which is not what a
    // pre-flight check promises. Say so, keep the report, and exit with the probe's code.
    report.verdict =
        probed.status == ProbeStatus::kUnreachable ? "target unreachable" : "nothing measured";
    report.verdict_level = VerdictLevel::kBad;
    report.verdict_detail = RedactText(probed.message);
    status_code = ProbeExitCode(probed.status);
  } else {
    ApplyRules(rule_set, facts, &PreflightVerdict, &report);
    // Whether the storage can feed the GPUs is the throughput stage's question: when it read
    // nothing, the other stages cannot make the cluster ready.
    for (const auto& s : probed.stages) {
      bool unread =
          s.stage == PreflightStage::kThroughput &&
          (s.result.status == ProbeStatus::kFailed || s.result.status == ProbeStatus::kUnreachable);
      if (unread && report.verdict_level == VerdictLevel::kGood) {
        report.verdict = "at risk";
        report.verdict_level = VerdictLevel::kWarning;
        report.verdict_detail = "The throughput probe read no data (" +
                                RedactText(s.result.message) +
                                "), so nothing shows the storage can feed the GPUs.";
      }
    }
  }
  if (int rc = WriteReport(report, flags.format, flags.output, globals, "preflight")) return rc;
  if (int signal_code = SignalGuard::InterruptedExitCode()) return signal_code;
  if (status_code != 0) return status_code;
  return FindingsExitCode(report.findings, globals);
}

}  // namespace

void SetupPreflight(CLI::App& root, CommandTable& table) {
  auto flags = std::make_shared<PreflightFlags>();
  CLI::App* sub = root.add_subcommand(
      "preflight",
      "Check a storage target before a job: probes within a budget, rules, and a verdict "
      "(ready / at risk / will starve the GPUs)");
  AddProbeTargetOptions(sub, &flags->common);
  AddProbeBudgetOptions(sub, &flags->common);
  AddClusterOptions(sub, &flags->cluster);
  sub->add_option("--profile", flags->profile, "Workload profile YAML (examples/*.yaml)");
  sub->add_option("--probes", flags->probes,
                  "Probes to run, in order (default: list,latency,smallfiles,throughput,nic and, "
                  "with --cache-dir, disk)")
      ->delimiter(',');
  sub->add_option("--cache-dir", flags->cache_dir,
                  "Measure the cache disk: the directory the job will cache data in (the local "
                  "NVMe/temp disk, /mnt on Azure ML); one test file is written there and removed")
      ->check(CLI::ExistingDirectory);
  sub->add_option("--cache-test-bytes", flags->cache_test_bytes,
                  "Size of the disk stage's test file (also capped by free space)")
      ->capture_default_str();
  sub->add_option("--max-concurrency", flags->max_concurrency,
                  "Upper bound of the throughput sweep's connections")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  sub->add_option("-f,--format", flags->format, "Output format: term|json|md|html")
      ->check(CLI::IsMember({"term", "json", "md", "html"}));
  sub->add_option("-o,--output", flags->output, "Write the report to FILE");
  table.Add(sub, [flags, &table] { return RunPreflight(*flags, table.globals()); });
}

}  // namespace feedcheck::cli
