#include "reports/reporter.h"

#include <string>

#include "reports/html_reporter.h"
#include "reports/json_reporter.h"
#include "reports/markdown_reporter.h"
#include "reports/sarif_reporter.h"
#include "reports/terminal_reporter.h"

namespace feedcheck {

std::unique_ptr<Reporter> MakeReporter(std::string_view name, const ReporterOptions& options) {
  if (name == "term")
    return std::make_unique<TerminalReporter>(options.color, options.verbose, options.width,
                                              options.line_budget);
  if (name == "json") return std::make_unique<JsonReporter>();
  if (name == "md") return std::make_unique<MarkdownReporter>();
  if (name == "html") return std::make_unique<HtmlReporter>();
  if (name == "sarif") return std::make_unique<SarifReporter>(options.base_dir);
  return nullptr;
}

const std::vector<std::string_view>& ReporterNames() {
  static const std::vector<std::string_view> names{"term", "json", "md", "html", "sarif"};
  return names;
}

bool ColorWanted(bool no_color_flag, bool stream_is_tty, const char* no_color_env) {
  if (no_color_flag) return false;
  if (no_color_env != nullptr && no_color_env[0] != '\0') return false;
  return stream_is_tty;
}

}  // namespace feedcheck
