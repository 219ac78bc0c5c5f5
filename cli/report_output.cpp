#include "cli/report_output.h"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "app/report_format.h"
#include "app/report_output.h"
#include "core/atomic_file.h"
#include "core/exit_status.h"
#include "core/known_secrets.h"

namespace feedcheck::cli {

size_t TerminalWidth() {
  winsize size{};
  const size_t tty_columns =
      isatty(STDOUT_FILENO) != 0 && ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 ? size.ws_col : 0;
  return app::ChooseTerminalWidth(std::getenv("COLUMNS"), tty_columns);
}

void AddOutputFlags(CLI::App* sub, OutputFlags* flags,
                    const std::vector<std::string>& extra_formats) {
  std::vector<std::string> formats = app::ReportFormatNames();
  formats.insert(formats.end(), extra_formats.begin(), extra_formats.end());
  std::string names;
  for (const auto& f : formats) names += (names.empty() ? "" : "|") + f;
  sub->add_option("-f,--format", flags->format,
                  "Output format: " + names + " (default: from -o's extension, else term)")
      ->check(CLI::IsMember(formats));
  sub->add_option("-o,--output", flags->output,
                  "Write the report to FILE (.json .md .html .sarif .txt pick the format)");
  sub->parse_complete_callback([sub, flags] {
    if (!flags->format.empty()) return;
    const CLI::App* root = sub;
    while (root->get_parent() != nullptr) root = root->get_parent();
    const CLI::Option* json = root->get_option_no_throw("--json");
    if (json != nullptr && json->count() > 0) return;
    std::string problem = app::OutputExtensionProblem(flags->output, flags->extension_formats);
    if (!problem.empty()) throw CLI::ValidationError(problem);
  });
}

std::optional<std::string> ChosenFormat(const OutputFlags& flags, const GlobalOptions& globals,
                                        const std::string& command) {
  std::string error;
  std::optional<std::string> format = app::ChooseReportFormat(
      {globals.json, flags.format, flags.output, flags.extension_formats}, &error);
  if (!format) fmt::print(stderr, "feedcheck {}: {}\n", command, error);
  return format;
}

int WriteText(const std::string& rendered, const std::string& output, const std::string& command,
              const std::string& format, const std::string& verdict) {
  // Every format reaches here, also those a command renders itself (env files): the
  // values of the credentials this process holds never leave it, whatever carried them in.
  const std::string text = ScrubKnownSecrets(rendered);
  if (output.empty() || output == "-") {
    fmt::print("{}", text);
    std::fflush(stdout);
    return ToInt(ExitStatus::kOk);
  }
  // Rendered whole first, then written to a temporary file and renamed: a report file is
  // complete or absent, never a 0-byte or half-written one.
  std::string error;
  if (!WriteFileAtomically(output, text, &error)) {
    fmt::print(stderr, "feedcheck {}: cannot write the report: {}\n", command, error);
    return ToInt(ExitStatus::kInputError);
  }
  if (verdict.empty())
    fmt::print(stderr, "feedcheck {}: wrote {} ({})\n", command, output, format);
  else
    fmt::print(stderr, "feedcheck {}: verdict '{}'; wrote {} ({})\n", command,
               app::DisplaySafe(verdict), output, format);
  return ToInt(ExitStatus::kOk);
}

int WriteOutcome(const app::Outcome& outcome, const std::string& format, const OutputFlags& flags,
                 const GlobalOptions& globals, const std::string& command) {
  std::optional<Report> report = app::ReportToShow(outcome, format, command);
  if (!report) return ToInt(ExitStatus::kOk);
  const bool to_stdout = flags.output.empty() || flags.output == "-";
  app::RenderOptions options;
  options.color = to_stdout && app::ColorWanted(globals.no_color, isatty(STDOUT_FILENO) != 0,
                                                std::getenv("NO_COLOR"));
  options.verbose = globals.verbose;
  options.width = TerminalWidth();
  std::error_code ec;
  options.base_dir = std::filesystem::current_path(ec).string();
  options.whole = flags.whole;
  std::optional<std::string> text = app::RenderReport(*report, format, options);
  if (!text) {
    fmt::print(stderr, "feedcheck {}: unknown --format '{}'\n", command, format);
    return ToInt(ExitStatus::kUsage);
  }
  return WriteText(*text, flags.output, command, format, report->verdict);
}

int Render(const app::Outcome& outcome, const OutputFlags& flags, const GlobalOptions& globals,
           const std::string& command) {
  std::optional<std::string> format = ChosenFormat(flags, globals, command);
  if (!format) return ToInt(ExitStatus::kUsage);
  PrintDiagnostics(outcome.diagnostics, command);
  if (int rc = WriteOutcome(outcome, *format, flags, globals, command)) return rc;
  return ToInt(outcome.status);
}

void PrintDiagnostics(const DiagnosticList& diagnostics, const std::string& command) {
  for (const auto& d : diagnostics.kept()) {
    if (!command.empty() && d.location.file.empty())
      fmt::print(stderr, "feedcheck {}: {}\n", command, app::DisplaySafe(FormatDiagnostic(d)));
    else
      fmt::print(stderr, "{}\n", app::DisplaySafe(FormatDiagnostic(d)));
  }
  if (diagnostics.dropped() > 0)
    fmt::print(stderr, "... and {} more diagnostics\n", diagnostics.dropped());
}

}  // namespace feedcheck::cli
