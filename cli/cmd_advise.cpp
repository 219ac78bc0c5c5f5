// `feedcheck advise [FACTS.json...] [--profile P.yaml] [--env-format yaml|shell|python|json]`:
// facts from probes/analyzers and/or a workload profile -> findings (most severe first, with
// evidence), rules not evaluated, the env vars to paste and BlobFuse2 fragments.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "cli/advice_common.h"
#include "cli/command.h"
#include "core/evidence_json.h"
#include "core/exit_status.h"
#include "core/json_text.h"
#include "reports/env_format.h"
#include "reports/report_text.h"
#include "rules/advice.h"
#include "rules/rule_set.h"

namespace feedcheck::cli {
namespace {

struct AdviseOptions {
  std::vector<std::string> facts_files;
  std::string profile;
  std::string env_format = "yaml";
};

int CountAtLeast(const std::vector<Finding>& findings, std::optional<Severity> threshold) {
  if (!threshold) return 0;
  int n = 0;
  for (const auto& f : findings)
    if (f.severity >= *threshold) ++n;
  return n;
}

std::string Summary(const rules::EvaluationResult& result) {
  int counts[3] = {0, 0, 0};
  for (const auto& f : result.findings) ++counts[static_cast<int>(f.severity)];
  std::vector<std::string> parts;
  if (counts[2]) parts.push_back(fmt::format("{} critical", counts[2]));
  if (counts[1]) parts.push_back(fmt::format("{} warning", counts[1]));
  if (counts[0]) parts.push_back(fmt::format("{} info", counts[0]));
  return fmt::format("{} finding{}{}; {} rule{} not evaluated", result.findings.size(),
                     result.findings.size() == 1 ? "" : "s",
                     parts.empty() ? "" : fmt::format(" ({})", fmt::join(parts, ", ")),
                     result.skipped.size(), result.skipped.size() == 1 ? "" : "s");
}

int Run(const GlobalOptions& globals, const AdviseOptions& options) {
  auto format = EnvFormatFromName(options.env_format);
  if (!format) {
    fmt::print(stderr, "feedcheck advise: --env-format must be yaml, shell, python or json\n");
    return ToInt(ExitStatus::kUsage);
  }
  if (options.facts_files.empty() && options.profile.empty()) {
    fmt::print(stderr,
               "feedcheck advise: give facts files (from probe/analyze) and/or --profile P.yaml\n");
    return ToInt(ExitStatus::kUsage);
  }
  DiagnosticList diagnostics;
  FactSet facts;
  rules::Profile profile;
  bool inputs_ok =
      GatherFacts(options.facts_files, options.profile, globals, &facts, &profile, &diagnostics);
  rules::RuleSet rule_set;
  bool rules_ok = LoadRules(globals, &rule_set, &diagnostics);
  if (!inputs_ok || !rules_ok) {
    if (globals.json)
      fmt::print("{}\n",
                 JsonText(nlohmann::json({{"schema_version", 1},
                                          {"error", !rules_ok ? "invalid rules" : "input errors"},
                                          {"diagnostics", DiagnosticsToJson(diagnostics)}})));
    else {
      PrintDiagnostics(diagnostics);
      fmt::print(stderr, "feedcheck advise: {}; no advice given\n",
                 !rules_ok ? "the rules have errors" : "the inputs have errors (above)");
    }
    return ToInt(ExitStatus::kInputError);
  }
  rules::EvaluationResult result = rule_set.Evaluate(facts);
  rules::Advice advice = rules::MergeAdvice(result.findings);
  int failing = CountAtLeast(result.findings, FailOnThreshold(globals.fail_on));

  if (globals.json) {
    nlohmann::json findings = nlohmann::json::array();
    for (const auto& f : result.findings) findings.push_back(FindingToJson(f));
    nlohmann::json skipped = nlohmann::json::array();
    for (const auto& s : result.skipped) skipped.push_back(SkippedToJson(s));
    nlohmann::ordered_json env = nlohmann::ordered_json::object();
    for (const auto& e : advice.env) env[e.name] = e.value;
    nlohmann::json conflicts = nlohmann::json::array();
    for (const auto& c : advice.conflicts)
      conflicts.push_back({{"name", c.name},
                           {"kept_value", c.kept_value},
                           {"kept_rule", c.kept_rule},
                           {"dropped_value", c.dropped_value},
                           {"dropped_rule", c.dropped_rule}});
    nlohmann::json config = nlohmann::json::array();
    for (const auto& c : advice.config) config.push_back({{"kind", c.kind}, {"text", c.text}});
    nlohmann::json fact_list = nlohmann::json::array();
    for (const auto& [key, fact] : facts) fact_list.push_back(FactToJson(fact));
    nlohmann::ordered_json out;
    out["schema_version"] = 1;
    out["command"] = "advise";
    out["findings"] = findings;
    out["not_evaluated"] = skipped;
    out["env"] = env;
    out["env_text"] = FormatEnv(advice.env, *format);
    out["env_conflicts"] = conflicts;
    out["input_mode"] = advice.mode.empty() ? nlohmann::json(nullptr) : nlohmann::json(advice.mode);
    out["input_mode_rule"] = advice.mode_rule;
    out["config"] = config;
    out["facts"] = fact_list;
    out["diagnostics"] = DiagnosticsToJson(diagnostics);
    fmt::print("{}\n", JsonText(out, 2));
    return ToInt(failing > 0 ? ExitStatus::kFindings : ExitStatus::kOk);
  }

  PrintDiagnostics(diagnostics);
  fmt::print("feedcheck advise: {} (from {} facts)\n\n", Summary(result), facts.size());
  for (const auto& f : result.findings) fmt::print("{}\n", FormatFindingText(f));
  if (!result.skipped.empty() && globals.verbose)
    fmt::print("Not evaluated (missing facts):\n{}\n", FormatSkippedText(result.skipped));
  else if (!result.skipped.empty())
    fmt::print("{}; -v lists them\n\n", SkippedRulesSummary(result.skipped.size()));
  if (!advice.mode.empty())
    fmt::print("Input mode: {}  (rule {})\n\n", advice.mode, advice.mode_rule);
  fmt::print("Environment variables ({}):\n{}", EnvFormatName(*format),
             FormatEnv(advice.env, *format));
  for (const auto& c : advice.conflicts)
    fmt::print("note: {} kept \"{}\" (rule {}); rule {} wanted \"{}\"\n", c.name, c.kept_value,
               c.kept_rule, c.dropped_rule, c.dropped_value);
  for (const auto& c : advice.config) fmt::print("\nBlobFuse2 config fragment:\n{}", c.text);
  return ToInt(failing > 0 ? ExitStatus::kFindings : ExitStatus::kOk);
}

}  // namespace

void SetupAdvise(CLI::App& root, CommandTable& table) {
  auto options = std::make_shared<AdviseOptions>();
  CLI::App* sub = root.add_subcommand(
      "advise", "Findings, env vars and config to paste, from facts files and/or a profile");
  sub->add_option("FACTS", options->facts_files, "facts.json files from probe/analyze")
      ->check(CLI::ExistingFile);
  sub->add_option("--profile", options->profile, "Workload profile YAML (examples/*.yaml)")
      ->check(CLI::ExistingFile);
  sub->add_option("--env-format", options->env_format, "yaml | shell | python | json")
      ->check(CLI::IsMember({"yaml", "shell", "python", "json"}));
  GlobalOptions& globals = table.globals();
  table.Add(sub, [&globals, options] { return Run(globals, *options); });
}

}  // namespace feedcheck::cli
