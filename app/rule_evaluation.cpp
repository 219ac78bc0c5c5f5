#include "app/rule_evaluation.h"

#include "rules/advice.h"

namespace feedcheck::app {

void ApplyRules(const rules::RuleSet& rules, const FactSet& facts,
                Verdict (*decide)(const std::vector<Finding>&), Report* report) {
  rules::EvaluationResult result = rules.Evaluate(facts);
  rules::Advice advice = rules::MergeAdvice(result.findings);
  Verdict verdict = decide(result.findings);
  report->verdict = verdict.text;
  report->verdict_level = verdict.level;
  report->verdict_detail = verdict.detail;
  report->findings = std::move(result.findings);
  report->skipped = std::move(result.skipped);
  report->env = advice.env;
  report->config = advice.config;
}

std::optional<Severity> FailOnThreshold(const std::string& fail_on) {
  if (fail_on == "never") return std::nullopt;
  return SeverityFromName(fail_on).value_or(Severity::kCritical);
}

ExitStatus FindingsExitStatus(const std::vector<Finding>& findings, const std::string& fail_on) {
  auto threshold = FailOnThreshold(fail_on);
  if (!threshold) return ExitStatus::kOk;
  for (const auto& f : findings)
    if (f.severity >= *threshold) return ExitStatus::kFindings;
  return ExitStatus::kOk;
}

}  // namespace feedcheck::app
