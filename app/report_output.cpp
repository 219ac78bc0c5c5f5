#include "app/report_output.h"

#include <memory>
#include <sstream>

#include "app/report_redaction.h"
#include "core/known_secrets.h"
#include "core/redact.h"
#include "core/terminal_text.h"
#include "reports/report_charts.h"
#include "reports/reporter.h"
#include "reports/terminal_layout.h"
#include "reports/text_wrap.h"

namespace feedcheck::app {

std::vector<std::string> ReportFormatNames() {
  std::vector<std::string> names;
  for (std::string_view name : ReporterNames()) names.emplace_back(name);
  return names;
}

std::optional<std::string> RenderReport(const Report& report, const std::string& format,
                                        const RenderOptions& options) {
  ReporterOptions reporter_options;
  reporter_options.color = options.color && format == "term";
  reporter_options.verbose = options.verbose;
  reporter_options.width = options.width;
  reporter_options.base_dir = options.base_dir;
  reporter_options.line_budget = options.whole ? 0 : kTerminalLineBudget;
  std::unique_ptr<Reporter> reporter = MakeReporter(format, reporter_options);
  if (!reporter) return std::nullopt;
  std::ostringstream out;
  // Redaction happens here, once for every format: the model first (patterns, secret-named
  // settings), then the rendered text (the values of the credentials this process holds, which
  // no pattern announces; an exact value cannot span markup, so replacing it is safe anywhere).
  Report shown = RedactReport(report);
  // Which charts the report has is decided with the report, before any reporter sees it (a saved
  // report read back decides them again from its evidence).
  DecideCharts(&shown);
  reporter->Render(shown, out);
  return ScrubKnownSecrets(out.str());
}

std::optional<Report> ReportToShow(const Outcome& outcome, const std::string& format,
                                   const std::string& command) {
  if (!outcome.has_report) {
    // A usage error is not a run: SARIF (a code-scanning upload) gets a log only for a run made.
    const bool sarif_of_run = format == "sarif" && outcome.status == ExitStatus::kInputError;
    if (format != "json" && !sarif_of_run) return std::nullopt;
    Report stopped;
    stopped.complete = false;
    stopped.codes = outcome.report.codes;  // what the command describes before it runs
    stopped.context = CurrentRunContext(command);
    stopped.title = command;
    stopped.evidence.diagnostics = outcome.diagnostics;
    for (const auto& d : outcome.diagnostics.kept())
      if (d.severity == DiagnosticSeverity::kError) {
        stopped.result.push_back({"error", d.message, "", "Error"});
        break;
      }
    return stopped;
  }
  if (format == "term") return outcome.report;
  Report saved = outcome.report;
  const size_t before = saved.evidence.diagnostics.kept().size();
  saved.evidence.diagnostics.Append(outcome.diagnostics);
  saved.run_diagnostics += saved.evidence.diagnostics.kept().size() - before;
  return saved;
}

size_t ChooseTerminalWidth(const char* columns_env, size_t tty_columns) {
  return feedcheck::ChooseTerminalWidth(columns_env, tty_columns);
}

bool ColorWanted(bool no_color_flag, bool stream_is_tty, const char* no_color_env) {
  return feedcheck::ColorWanted(no_color_flag, stream_is_tty, no_color_env);
}

std::string DisplaySafe(std::string_view text) { return TerminalSafe(RedactText(text)); }

}  // namespace feedcheck::app
