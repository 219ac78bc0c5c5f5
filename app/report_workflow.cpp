#include "app/report_workflow.h"

#include <fmt/format.h>

#include "app/app_messages.h"
#include "reports/report_json.h"

namespace feedcheck::app {

Outcome RunReport(const ReportRequest& request) {
  Outcome out;
  if (!LoadReportFile(request.input, &out.report, &out.diagnostics)) {
    out.report = Report();
    out.status = ExitStatus::kInputError;
    AddMessage(&out.diagnostics, kCodeUnreadableResult,
               fmt::format("cannot read {} as a saved result", request.input));
    return out;
  }
  out.has_report = true;
  return out;
}

}  // namespace feedcheck::app
