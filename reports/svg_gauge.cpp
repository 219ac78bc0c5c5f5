#include "reports/svg_gauge.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/units.h"
#include "reports/html_escape.h"
#include "reports/svg_chart.h"

namespace feedcheck::svg {

namespace {

constexpr double kLeft = 16, kBarHeight = 20, kRowHeight = 46, kTop = 8;

}  // namespace

std::string GaugeChart(int width, const GaugeBar& demand, const GaugeBar& limit,
                       std::string_view aria_label, std::string_view tag) {
  const double x0 = kLeft, x1 = width - kMarginRight;
  const double axis_y = kTop + 2 * kRowHeight + 4;
  const int height = static_cast<int>(axis_y + 26);
  double top = std::max({demand.value, limit.value, 0.0});
  std::string out = fmt::format(
      "<svg class=\"chart\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" height=\"{1}\" role=\"img\" "
      "aria-label=\"{2}\" data-marker=\"{3}\" xmlns=\"http://www.w3.org/2000/svg\">\n",
      width, height, HtmlEscape(aria_label), HtmlEscape(tag));
  if (!std::isfinite(top) || !(top > 0)) {
    out += fmt::format(
        "<text class=\"axis-label\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">"
        "no plottable points</text></svg>\n",
        width / 2, height / 2);
    return out;
  }
  // From zero, so the bars' lengths compare; about four ticks fit a phone-width axis.
  std::vector<double> ticks = NiceTicks(0, top, std::clamp(static_cast<int>((x1 - x0) / 90), 2, 6));
  const double hi = ticks.back() > 0 ? ticks.back() : top;
  auto px = [&](double v) { return x0 + std::clamp(v / hi, 0.0, 1.0) * (x1 - x0); };
  for (double t : ticks) {
    out += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#e5e7eb\"/>"
        "<text class=\"tick\" x=\"{0:.1f}\" y=\"{3:.1f}\" text-anchor=\"middle\">{4}</text>\n",
        px(t), kTop, axis_y, axis_y + 17, HtmlEscape(FormatGrouped(t, 3)));
  }
  int row = 0;
  for (const GaugeBar* bar : {&demand, &limit}) {
    double y = kTop + kRowHeight * row++;
    // The name and value above the bar: never clipped by a short bar or the right edge.
    out += fmt::format(
        "<text class=\"legend\" x=\"{:.1f}\" y=\"{:.1f}\"><tspan font-weight=\"700\">{}</tspan>"
        ": {}</text>\n"
        "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" rx=\"3\" fill=\"{}\">"
        "<title>{}: {}</title></rect>\n",
        x0, y + 12, HtmlEscape(bar->name), HtmlEscape(bar->value_text), x0, y + 18,
        std::max(px(bar->value) - x0, 2.0), kBarHeight, HtmlEscape(bar->color),
        HtmlEscape(bar->name), HtmlEscape(bar->value_text));
  }
  // Where the limit falls on the demand's bar.
  out += fmt::format(
      "<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"{3}\" "
      "stroke-width=\"2\" stroke-dasharray=\"7 4\" data-marker=\"limit\"><title>{4}</title>"
      "</line>\n",
      px(limit.value), kTop + 15, kTop + 18 + kBarHeight + 3, HtmlEscape(limit.color),
      HtmlEscape(limit.name));
  out += fmt::format(
      "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#94a3b8\"/>\n", x0,
      axis_y, x1, axis_y);
  return out + "</svg>\n";
}

}  // namespace feedcheck::svg
