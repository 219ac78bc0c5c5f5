// How the probe commands talk to the terminal: the budget statement and progress on stderr,
// the outcome's diagnostics (secrets removed), the report through cli/report_output (-f, -o,
// --json as for every command), and the exit code (128 + signal when SIGINT/SIGTERM stopped it).
#pragma once

#include <string>

#include "app/outcome.h"
#include "app/probe_session.h"
#include "cli/command.h"
#include "cli/report_output.h"

namespace feedcheck::cli {

/// A progress callback that writes to stderr when it is a terminal, nothing otherwise: one line,
/// rewritten in place, ending with how much of the time budget `duration` ("2min"; "" for none)
/// has passed and the most time left ("[38% of 2 min 0 s, at most 1 min 14 s left]"), as fio
/// shows its ETA. A probe stops at its budget, so the time left is a bound, not a guess.
ProgressFn TerminalProgress(const std::string& duration = "");

/// The budget statement on stderr, progress on a terminal (TerminalProgress).
app::ProbeCallbacks TerminalCallbacks(const std::string& duration = "");

/// The suffix TerminalProgress adds after `elapsed_s` of a `budget_s` budget; "" without one.
std::string ProgressSuffix(double elapsed_s, double budget_s);

/// Prints the outcome's diagnostics to stderr (PrintDiagnostics, as every command), renders its
/// report, and returns the exit code: 2 when the format flags conflict, 128 + signal when a signal
/// stopped the run, else the outcome's.
int FinishProbeCommand(const std::string& command, const app::Outcome& outcome,
                       const OutputFlags& output, const GlobalOptions& globals);

}  // namespace feedcheck::cli
