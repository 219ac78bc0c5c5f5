#include "app/report_workflow.h"

#include <fmt/format.h>

#include <algorithm>

#include "app/postmortem_report.h"
#include "app/postmortem_traces.h"
#include "core/diagnostic_codes.h"
#include "reports/report_json.h"

namespace feedcheck::app {

Outcome RunReport(const ReportRequest& request) {
  Outcome out;
  if (!LoadReportFile(request.input, &out.report, &out.diagnostics)) {
    out.report = Report();
    out.status = ExitStatus::kInputError;
    AddMessage(&out.diagnostics, codes::kUnreadableResult,
               fmt::format("cannot read {} as a saved result", request.input));
    return out;
  }
  // Its sections laid out again (the post-mortem's GPU time and cause) from their JSON.
  RestoreSections(&out.report);
  RestoreDataWait(&out.report);
  // The run printed its own diagnostics on stderr, not in its terminal report: so does this.
  const DiagnosticList& saved = out.report.evidence.diagnostics;
  const std::vector<Diagnostic>& kept = saved.kept();
  const size_t own = kept.size() - std::min(out.report.run_diagnostics, kept.size());
  DiagnosticList report_diagnostics, run_diagnostics;
  for (size_t i = 0; i < kept.size(); ++i)
    (i < own ? report_diagnostics : run_diagnostics).Add(kept[i]);
  const size_t kept_errors = report_diagnostics.errors() + run_diagnostics.errors();
  report_diagnostics.CountUnkept(saved.dropped(),
                                 saved.errors() > kept_errors ? saved.errors() - kept_errors : 0);
  out.diagnostics.Append(run_diagnostics);
  out.report.evidence.diagnostics = std::move(report_diagnostics);
  out.report.run_diagnostics = 0;
  out.has_report = true;
  return out;
}

}  // namespace feedcheck::app
