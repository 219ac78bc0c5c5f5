#include "reports/reporter.h"

#include <string>

#include "reports/fleet_html.h"
#include "reports/fleet_markdown.h"
#include "reports/fleet_terminal.h"
#include "reports/html_reporter.h"
#include "reports/json_reporter.h"
#include "reports/markdown_reporter.h"
#include "reports/sarif_reporter.h"
#include "reports/terminal_reporter.h"

namespace feedcheck {

namespace {

// A fleet's post-mortem (a folder of jobs) has its own layout in the formats people read; JSON
// carries it in the one report document. The reporter is chosen before the report exists, so
// the choice is made when it renders.
class FleetAwareReporter : public Reporter {
 public:
  FleetAwareReporter(std::string_view name, const ReporterOptions& options,
                     std::unique_ptr<Reporter> one_job)
      : name_(name), options_(options), one_job_(std::move(one_job)) {}
  void Render(const Report& report, std::ostream& out) const override {
    if (!report.fleet.present || name_ == "json") return one_job_->Render(report, out);
    if (name_ == "term")
      return RenderFleetTerminal(report, out, options_.color, options_.verbose, options_.width);
    if (name_ == "md") return RenderFleetMarkdown(report, out);
    RenderFleetHtml(report, out);
  }

 private:
  std::string name_;
  ReporterOptions options_;
  std::unique_ptr<Reporter> one_job_;
};

std::unique_ptr<Reporter> MakeOneJobReporter(std::string_view name,
                                             const ReporterOptions& options) {
  if (name == "term")
    return std::make_unique<TerminalReporter>(options.color, options.verbose, options.width,
                                              options.line_budget);
  if (name == "json") return std::make_unique<JsonReporter>();
  if (name == "md") return std::make_unique<MarkdownReporter>();
  if (name == "html") return std::make_unique<HtmlReporter>();
  if (name == "sarif") return std::make_unique<SarifReporter>(options.base_dir);
  return nullptr;
}

}  // namespace

std::unique_ptr<Reporter> MakeReporter(std::string_view name, const ReporterOptions& options) {
  std::unique_ptr<Reporter> one_job = MakeOneJobReporter(name, options);
  if (!one_job) return nullptr;
  return std::make_unique<FleetAwareReporter>(name, options, std::move(one_job));
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
