// Where a workflow's report goes: rendered in the chosen format to standard output or a file,
// in colour only on a terminal, its diagnostics on stderr; and the exit code it gives.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "app/outcome.h"
#include "app/rule_evaluation.h"
#include "cli/command.h"
#include "core/finding.h"
#include "reports/report.h"

namespace feedcheck::cli {

/// -f/--format and -o/--output as given ("" when not).
struct OutputFlags {
  std::string format;
  std::string output;
};

/// Adds -f,--format term|json|md|html (and a command's own `extra_formats`, which it renders
/// itself) and -o,--output FILE to `sub`.
void AddOutputFlags(CLI::App* sub, OutputFlags* flags,
                    const std::vector<std::string>& extra_formats = {});

/// Prints the outcome's diagnostics to stderr, renders its report in the format --json, -f and
/// -o choose (app/report_format.h) and returns the exit code: the outcome's status, 2 when the
/// format flags conflict, 3 when the file cannot be written.
int Render(const app::Outcome& outcome, const OutputFlags& flags, const GlobalOptions& globals,
           const std::string& command);

/// Renders `report` as `format` (--json wins) to `output` ("" or "-": standard output). Returns
/// 0, 2 for an unknown format, or 3 when the file cannot be written (the message names it).
/// Writing a file also prints "<command>: verdict '...'; wrote FILE (format)" to stderr.
int WriteReport(const Report& report, const std::string& format, const std::string& output,
                const GlobalOptions& globals, const std::string& command);

/// Prints diagnostics to stderr, one per entry, with the dropped count; `command` prefixes the
/// ones without a file ("feedcheck egress: error[W001]: --sku: ...").
void PrintDiagnostics(const DiagnosticList& diagnostics, const std::string& command = "");

using app::ApplyRules;

/// 1 (findings) when a finding is at or above --fail-on, else 0.
int FindingsExitCode(const std::vector<Finding>& findings, const GlobalOptions& globals);

}  // namespace feedcheck::cli
