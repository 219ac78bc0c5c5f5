#include "cli/probe_output.h"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "app/report_output.h"
#include "cli/signal_guard.h"
#include "core/units.h"
#include "core/utf8_cut.h"

namespace feedcheck::cli {

std::string ProgressSuffix(double elapsed_s, double budget_s) {
  if (budget_s <= 0) return "";
  const double fraction = std::clamp(elapsed_s / budget_s, 0.0, 0.99);
  return fmt::format("  [{:.0f}% of {}, at most {} left]", fraction * 100, FormatSeconds(budget_s),
                     FormatSeconds(std::max(0.0, std::round(budget_s - elapsed_s))));
}

ProgressFn TerminalProgress(const std::string& duration) {
  if (!isatty(STDERR_FILENO)) return {};
  const double budget_s = ParseSeconds(duration).value_or(0);
  const auto start = std::chrono::steady_clock::now();
  winsize size{};
  const size_t columns =
      ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col >= 20 ? size.ws_col : 100;
  return [budget_s, start, columns](const std::string& text) {
    const double elapsed_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::string suffix = ProgressSuffix(elapsed_s, budget_s);
    // One line, never wrapped (a wrapped line would not be rewritten in place).
    std::string line = app::DisplaySafe(text);
    const size_t room = columns - 1 > suffix.size() ? columns - 1 - suffix.size() : 0;
    line = std::string(Utf8Prefix(line, room));
    fmt::print(stderr, "\r\033[K{}{}", line, suffix);
  };
}

app::ProbeCallbacks TerminalCallbacks(const std::string& duration) {
  app::ProbeCallbacks callbacks;
  callbacks.notice = [](const std::string& text) {
    fmt::print(stderr, "{}\n", app::DisplaySafe(text));
  };
  callbacks.progress = TerminalProgress(duration);
  return callbacks;
}

int FinishProbeCommand(const std::string& command, const app::Outcome& outcome,
                       const OutputFlags& output, const GlobalOptions& globals) {
  if (isatty(STDERR_FILENO)) fmt::print(stderr, "\r\033[K");
  std::optional<std::string> format = ChosenFormat(output, globals, command);
  if (!format) return ToInt(ExitStatus::kUsage);
  PrintDiagnostics(outcome.diagnostics, command);
  if (int rc = WriteOutcome(outcome, *format, output, globals, command)) return rc;
  if (int interrupted = SignalGuard::InterruptedExitCode()) return interrupted;
  return ToInt(outcome.status);
}

}  // namespace feedcheck::cli
