// The pre-flight's verdict, decided from the rules' findings (never in a reporter): ready / at
// risk / will starve the GPUs. The post-mortem's is diagnosis/postmortem_diagnosis.h.
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

}  // namespace feedcheck
