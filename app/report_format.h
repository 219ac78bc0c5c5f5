// Which format a report is rendered in, from --json, -f and -o: -f when given, else the
// extension of -o (.json .md .html .sarif .txt), else json for --json, else the terminal's text.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace feedcheck::app {

struct FormatFlags {
  bool json = false;   ///< --json
  std::string format;  ///< -f/--format as given; "" when not given
  std::string output;  ///< -o/--output; "" or "-" for standard output
  /// A command's own formats that -o's extension may also pick (lint: "sarif" for .sarif).
  std::vector<std::string> extra_formats = {};
};

/// "term", "json", "md", "html" or "sarif" (or one of `extra_formats`); nullopt with `error`
/// naming the flags for --json with another -f, an unknown -f, or -o FILE whose extension names
/// no format (report.pdf would get terminal text): the known extensions are listed.
std::optional<std::string> ChooseReportFormat(const FormatFlags& flags, std::string* error);

/// "", or the error ChooseReportFormat gives for -o's extension alone (no -f, no --json): for a
/// check at parse time, before a long probe runs.
std::string OutputExtensionProblem(const std::string& output,
                                   const std::vector<std::string>& extra_formats);

}  // namespace feedcheck::app
