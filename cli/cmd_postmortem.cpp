// `feedcheck postmortem JOB_LOG_DIR [--metrics M] [--gpu G] [--profile P] [--format F] [-o FILE]`:
// analyzers + rules; the verdict names the bottleneck with its evidence. Analysis, rules,
// verdict and rendering each live in their own library; this file only wires them.
#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>

#include "analyzers/analyze_paths.h"
#include "cli/advice_common.h"
#include "cli/command.h"
#include "core/exit_status.h"
#include "reports/reporter.h"
#include "reports/verdict.h"
#include "rules/advice.h"

namespace feedcheck::cli {

namespace {

struct PostmortemOptions {
  std::string job_dir;
  std::vector<std::string> metrics;
  std::vector<std::string> gpu;
  std::string profile;
  std::string format = "term";
  std::string output;
  double gpu_busy_threshold = 10;
};

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
    fmt::print(stderr, "feedcheck postmortem: nothing readable in {}\n", opts.job_dir);
    return ToInt(ExitStatus::kInputError);
  }
  report.evidence = std::move(analysis.evidence);

  DiagnosticList diagnostics;
  rules::Profile profile;
  FactSet facts;
  if (!GatherFacts({}, opts.profile, globals, &facts, &profile, &diagnostics,
                   &report.evidence.facts)) {
    PrintDiagnostics(diagnostics);
    return ToInt(ExitStatus::kInputError);
  }
  rules::RuleSet rule_set;
  if (!LoadRules(globals, &rule_set, &diagnostics)) {
    PrintDiagnostics(diagnostics);
    return ToInt(ExitStatus::kInputError);
  }
  PrintDiagnostics(diagnostics);
  report.evidence.facts = facts;
  rules::EvaluationResult result = rule_set.Evaluate(facts);
  rules::Advice advice = rules::MergeAdvice(result.findings);
  Verdict verdict = PostmortemVerdict(result.findings);
  report.verdict = verdict.text;
  report.verdict_level = verdict.level;
  report.verdict_detail = verdict.detail;
  report.findings = std::move(result.findings);
  report.skipped = std::move(result.skipped);
  report.env = advice.env;
  report.config = advice.config;

  std::string format = globals.json ? "json" : opts.format;
  ReporterOptions ropts;
  ropts.color = format == "term" && opts.output.empty() &&
                ColorWanted(globals.no_color, isatty(STDOUT_FILENO) != 0, std::getenv("NO_COLOR"));
  std::unique_ptr<Reporter> reporter = MakeReporter(format, ropts);
  if (opts.output.empty() || opts.output == "-") {
    reporter->Render(report, std::cout);
  } else {
    std::ofstream out(opts.output, std::ios::binary | std::ios::trunc);
    if (out) reporter->Render(report, out);
    out.close();
    if (!out) {
      fmt::print(stderr, "feedcheck postmortem: cannot write {}\n", opts.output);
      return ToInt(ExitStatus::kInputError);
    }
    fmt::print(stderr, "feedcheck postmortem: verdict '{}'; wrote {} ({})\n", report.verdict,
               opts.output, format);
  }
  auto threshold = FailOnThreshold(globals.fail_on);
  if (threshold) {
    for (const auto& f : report.findings)
      if (f.severity >= *threshold) return ToInt(ExitStatus::kFindings);
  }
  return ToInt(ExitStatus::kOk);
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
  sub->add_option("--gpu-busy-threshold", opts->gpu_busy_threshold,
                  "GPU utilisation (%) under which a sample counts as starved")
      ->check(CLI::Range(0.0, 100.0));
  sub->add_option("-f,--format", opts->format, "Output format: term|json|md|html")
      ->check(CLI::IsMember({"term", "json", "md", "html"}));
  sub->add_option("-o,--output", opts->output, "Write the report to FILE");
  table.Add(sub, [opts, &table] { return RunPostmortem(*opts, table.globals()); });
}

}  // namespace feedcheck::cli
