// What every workflow returns: the finished Report (rendered by any reporter), the exit status
// it gives, and the diagnostics met on the way (bad lines, unreadable files, usage errors), so
// the CLI only prints.
#pragma once

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

}  // namespace feedcheck::app
