// One Report, many reporters (google/benchmark's model): a reporter gets the finished Report and
// an std::ostream and only formats. New formats are new files, never new branches elsewhere.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "reports/report.h"

namespace feedcheck {

struct ReporterOptions {
  bool color = false;  ///< terminal only; the caller decides (see ColorWanted)
  /// -v/--verbose: the terminal lists every rule not evaluated and what it lacked; without it,
  /// one line counts them. JSON always lists them; Markdown and HTML fold the list.
  bool verbose = false;
  /// Terminal only: the columns lines wrap to (the caller reads $COLUMNS or the terminal).
  size_t width = 100;
  /// SARIF only: the directory file paths are made relative to (the working directory).
  std::string base_dir;
  /// Terminal only, without -v: the lines the report says less to fit in (0: no bound).
  size_t line_budget = 0;
};

class Reporter {
 public:
  virtual ~Reporter() = default;
  virtual void Render(const Report& report, std::ostream& out) const = 0;
};

/// "term" | "json" | "md" | "html" | "sarif"; nullptr for any other name.
std::unique_ptr<Reporter> MakeReporter(std::string_view name, const ReporterOptions& options = {});
/// The names MakeReporter accepts, for help text and errors.
const std::vector<std::string_view>& ReporterNames();

/// Colour only on a terminal, never with --no-color, never when NO_COLOR is set to anything
/// (https://no-color.org). `no_color_env` is getenv("NO_COLOR").
bool ColorWanted(bool no_color_flag, bool stream_is_tty, const char* no_color_env);

}  // namespace feedcheck
