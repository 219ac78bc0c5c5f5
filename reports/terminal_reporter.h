// The report for a person at a terminal: verdict first, then findings by severity with their
// evidence, rules not evaluated, settings to paste, facts by prefix, diagnostics and context.
// ANSI colour only when the caller asks (ColorWanted decides: TTY, NO_COLOR, --no-color).
#pragma once

#include "reports/reporter.h"

namespace feedcheck {

class TerminalReporter : public Reporter {
 public:
  explicit TerminalReporter(bool color, bool verbose = false) : color_(color), verbose_(verbose) {}
  void Render(const Report& report, std::ostream& out) const override;

 private:
  bool color_;
  bool verbose_;
};

}  // namespace feedcheck
