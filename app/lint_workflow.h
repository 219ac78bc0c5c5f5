// `lint`: an Azure ML command job checked against the advice of the rules for it (the job's
// own facts, then the profile and the knowledge base): each problem at the file:line it
// concerns, with the change to make, in line order.
#pragma once

#include <string>
#include <vector>

#include "app/knowledge_inputs.h"
#include "app/outcome.h"
#include "rules/job_lint.h"

namespace feedcheck::app {

struct LintRequest {
  KnowledgeInputs knowledge;
  std::string job;      ///< the job YAML
  std::string profile;  ///< workload profile YAML, "" for none
  std::string sku;      ///< when the job names no resources.instance_type
  std::string region;
  std::string account_kind;
  std::string account_egress;
  std::string fail_on = "critical";
};

/// The Report (a "Problems" table of located problems, `result` with problems/errors/warnings/
/// notes and the rules evaluated, the codes lint can report described for SARIF) and the
/// problems themselves.
struct LintOutcome {
  Outcome outcome;
  std::vector<rules::LintProblem> problems;
};

/// kFindings when a problem is at or above fail_on; kInputError for a file that is not a job
/// or broken rules; kUsage for a flag the knowledge base does not know.
LintOutcome RunLint(const LintRequest& request);

}  // namespace feedcheck::app
