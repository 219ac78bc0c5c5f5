// Which format a report is rendered in, from --json, -f and -o: -f when given, else the
// extension of -o (.json .md .html .sarif .txt), else json for --json, else the terminal's text.
#pragma once

#include <optional>
#include <string>

namespace feedcheck::app {

struct FormatFlags {
  bool json = false;   ///< --json
  std::string format;  ///< -f/--format as given; "" when not given
  std::string output;  ///< -o/--output; "" or "-" for standard output
};

/// "term", "json", "md", "html" or "sarif"; nullopt with `error` naming the flags for --json with
/// another -f, or an unknown -f.
std::optional<std::string> ChooseReportFormat(const FormatFlags& flags, std::string* error);

}  // namespace feedcheck::app
