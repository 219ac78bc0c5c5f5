// The report as one self-contained HTML file: inline CSS and SVG charts, no JavaScript, no
// network. Verdict banner, findings cards with evidence, settings, charts, facts, context.
#pragma once

#include "reports/reporter.h"

namespace feedcheck {

class HtmlReporter : public Reporter {
 public:
  void Render(const Report& report, std::ostream& out) const override;
};

}  // namespace feedcheck
