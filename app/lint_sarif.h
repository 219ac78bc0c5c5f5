// `feedcheck lint --format sarif`: the problems as SARIF 2.1.0, so code-scanning UIs show each
// problem on the job file's line. Only formatting: the problems, their order and severities are
// LintJob's; every other format is the Report's.
#pragma once

#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "rules/job_lint.h"

namespace feedcheck::app {

/// A SARIF 2.1.0 log, as text: one run, the tool's rules (every code lint can report, with help
/// and the guide's URL), one result per problem with level error/warning/note, the message and
/// the change, and the file (relative to `base_dir`, with uriBaseId %SRCROOT%, when it is under
/// it) and line (1 for a problem about the whole file). With `successful` false (lint could not
/// read its input: exit 3), the log has no results and the error diagnostics as tool execution
/// notifications, so an upload step never gets an empty file.
std::string LintSarif(const std::vector<rules::LintProblem>& problems,
                      const DiagnosticList& diagnostics, bool successful,
                      const std::string& base_dir);

}  // namespace feedcheck::app
