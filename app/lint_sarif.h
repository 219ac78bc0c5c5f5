// `feedcheck lint --format sarif`: the problems as SARIF 2.1.0, so code-scanning UIs show each
// problem on the job file's line. Only formatting: the problems, their order and severities are
// LintJob's; every other format is the Report's.
#pragma once

#include <string>
#include <vector>

#include "rules/job_lint.h"

namespace feedcheck::app {

/// A SARIF 2.1.0 log, as text: one run, the tool's rules (one per problem code), one result per
/// problem with level error/warning/note, the message and the change, and the job file and line.
std::string LintSarif(const std::vector<rules::LintProblem>& problems);

}  // namespace feedcheck::app
