#include "cli/probe_output.h"

#include <fmt/format.h>
#include <unistd.h>

#include "cli/report_output.h"
#include "cli/signal_guard.h"
#include "core/terminal_text.h"
#include "probes/redact.h"

namespace feedcheck::cli {

void AddReportFlags(CLI::App* app, ReportFlags* flags) {
  app->add_option("-f,--format", flags->format, "Output format: term|json|md|html")
      ->check(CLI::IsMember({"term", "json", "md", "html"}))
      ->capture_default_str();
  app->add_option("-o,--output", flags->output, "Write the report to FILE");
}

ProgressFn TerminalProgress() {
  if (!isatty(STDERR_FILENO)) return {};
  return [](const std::string& text) { fmt::print(stderr, "\r\033[K{}", TerminalSafe(text)); };
}

app::ProbeCallbacks TerminalCallbacks() {
  app::ProbeCallbacks callbacks;
  callbacks.notice = [](const std::string& text) {
    fmt::print(stderr, "{}\n", TerminalSafe(RedactText(text)));
  };
  callbacks.progress = TerminalProgress();
  return callbacks;
}

int FinishProbeCommand(const std::string& command, const app::Outcome& outcome,
                       const ReportFlags& report, const GlobalOptions& globals) {
  if (isatty(STDERR_FILENO)) fmt::print(stderr, "\r\033[K");
  for (const Diagnostic& d : outcome.diagnostics.kept()) {
    std::string text = TerminalSafe(RedactText(d.message));
    if (!d.location.file.empty()) {  // a knowledge-base, rules or profile line: show where
      fmt::print(stderr, "{}\n", TerminalSafe(FormatDiagnostic(d)));
      continue;
    }
    switch (d.severity) {
      case DiagnosticSeverity::kError:
        fmt::print(stderr, "feedcheck {}: {}\n", command, text);
        break;
      case DiagnosticSeverity::kWarning:
        fmt::print(stderr, "feedcheck {}: warning: {}\n", command, text);
        break;
      case DiagnosticSeverity::kNote:
        fmt::print(stderr, "  next step: {}\n", text);
        break;
    }
  }
  if (outcome.diagnostics.dropped() > 0)
    fmt::print(stderr, "... and {} more diagnostics\n", outcome.diagnostics.dropped());
  if (outcome.has_report) {
    if (int rc = WriteReport(outcome.report, report.format, report.output, globals, command))
      return rc;
  }
  if (int interrupted = SignalGuard::InterruptedExitCode()) return interrupted;
  return ToInt(outcome.status);
}

}  // namespace feedcheck::cli
