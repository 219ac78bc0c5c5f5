// `feedcheck lint JOB.yml [--profile P.yaml]`: checks an AzureML command job against the
// advice of the rules for it (job facts + profile + knowledge base) and prints the change to
// make for each problem, with the file:line it points at.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "cli/advice_common.h"
#include "cli/command.h"
#include "core/exit_status.h"
#include "core/json_text.h"
#include "rules/advice.h"
#include "rules/job_file.h"
#include "rules/job_lint.h"
#include "rules/rule_set.h"

namespace feedcheck::cli {
namespace {

struct LintOptions {
  std::string job;
  std::string profile;
};

std::string Where(const SourceLocation& l) {
  return l.line > 0 ? fmt::format("{}:{}", l.file, l.line) : l.file;
}

int Run(const GlobalOptions& globals, const LintOptions& options) {
  DiagnosticList diagnostics;
  rules::JobFile job;
  if (!rules::ReadJobFile(options.job, &job, &diagnostics)) {
    PrintDiagnostics(diagnostics);
    return ToInt(ExitStatus::kInputError);
  }
  FactSet job_facts = rules::JobFacts(job);
  FactSet facts;
  rules::Profile profile;
  // What the job says wins over the profile: it is what will run.
  bool inputs_ok =
      GatherFacts({}, options.profile, globals, &facts, &profile, &diagnostics, &job_facts);
  rules::RuleSet rule_set;
  bool rules_ok = LoadRules(globals, &rule_set, &diagnostics);
  if (!inputs_ok || !rules_ok) {
    PrintDiagnostics(diagnostics);
    return ToInt(ExitStatus::kInputError);
  }
  rules::EvaluationResult result = rule_set.Evaluate(facts);
  rules::Advice advice = rules::MergeAdvice(result.findings);
  std::vector<rules::LintProblem> problems = rules::LintJob(job, result, advice);
  auto threshold = FailOnThreshold(globals.fail_on);
  bool failing = threshold && std::any_of(problems.begin(), problems.end(),
                                          [&](const auto& p) { return p.severity >= *threshold; });

  if (globals.json) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& p : problems)
      list.push_back({{"code", p.code},
                      {"severity", SeverityName(p.severity)},
                      {"message", p.message},
                      {"change", p.change},
                      {"file", p.location.file},
                      {"line", p.location.line},
                      {"rule_id", p.rule_id}});
    nlohmann::json skipped = nlohmann::json::array();
    for (const auto& s : result.skipped) skipped.push_back(SkippedToJson(s));
    nlohmann::ordered_json out;
    out["schema_version"] = 1;
    out["command"] = "lint";
    out["job"] = options.job;
    out["problems"] = list;
    out["not_evaluated"] = skipped;
    out["diagnostics"] = DiagnosticsToJson(diagnostics);
    fmt::print("{}\n", JsonText(out, 2));
    return ToInt(failing ? ExitStatus::kFindings : ExitStatus::kOk);
  }
  PrintDiagnostics(diagnostics);
  if (problems.empty()) {
    fmt::print("{}: Ok ({} rules evaluated, {} not evaluated for missing facts)\n", options.job,
               rule_set.rules().size() - result.skipped.size(), result.skipped.size());
    return ToInt(ExitStatus::kOk);
  }
  for (const auto& p : problems) {
    fmt::print("{}: {}[{}]: {}\n", Where(p.location), SeverityName(p.severity), p.code, p.message);
    fmt::print("{}", Wrap("change: " + p.change, 100, "    "));
  }
  fmt::print("{} problem{} ({} rules not evaluated for missing facts{})\n", problems.size(),
             problems.size() == 1 ? "" : "s", result.skipped.size(),
             options.profile.empty() ? "; give --profile to say more" : "");
  return ToInt(failing ? ExitStatus::kFindings : ExitStatus::kOk);
}

}  // namespace

void SetupLint(CLI::App& root, CommandTable& table) {
  auto options = std::make_shared<LintOptions>();
  CLI::App* sub = root.add_subcommand(
      "lint", "Check an AzureML job YAML against the advice: mode, env vars, nodes per account");
  sub->add_option("JOB", options->job, "AzureML command job YAML")
      ->required()
      ->check(CLI::ExistingFile);
  sub->add_option("--profile", options->profile, "Workload profile YAML")->check(CLI::ExistingFile);
  GlobalOptions& globals = table.globals();
  table.Add(sub, [&globals, options] { return Run(globals, *options); });
}

}  // namespace feedcheck::cli
