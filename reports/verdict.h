// Verdicts for the workflows, decided from the rules' findings (never in a reporter):
// pre-flight: ready / at risk / will starve the GPUs; post-mortem: the bottleneck's name.
#pragma once

#include <string>
#include <vector>

#include "core/finding.h"
#include "reports/report.h"

namespace feedcheck {

struct Verdict {
  std::string text;  ///< "ready", "account egress", ...
  VerdictLevel level = VerdictLevel::kUnknown;
  std::string detail;  ///< the deciding finding's title and rule id, or why none decided
};

/// Critical finding -> "will starve the GPUs"; warning -> "at risk"; else "ready".
/// `findings` most severe first (RuleSet::Evaluate orders them so).
Verdict PreflightVerdict(const std::vector<Finding>& findings);

/// The bottleneck named by the most severe warning-or-worse finding whose rule belongs to a
/// bottleneck class; among equally severe ones the class that caps the others: account egress,
/// request throttling, cache disk, access mode, small files, client threads/CPU. "none found"
/// when no such finding fired.
Verdict PostmortemVerdict(const std::vector<Finding>& findings);

/// The bottleneck class of a built-in rule id, "" when the rule names none.
std::string BottleneckOfRule(const std::string& rule_id);

}  // namespace feedcheck
