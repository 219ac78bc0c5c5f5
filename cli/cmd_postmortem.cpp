// `feedcheck postmortem JOB_LOG_DIR [--metrics M] [--gpu G] [--profile P] [--with RESULT.json]
// [--sku S --nodes N --region R] [--format F] [-o FILE]`: analyzers + rules + diagnosis; the
// verdict names the cause with its confidence and the GPU time it cost. `--with` sets measurements
// of an earlier preflight or probe run beside what the job left. Analysis, rules, verdict and
// rendering each live in their own library; this file only wires them.
#include <fmt/format.h>

#include <memory>

#include "analyzers/analyze_paths.h"
#include "analyzers/job_folder_help.h"
#include "cli/advice_common.h"
#include "cli/cluster_options.h"
#include "cli/command.h"
#include "cli/report_output.h"
#include "core/exit_status.h"
#include "diagnosis/cluster_nodes.h"
#include "diagnosis/postmortem_diagnosis.h"
#include "reports/report_json.h"

namespace feedcheck::cli {

namespace {

struct PostmortemOptions {
  std::string job_dir;
  std::vector<std::string> metrics;
  std::vector<std::string> gpu;
  std::string profile;
  std::vector<std::string> with;
  ClusterFlags cluster;
  std::string format = "term";
  std::string output;
  double gpu_busy_threshold = 10;
};

// Measured facts and the probes' charts of saved results (preflight or probe --json): what the
// cluster could do, beside what the job did. Declared and knowledge facts of those runs stay
// out: the job's own cluster is described by this command's flags and profile.
bool AddMeasurements(const std::vector<std::string>& paths, Evidence* evidence,
                     DiagnosticList* diagnostics) {
  bool ok = true;
  for (const auto& path : paths) {
    Report saved;
    if (!LoadReportFile(path, &saved, diagnostics)) {
      fmt::print(stderr, "feedcheck postmortem: cannot read --with {}\n", path);
      ok = false;
      continue;
    }
    Evidence measured;
    for (const auto& [key, fact] : saved.evidence.facts)
      if (fact.provenance.origin == FactOrigin::kMeasured) measured.facts.Set(fact);
    for (const auto& series : saved.evidence.series)
      if (series.key.rfind("probe.", 0) == 0) measured.series.push_back(series);
    evidence->Merge(measured);
  }
  return ok;
}

int RunPostmortem(const PostmortemOptions& opts, const GlobalOptions& globals) {
  Report report;
  report.context = CurrentRunContext("postmortem");
  report.context.target = opts.job_dir;
  report.title = "Post-mortem";

  analyzers::AnalyzeRequest request;
  request.paths.push_back(opts.job_dir);
  request.paths.insert(request.paths.end(), opts.metrics.begin(), opts.metrics.end());
  request.paths.insert(request.paths.end(), opts.gpu.begin(), opts.gpu.end());
  request.options.gpu_busy_threshold_percent = opts.gpu_busy_threshold;
  analyzers::AnalysisResult analysis = analyzers::AnalyzePaths(request);
  for (const auto& s : analysis.skipped) fmt::print(stderr, "not read: {}: {}\n", s.path, s.reason);
  if (!analysis.anything_read) {
    fmt::print(stderr, "{}", analyzers::NothingReadableHelp("postmortem", request.paths, analysis));
    return ToInt(ExitStatus::kInputError);
  }
  report.evidence = std::move(analysis.evidence);

  KnowledgeBase kb;
  if (int code = LoadKnowledgeBase(globals, &kb)) return code;
  ClusterChoice cluster;
  FlagError flag_error;
  if (!ResolveCluster(kb, opts.cluster, &cluster, &flag_error)) {
    fmt::print(stderr, "feedcheck postmortem: {}\n", flag_error.message);
    return ToInt(ExitStatus::kUsage);
  }
  // No account named: the storage metrics say which region the account is in, and with it
  // its limits (a listed region's 200 Gbit/s, else 50).
  const Fact* metrics_region = report.evidence.facts.Find("metrics.region");
  ClusterFlags flags = opts.cluster;
  if (!cluster.account_given && metrics_region && metrics_region->is_text()) {
    flags.region = metrics_region->text();
    ClusterChoice from_metrics;
    if (ResolveCluster(kb, flags, &from_metrics, &flag_error)) {
      cluster = from_metrics;
    } else {
      flags.region.clear();
    }
  }
  DiagnosticList diagnostics;
  if (!AddMeasurements(opts.with, &report.evidence, &diagnostics)) {
    PrintDiagnostics(diagnostics);
    return ToInt(ExitStatus::kInputError);
  }
  FactSet overrides = ClusterFlagFacts(flags, cluster);
  if (!flags.region.empty() && opts.cluster.region.empty())
    overrides.Set(TextFact("account.region", flags.region, metrics_region->provenance));
  overrides.Merge(report.evidence.facts);
  rules::Profile profile;
  FactSet facts;
  // --account-kind is looked up with the region, as `egress` does (core/account_lookup.h).
  AccountDefaults account{opts.cluster.account_kind, /*assume_listed_region=*/false, ""};
  if (!GatherFacts({}, opts.profile, globals, &facts, &profile, &diagnostics, &overrides,
                   &account)) {
    PrintDiagnostics(diagnostics);
    return ToInt(ExitStatus::kInputError);
  }
  // What the job ran against is what it was: no default account is assumed here.
  AddClusterKnowledge(kb, cluster, /*use_default_account=*/false, &facts);
  rules::RuleSet rule_set;
  if (!LoadRules(globals, &rule_set, &diagnostics)) {
    PrintDiagnostics(diagnostics);
    return ToInt(ExitStatus::kInputError);
  }
  PrintDiagnostics(diagnostics);
  report.evidence.facts = facts;
  // A job folder with one subfolder per node is also read node by node, for the node table.
  std::vector<NodeRow> nodes = diagnosis::ReadNodeFolders(opts.job_dir, request.options);
  diagnosis::DiagnosePostmortem(rule_set, std::move(nodes), &report);

  if (int rc = WriteReport(report, opts.format, opts.output, globals, "postmortem")) return rc;
  // Findings the diagnosis marked secondary do not describe this job: they do not fail it.
  std::vector<Finding> primary;
  for (const auto& f : report.findings)
    if (!f.secondary) primary.push_back(f);
  return FindingsExitCode(primary, globals);
}

}  // namespace

void SetupPostmortem(CLI::App& root, CommandTable& table) {
  auto opts = std::make_shared<PostmortemOptions>();
  CLI::App* sub = root.add_subcommand(
      "postmortem",
      "Name the bottleneck of a finished job from its logs, storage metrics and GPU samples");
  sub->add_option("JOB_LOG_DIR", opts->job_dir, "Job log folder (system_logs/data_capability/)")
      ->required();
  sub->add_option("--metrics", opts->metrics, "Storage account metrics export (JSON or CSV)");
  sub->add_option("--gpu", opts->gpu, "GPU utilisation samples (nvidia-smi CSV, DCGM)");
  sub->add_option("--profile", opts->profile, "Workload profile YAML (examples/*.yaml)");
  sub->add_option("--with", opts->with,
                  "Saved preflight or probe result (JSON): its measurements and charts join the "
                  "job's");
  AddClusterOptions(sub, &opts->cluster);
  sub->add_option("--gpu-busy-threshold", opts->gpu_busy_threshold,
                  "GPU utilisation (%) under which a sample counts as starved")
      ->check(CLI::Range(0.0, 100.0));
  sub->add_option("-f,--format", opts->format, "Output format: term|json|md|html")
      ->check(CLI::IsMember({"term", "json", "md", "html"}));
  sub->add_option("-o,--output", opts->output, "Write the report to FILE");
  table.Add(sub, [opts, &table] { return RunPostmortem(*opts, table.globals()); });
}

}  // namespace feedcheck::cli
