// The HTML report's charts: which Evidence series, facts and findings go into which chart, each
// drawn for a desk and for a phone (CSS shows the one that fits). Markers (the knee, the
// break-even, limits, the busy threshold) come from facts and findings, never computed here.
// Only the charts the report has (Report::charts, decided with the report) are drawn; the line
// naming missing inputs comes with them.
#pragma once

#include <string>

#include "reports/report.h"

namespace feedcheck {

struct HtmlCharts {
  std::string grid;   ///< the figures in their grid, "" when none is drawn
  std::string notes;  ///< the report's line on missing inputs, "" when none or nothing is drawn
  int figures = 0;
};

HtmlCharts RenderHtmlCharts(const Report& report);

/// A section's bar chart as bars of HTML, not SVG: the text stays readable at phone width, where
/// each row stacks (label, bar, figures). Each bar's length is its share of the longest.
std::string RenderBarChart(const ReportBarChart& chart);

/// The CSS of RenderBarChart's bars, for a page that draws one.
extern const char* const kBarChartCss;

}  // namespace feedcheck
