// The HTML report's charts: which Evidence series, facts and findings go into which chart, each
// drawn for a desk and for a phone (CSS shows the one that fits). Markers (the knee, the
// break-even, limits, the busy threshold) come from facts and findings, never computed here.
// Charts whose series are absent are not drawn; a short note says what would have drawn them.
#pragma once

#include <string>

#include "reports/report.h"

namespace feedcheck {

struct HtmlCharts {
  std::string grid;   ///< the figures in their grid, "" when none is drawn
  std::string notes;  ///< one note per chart not drawn
  int figures = 0;
};

HtmlCharts RenderHtmlCharts(const Report& report);

}  // namespace feedcheck
