// From facts to a judged Report: the rules evaluated, their advice merged, the verdict decided;
// and the exit status the findings give under --fail-on.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/exit_status.h"
#include "core/fact_set.h"
#include "core/finding.h"
#include "reports/report.h"
#include "reports/verdict.h"
#include "rules/rule_set.h"

namespace feedcheck::app {

/// Evaluates `rules` over `facts` into `report`: findings, rules not evaluated, the merged
/// settings, and the verdict `decide` gives from the findings (PreflightVerdict, ...).
void ApplyRules(const rules::RuleSet& rules, const FactSet& facts,
                Verdict (*decide)(const std::vector<Finding>&), Report* report);

/// Severity threshold of --fail-on ("info", "warning", "critical"); nullopt for "never".
std::optional<Severity> FailOnThreshold(const std::string& fail_on);

/// kFindings when a finding is at or above the --fail-on threshold, else kOk.
ExitStatus FindingsExitStatus(const std::vector<Finding>& findings, const std::string& fail_on);

}  // namespace feedcheck::app
