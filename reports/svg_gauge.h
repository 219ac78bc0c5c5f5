// A demand-against-limit chart for the HTML report: two horizontal bars on one linear axis (what
// is needed, the limit it meets) and a dashed line at the limit across both, so "13.7x its
// limit" is seen as a length. Only maps values to pixels; the values and their text come from
// the Report.
#pragma once

#include <string>
#include <string_view>

namespace feedcheck::svg {

struct GaugeBar {
  std::string name;        ///< "needed" / "account limit"
  double value = 0;        ///< on the chart's one axis
  std::string value_text;  ///< "549,316 /s", formatted by the caller
  std::string color;
};

/// Renders the two bars `demand` and `limit` with tick labels under them. `tag` goes into the
/// SVG as data-marker (for tests).
std::string GaugeChart(int width, const GaugeBar& demand, const GaugeBar& limit,
                       std::string_view aria_label, std::string_view tag);

}  // namespace feedcheck::svg
