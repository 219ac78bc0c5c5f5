// What every workflow returns: the finished Report (rendered by any reporter), the exit status
// it gives, and the diagnostics met on the way (bad lines, unreadable files, usage errors), so
// the CLI only prints.
#pragma once

#include <string>

#include "core/diagnostic.h"
#include "core/exit_status.h"
#include "reports/report.h"

namespace feedcheck::app {

struct Outcome {
  Report report;
  ExitStatus status = ExitStatus::kOk;
  DiagnosticList diagnostics;
  bool has_report = false;  ///< false when the workflow stopped before it had anything to show
};

/// An Outcome that stopped before its report: `status` and one error naming what was wrong.
Outcome Stopped(ExitStatus status, const char* code, std::string message);
/// An Outcome that stopped before its report: `status` and the diagnostics met so far (the last
/// says why).
Outcome Stopped(ExitStatus status, DiagnosticList diagnostics);
/// A usage stop (exit 2): the diagnostics met so far and one flag error (W101) naming the flag.
Outcome StoppedOnFlag(DiagnosticList diagnostics, std::string message);

/// Adds an error (or warning, note) without a file location: a flag, a built-in.
void AddMessage(DiagnosticList* diagnostics, const char* code, std::string message,
                DiagnosticSeverity severity = DiagnosticSeverity::kError);

}  // namespace feedcheck::app
