#include "app/advise_workflow.h"

#include <fmt/format.h>

#include "app/fact_gathering.h"
#include "app/money_tables.h"
#include "app/rule_evaluation.h"
#include "core/diagnostic_codes.h"
#include "core/plural.h"
#include "core/runtime_settings.h"
#include "reports/env_format.h"
#include "rules/access_decision.h"
#include "rules/advice.h"

namespace feedcheck::app {
namespace {

std::string Summary(const std::vector<Finding>& findings, size_t skipped, size_t facts) {
  int counts[3] = {0, 0, 0};
  for (const auto& f : findings) ++counts[static_cast<int>(f.severity)];
  std::vector<std::string> parts;
  if (counts[2]) parts.push_back(fmt::format("{} critical", counts[2]));
  if (counts[1]) parts.push_back(Counted(counts[1], "warning"));
  if (counts[0]) parts.push_back(fmt::format("{} info", counts[0]));
  return fmt::format(
      "{}{}; {} not evaluated (from {})", Counted(static_cast<double>(findings.size()), "finding"),
      parts.empty() ? "" : fmt::format(" ({})", fmt::join(parts, ", ")),
      Counted(static_cast<double>(skipped), "rule"), Counted(static_cast<double>(facts), "fact"));
}

void AddResults(const rules::Advice& advice, Report* report) {
  double counts[3] = {0, 0, 0};
  for (const auto& f : report->findings) ++counts[static_cast<int>(f.severity)];
  auto count = [&](const char* key, double n, const char* label) {
    report->result.push_back({key, n, "", label});
  };
  count("findings", static_cast<double>(report->findings.size()), "Findings");
  count("critical", counts[static_cast<int>(Severity::kCritical)], "Critical");
  count("warnings", counts[static_cast<int>(Severity::kWarning)], "Warnings");
  count("info", counts[static_cast<int>(Severity::kInfo)], "Info");
  count("not_evaluated", static_cast<double>(report->skipped.size()), "Rules not evaluated");
  count("settings", static_cast<double>(advice.env.size()), "Settings to paste");
  count("config_fragments", static_cast<double>(advice.config.size()), "Config fragments");
  count("env_conflicts", static_cast<double>(advice.conflicts.size()), "Conflicting settings");
  if (!advice.mode.empty()) {
    report->result.push_back({"input_mode", advice.mode, "", "Input mode"});
    report->result.push_back({"input_mode_rule", advice.mode_rule, "", "Input mode from rule"});
  }
}

}  // namespace

Outcome RunAdvise(const AdviseRequest& request) {
  auto format = EnvFormatFromName(request.env_format);
  if (!format)
    return Stopped(ExitStatus::kUsage, codes::kBadFlag,
                   "--env-format must be yaml, shell, python or json");
  if (request.facts_files.empty() && request.profile.empty())
    return Stopped(ExitStatus::kUsage, codes::kMissingInput,
                   "give facts files (from probe/analyze) and/or --profile P.yaml");
  Outcome outcome;
  FactSet facts;
  rules::Profile profile;
  const bool inputs_ok = GatherFacts(request.facts_files, request.profile, request.knowledge,
                                     &facts, &profile, &outcome.diagnostics);
  rules::RuleSet rule_set;
  const bool rules_ok = LoadRules(request.knowledge, &rule_set, &outcome.diagnostics);
  if (!inputs_ok || !rules_ok) {
    AddMessage(&outcome.diagnostics, codes::kInputErrors,
               fmt::format("{}; no advice given",
                           !rules_ok ? "the rules have errors" : "the inputs have errors"));
    outcome.status = ExitStatus::kInputError;
    return outcome;
  }
  Report& report = outcome.report;
  report.context = CurrentRunContext("advise");
  report.title = "Advice";
  // One decision: the mode advised, the findings that judge it, the settings that act on it.
  rules::AccessDecision decision =
      rules::DecideAccess(rule_set, facts, rules::JudgedMode::kRecommended);
  rules::EvaluationResult result = std::move(decision.result);
  rules::Advice advice = std::move(decision.advice);
  // A setting the job already has at the advised value is not asked for again.
  std::vector<std::string> in_place_rules;
  const std::vector<EnvSetting> in_place =
      rules::TakeSettingsInPlace(facts, &advice, &in_place_rules);
  report.findings = std::move(result.findings);
  report.skipped = std::move(result.skipped);
  {
    // The small-files advice's read operations per epoch, priced from the knowledge base.
    KnowledgeBase kb;
    DiagnosticList kb_problems;  // already reported when the facts were gathered
    LoadKnowledgeBase(request.knowledge, &kb, &kb_problems);
    Report priced;
    priced.findings = report.findings;
    priced.evidence.facts = facts;
    AddSmallFilesReadCostTable(kb, &priced);
    for (auto& t : priced.tables) report.tables.push_back(std::move(t));
  }
  report.env = advice.env;
  report.verdict_detail = Summary(report.findings, report.skipped.size(), facts.size());
  if (!advice.mode.empty())
    report.verdict_detail +=
        fmt::format("\nInput mode: {}  (rule {})", advice.mode, advice.mode_rule);
  for (size_t i = 0; i < in_place.size(); ++i)
    report.verdict_detail += fmt::format("\nalready set as advised: {}={}  (rule {})",
                                         in_place[i].name, in_place[i].value, in_place_rules[i]);
  // The settings again in the form the user pastes (job YAML, shell, Python, JSON).
  if (!advice.env.empty())
    report.config.push_back({fmt::format("environment variables ({})", EnvFormatName(*format)),
                             FormatEnv(advice.env, *format)});
  for (const auto& c : advice.config) report.config.push_back(c);
  if (!decision.out_of_scope.empty())
    report.verdict_detail += "\nout of scope: " + decision.out_of_scope;
  for (const auto& d : decision.dropped_settings)
    report.verdict_detail += fmt::format("\nnot pasted: {}={} (rule {}): {}", d.setting.name,
                                         d.setting.value, d.rule_id, d.reason);
  for (const auto& c : advice.conflicts)
    report.context.warnings.push_back(fmt::format("{} kept \"{}\" (rule {}); rule {} wanted \"{}\"",
                                                  c.name, c.kept_value, c.kept_rule, c.dropped_rule,
                                                  c.dropped_value));
  // A value outside what the guide documents (a user's rule, or a computed value at an edge)
  // is pasted into a job as given: say so beside it.
  for (size_t i = 0; i < advice.env.size(); ++i) {
    const RuntimeSetting* setting = FindRuntimeSetting(advice.env[i].name);
    if (!setting) continue;
    if (auto problem = RuntimeSettingValueProblem(*setting, advice.env[i].value))
      report.context.warnings.push_back(
          fmt::format("rule {} advises {}={}: {}; the guide documents it as {} (default {}), {}",
                      advice.env_rules[i], advice.env[i].name, advice.env[i].value, *problem,
                      setting->meaning, setting->default_value, RuntimeSettingSource(*setting)));
  }
  AddResults(advice, &report);
  report.evidence.facts = std::move(facts);
  outcome.has_report = true;
  outcome.status = FindingsExitStatus(report.findings, request.fail_on);
  return outcome;
}

std::string AdviceEnvText(const Report& report, const std::string& env_format) {
  const std::optional<EnvFormat> format = EnvFormatFromName(env_format);
  return FormatEnv(report.env, format.value_or(EnvFormat::kYaml));
}

}  // namespace feedcheck::app
