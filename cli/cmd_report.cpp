// `feedcheck report RESULT.json --format term|json|md|html [-o FILE]`: re-renders a saved result
// (or a facts.json) in another format. Reading is report_json's job, rendering the reporters'.
#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>

#include "cli/command.h"
#include "core/exit_status.h"
#include "reports/report_json.h"
#include "reports/reporter.h"

namespace feedcheck::cli {

namespace {

struct ReportOptions {
  std::string input;
  std::string format = "term";
  std::string output;
};

int RunReport(const ReportOptions& opts, const GlobalOptions& globals) {
  Report report;
  DiagnosticList diags;
  bool ok = LoadReportFile(opts.input, &report, &diags);
  for (const auto& d : diags.kept()) fmt::print(stderr, "{}\n", FormatDiagnostic(d));
  if (!ok) {
    fmt::print(stderr, "feedcheck report: cannot read {}\n", opts.input);
    return ToInt(ExitStatus::kInputError);
  }
  std::string format = globals.json ? "json" : opts.format;
  ReporterOptions ropts;
  ropts.color = format == "term" && opts.output.empty() &&
                ColorWanted(globals.no_color, isatty(STDOUT_FILENO) != 0, std::getenv("NO_COLOR"));
  std::unique_ptr<Reporter> reporter = MakeReporter(format, ropts);
  if (!reporter) {
    fmt::print(stderr, "feedcheck report: unknown --format '{}'\n", format);
    return ToInt(ExitStatus::kUsage);
  }
  if (opts.output.empty() || opts.output == "-") {
    reporter->Render(report, std::cout);
    std::cout.flush();
    return ToInt(ExitStatus::kOk);
  }
  std::ofstream out(opts.output, std::ios::binary | std::ios::trunc);
  if (out) reporter->Render(report, out);
  out.close();
  if (!out) {
    fmt::print(stderr, "feedcheck report: cannot write {}\n", opts.output);
    return ToInt(ExitStatus::kInputError);
  }
  fmt::print(stderr, "feedcheck report: wrote {} ({})\n", opts.output, format);
  return ToInt(ExitStatus::kOk);
}

}  // namespace

void SetupReport(CLI::App& root, CommandTable& table) {
  auto opts = std::make_shared<ReportOptions>();
  CLI::App* sub = root.add_subcommand(
      "report", "Re-render a saved result (RESULT.json from --json, or a facts.json)");
  sub->add_option("RESULT", opts->input, "Saved result or facts file (JSON)")->required();
  std::string formats;
  for (auto name : ReporterNames()) formats += (formats.empty() ? "" : "|") + std::string(name);
  sub->add_option("-f,--format", opts->format, "Output format: " + formats)
      ->check(
          CLI::IsMember(std::vector<std::string>(ReporterNames().begin(), ReporterNames().end())));
  sub->add_option("-o,--output", opts->output, "Write to FILE instead of standard output");
  table.Add(sub, [opts, &table] { return RunReport(*opts, table.globals()); });
}

}  // namespace feedcheck::cli
