// How `feedcheck lint` prints its problems: for people (file:line: severity[code]: message,
// then the change), as JSON, and as SARIF 2.1.0 so code-scanning UIs show each problem on the
// job file's line. Only formatting: the problems, their order and severities are LintJob's.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "rules/job_lint.h"
#include "rules/rule_set.h"

namespace feedcheck::cli {

struct LintOutput {
  std::string job;  ///< the job file as given
  std::vector<rules::LintProblem> problems;
  std::vector<SkippedRule> skipped;
  std::vector<std::string> assumptions;  ///< "no region given: assuming ..."
  const DiagnosticList* diagnostics = nullptr;
  size_t rules_evaluated = 0;
  bool profile_given = false;
};

std::string LintText(const LintOutput& out);
nlohmann::ordered_json LintJson(const LintOutput& out);
/// A SARIF 2.1.0 log: one run, the tool's rules (one per problem code), one result per problem
/// with level error/warning/note, the message and the change, and the job file and line.
nlohmann::ordered_json LintSarif(const LintOutput& out);

}  // namespace feedcheck::cli
