// Where a workflow's report goes: the format chosen from --json, -f and -o, the report rendered
// by app/report_output to standard output or a file (whole or not at all), in colour only on a
// terminal, its diagnostics on stderr; and the exit code it gives.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "app/outcome.h"
#include "cli/command.h"

namespace feedcheck::cli {

/// The columns terminal text wraps to: $COLUMNS, else the terminal's own width, else 100.
size_t TerminalWidth();

/// -f/--format and -o/--output as given ("" when not).
struct OutputFlags {
  std::string format;
  std::string output;
  /// A command's own formats that -o's extension also picks (lint: "sarif" for .sarif).
  std::vector<std::string> extension_formats = {};
  /// A listing asked for whole (facts list, rules list, egress --all): the terminal shows every
  /// row; otherwise a report says less until it fits one screen (-v says all).
  bool whole = false;
};

/// Adds -f,--format term|json|md|html|sarif (and a command's own `extra_formats`, which it
/// renders itself) and -o,--output FILE to `sub`. An -o whose extension names no format
/// (report.pdf), without -f or --json, is a usage error when the command line is parsed: before a
/// probe runs.
void AddOutputFlags(CLI::App* sub, OutputFlags* flags,
                    const std::vector<std::string>& extra_formats = {});

/// The format --json, -f and -o choose (app/report_format.h); nullopt after printing the usage
/// error when they conflict.
std::optional<std::string> ChosenFormat(const OutputFlags& flags, const GlobalOptions& globals,
                                        const std::string& command);

/// Writes what `outcome` shows in `format` (app::ReportToShow) to -o's file or standard output.
/// Returns 0, or 3 when the file cannot be written (the message names it). Writing a file also
/// prints "feedcheck <command>: verdict '...'; wrote FILE (format)" to stderr.
int WriteOutcome(const app::Outcome& outcome, const std::string& format, const OutputFlags& flags,
                 const GlobalOptions& globals, const std::string& command);

/// Prints the outcome's diagnostics to stderr, writes its report (WriteOutcome) and returns the
/// exit code: the outcome's status, 2 when the format flags conflict, 3 when the file cannot be
/// written.
int Render(const app::Outcome& outcome, const OutputFlags& flags, const GlobalOptions& globals,
           const std::string& command);

/// Writes `text` to -o's file (atomically) or standard output; 0, or 3 with the message naming
/// the file. A file written is said on stderr with its `format` and the report's `verdict`.
int WriteText(const std::string& text, const std::string& output, const std::string& command,
              const std::string& format, const std::string& verdict = "");

/// The one diagnostics printer of every command: to stderr, one per entry with its severity and
/// code, secrets removed and control characters escaped (app::DisplaySafe), then the dropped
/// count; `command` prefixes the ones without a file ("feedcheck egress: error[W001]: --sku: ...").
void PrintDiagnostics(const DiagnosticList& diagnostics, const std::string& command = "");

}  // namespace feedcheck::cli
