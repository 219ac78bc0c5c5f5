#include "cli/report_output.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/advice_common.h"
#include "core/atomic_file.h"
#include "core/exit_status.h"
#include "reports/reporter.h"

namespace feedcheck::cli {

int WriteReport(const Report& report, const std::string& format_flag, const std::string& output,
                const GlobalOptions& globals, const std::string& command) {
  std::string format = globals.json ? "json" : format_flag;
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

int FindingsExitCode(const std::vector<Finding>& findings, const GlobalOptions& globals) {
  return ToInt(app::FindingsExitStatus(findings, globals.fail_on));
}

}  // namespace feedcheck::cli
