// The report for a person at a terminal: verdict first, then the top findings with their cost,
// settings to paste, one line for each list left out (facts, rules not evaluated, the rest of
// the findings: -v lists them), and the verdict again. Every line wrapped to the terminal's
// width. ANSI colour only when the caller asks (ColorWanted decides: TTY, NO_COLOR, --no-color).
#pragma once

#include "reports/reporter.h"
#include "reports/terminal_layout.h"
#include "reports/text_wrap.h"

namespace feedcheck {

class TerminalReporter : public Reporter {
 public:
  /// `line_budget`: without -v, the report says less (terminal_layout.h) until it fits in this
  /// many lines; 0 says it all at the default level whatever its length.
  explicit TerminalReporter(bool color, bool verbose = false, size_t width = kDefaultTerminalWidth,
                            size_t line_budget = kTerminalLineBudget)
      : color_(color), verbose_(verbose), width_(width), line_budget_(line_budget) {}
  void Render(const Report& report, std::ostream& out) const override;

 private:
  bool color_;
  bool verbose_;
  size_t width_;
  size_t line_budget_;
};

}  // namespace feedcheck
