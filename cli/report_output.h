// Where a workflow's report goes: rendered in the chosen format to standard output or a file,
// in colour only on a terminal; and the exit code its findings give under --fail-on.
#pragma once

#include <string>
#include <vector>

#include "app/rule_evaluation.h"
#include "cli/command.h"
#include "core/fact_set.h"
#include "core/finding.h"
#include "reports/report.h"
#include "reports/verdict.h"
#include "rules/rule_set.h"

namespace feedcheck::cli {

/// Renders `report` as `format` (--json wins) to `output` ("" or "-": standard output). Returns
/// 0, 2 for an unknown format, or 3 when the file cannot be written (the message names it).
/// Writing a file also prints "<command>: verdict '...'; wrote FILE (format)" to stderr.
int WriteReport(const Report& report, const std::string& format, const std::string& output,
                const GlobalOptions& globals, const std::string& command);

using app::ApplyRules;

/// 1 (findings) when a finding is at or above --fail-on, else 0.
int FindingsExitCode(const std::vector<Finding>& findings, const GlobalOptions& globals);

}  // namespace feedcheck::cli
