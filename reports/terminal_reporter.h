// The report for a person at a terminal: verdict first, then the top findings with their cost,
// settings to paste, one line for each list left out (facts, rules not evaluated, the rest of
// the findings: -v lists them), and the verdict again. Every line wrapped to the terminal's
// width. ANSI colour only when the caller asks (ColorWanted decides: TTY, NO_COLOR, --no-color).
#pragma once

#include "reports/reporter.h"
#include "reports/text_wrap.h"

namespace feedcheck {

class TerminalReporter : public Reporter {
 public:
  explicit TerminalReporter(bool color, bool verbose = false, size_t width = kDefaultTerminalWidth)
      : color_(color), verbose_(verbose), width_(width) {}
  void Render(const Report& report, std::ostream& out) const override;

 private:
  bool color_;
  bool verbose_;
  size_t width_;
};

}  // namespace feedcheck
