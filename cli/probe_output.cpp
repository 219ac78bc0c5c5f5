#include "cli/probe_output.h"

#include <fmt/format.h>
#include <unistd.h>

#include "app/report_output.h"
#include "cli/signal_guard.h"

namespace feedcheck::cli {

ProgressFn TerminalProgress() {
  if (!isatty(STDERR_FILENO)) return {};
  return [](const std::string& text) { fmt::print(stderr, "\r\033[K{}", app::DisplaySafe(text)); };
}

app::ProbeCallbacks TerminalCallbacks() {
  app::ProbeCallbacks callbacks;
  callbacks.notice = [](const std::string& text) {
    fmt::print(stderr, "{}\n", app::DisplaySafe(text));
  };
  callbacks.progress = TerminalProgress();
  return callbacks;
}

int FinishProbeCommand(const std::string& command, const app::Outcome& outcome,
                       const OutputFlags& output, const GlobalOptions& globals) {
  if (isatty(STDERR_FILENO)) fmt::print(stderr, "\r\033[K");
  std::optional<std::string> format = ChosenFormat(output, globals, command);
  if (!format) return ToInt(ExitStatus::kUsage);
  for (const Diagnostic& d : outcome.diagnostics.kept()) {
    if (!d.location.file.empty()) {  // a knowledge-base, rules or profile line: show where
      fmt::print(stderr, "{}\n", app::DisplaySafe(FormatDiagnostic(d)));
      continue;
    }
    std::string text = app::DisplaySafe(d.message);
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
  if (int rc = WriteOutcome(outcome, *format, output, globals, command)) return rc;
  if (int interrupted = SignalGuard::InterruptedExitCode()) return interrupted;
  return ToInt(outcome.status);
}

}  // namespace feedcheck::cli
