// How the probe commands talk to the terminal: the budget statement and progress on stderr,
// the outcome's diagnostics, the report through the reporters (-f term|json|md|html, -o FILE),
// and the exit code (128 + signal when SIGINT/SIGTERM stopped the run).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "app/outcome.h"
#include "app/probe_session.h"
#include "cli/command.h"

namespace feedcheck::cli {

/// Where a probe command's report goes.
struct ReportFlags {
  std::string format = "term";
  std::string output;
};

/// Adds -f/--format term|json|md|html and -o/--output FILE.
void AddReportFlags(CLI::App* app, ReportFlags* flags);

/// A progress callback that writes to stderr when it is a terminal, nothing otherwise.
ProgressFn TerminalProgress();

/// The budget statement on stderr, progress on a terminal.
app::ProbeCallbacks TerminalCallbacks();

/// Prints the outcome's diagnostics to stderr ("feedcheck COMMAND: ..."), renders its report,
/// and returns the exit code: 128 + signal when a signal stopped the run, else the outcome's.
int FinishProbeCommand(const std::string& command, const app::Outcome& outcome,
                       const ReportFlags& report, const GlobalOptions& globals);

}  // namespace feedcheck::cli
