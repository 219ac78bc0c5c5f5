#include "cli/report_output.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <sstream>

#include "app/report_format.h"
#include "core/atomic_file.h"
#include "core/exit_status.h"
#include "reports/reporter.h"

namespace feedcheck::cli {
namespace {

int WriteFormatted(const Report& report, const std::string& format, const std::string& output,
                   const GlobalOptions& globals, const std::string& command) {
  bool to_stdout = output.empty() || output == "-";
  ReporterOptions options;
  options.color =
      format == "term" && to_stdout &&
      ColorWanted(globals.no_color, isatty(STDOUT_FILENO) != 0, std::getenv("NO_COLOR"));
  options.verbose = globals.verbose;
  std::unique_ptr<Reporter> reporter = MakeReporter(format, options);
  if (!reporter) {
    fmt::print(stderr, "feedcheck {}: unknown --format '{}'\n", command, format);
    return ToInt(ExitStatus::kUsage);
  }
  if (to_stdout) {
    reporter->Render(report, std::cout);
    std::cout.flush();
    return ToInt(ExitStatus::kOk);
  }
  // Rendered whole first, then written to a temporary file and renamed: a report file is
  // complete or absent, never a 0-byte or half-written one.
  std::ostringstream rendered;
  reporter->Render(report, rendered);
  std::string error;
  if (!WriteFileAtomically(output, rendered.str(), &error)) {
    fmt::print(stderr, "feedcheck {}: cannot write the report: {}\n", command, error);
    return ToInt(ExitStatus::kInputError);
  }
  if (report.verdict.empty())
    fmt::print(stderr, "feedcheck {}: wrote {} ({})\n", command, output, format);
  else
    fmt::print(stderr, "feedcheck {}: verdict '{}'; wrote {} ({})\n", command, report.verdict,
               output, format);
  return ToInt(ExitStatus::kOk);
}

}  // namespace

void AddOutputFlags(CLI::App* sub, OutputFlags* flags,
                    const std::vector<std::string>& extra_formats) {
  std::vector<std::string> formats = {"term", "json", "md", "html"};
  formats.insert(formats.end(), extra_formats.begin(), extra_formats.end());
  std::string names;
  for (const auto& f : formats) names += (names.empty() ? "" : "|") + f;
  sub->add_option("-f,--format", flags->format,
                  "Output format: " + names + " (default: from -o's extension, else term)")
      ->check(CLI::IsMember(formats));
  sub->add_option("-o,--output", flags->output,
                  "Write the report to FILE (.json .md .html .txt pick the format)");
}

int Render(const app::Outcome& outcome, const OutputFlags& flags, const GlobalOptions& globals,
           const std::string& command) {
  std::string error;
  std::optional<std::string> format =
      app::ChooseReportFormat({globals.json, flags.format, flags.output}, &error);
  if (!format) {
    fmt::print(stderr, "feedcheck {}: {}\n", command, error);
    return ToInt(ExitStatus::kUsage);
  }
  PrintDiagnostics(outcome.diagnostics, command);
  if (!outcome.has_report && *format == "json") {
    // A script asked for JSON: it gets the one shape, with what stopped the command.
    Report stopped;
    stopped.context = CurrentRunContext(command);
    stopped.title = command;
    stopped.evidence.diagnostics = outcome.diagnostics;
    for (const auto& d : outcome.diagnostics.kept())
      if (d.severity == DiagnosticSeverity::kError) {
        stopped.result.push_back({"error", d.message, "", "Error"});
        break;
      }
    if (int rc = WriteFormatted(stopped, *format, flags.output, globals, command)) return rc;
  }
  if (outcome.has_report) {
    Report report = outcome.report;
    // A saved report carries what went wrong on the way beside the evidence's own diagnostics;
    // on the terminal they are on stderr already.
    report.evidence.diagnostics.Append(outcome.diagnostics);
    if (int rc = WriteFormatted(*format == "term" ? outcome.report : report, *format, flags.output,
                                globals, command))
      return rc;
  }
  return ToInt(outcome.status);
}

int WriteReport(const Report& report, const std::string& format_flag, const std::string& output,
                const GlobalOptions& globals, const std::string& command) {
  return WriteFormatted(report, globals.json ? "json" : format_flag, output, globals, command);
}

void PrintDiagnostics(const DiagnosticList& diagnostics, const std::string& command) {
  for (const auto& d : diagnostics.kept()) {
    if (!command.empty() && d.location.file.empty())
      fmt::print(stderr, "feedcheck {}: {}\n", command, FormatDiagnostic(d));
    else
      fmt::print(stderr, "{}\n", FormatDiagnostic(d));
  }
  if (diagnostics.dropped() > 0)
    fmt::print(stderr, "... and {} more diagnostics\n", diagnostics.dropped());
}

int FindingsExitCode(const std::vector<Finding>& findings, const GlobalOptions& globals) {
  return ToInt(app::FindingsExitStatus(findings, globals.fail_on));
}

}  // namespace feedcheck::cli
