// `feedcheck report RESULT.json --format term|json|md|html [-o FILE]`: re-renders a saved result
// (or a facts.json) in another format. Reading is report_json's job, rendering the reporters'.
#include <fmt/format.h>

#include <memory>

#include "cli/command.h"
#include "cli/report_output.h"
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
  return WriteReport(report, opts.format, opts.output, globals, "report");
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
