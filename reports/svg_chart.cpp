#include "reports/svg_chart.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <ctime>

#include "core/units.h"
#include "reports/html_escape.h"
#include "reports/text_wrap.h"

namespace feedcheck::svg {

namespace {

constexpr int kMarginTop = 30;     // room for one row of legend
constexpr int kMarginBottom = 46;  // tick labels and the axis label
constexpr const char* kGrid = "#e5e7eb";
constexpr const char* kAxisColor = "#94a3b8";

// Maps a value on an axis to a pixel coordinate between px0 and px1.
struct Mapper {
  double lo, hi;
  Scale scale;
  double px0, px1;
  double operator()(double v) const {
    double a = lo, b = hi, t = v;
    if (scale == Scale::kLog) {
      a = std::log10(lo);
      b = std::log10(hi);
      t = std::log10(v);
    }
    double f = b > a ? (t - a) / (b - a) : 0.5;
    return px0 + f * (px1 - px0);
  }
};

bool Usable(const SeriesPoint& p, Scale xs, Scale ys) {
  if (!std::isfinite(p.x) || !std::isfinite(p.y)) return false;
  if (xs == Scale::kLog && p.x <= 0) return false;
  if (ys == Scale::kLog && p.y <= 0) return false;
  return true;
}

// The axis's ticks and the range they span, from the data extent [lo, hi].
struct AxisLayout {
  std::vector<double> ticks;
  double lo = 0, hi = 1, step = 1;
};

// `plot_px` is the axis's length: a phone-width plot gets fewer ticks, so labels never touch.
AxisLayout LayOut(const Axis& axis, double lo, double hi, bool fixed, double plot_px,
                  bool headroom = false) {
  if (axis.min) lo = *axis.min;
  if (axis.max) hi = *axis.max;
  if (hi <= lo) {
    // One value (or none): open a window around it so it is drawn mid-plot.
    double pad = lo == 0 ? 1 : std::fabs(lo) * 0.5;
    if (axis.scale == Scale::kLog) {
      lo /= 2;
      hi = lo * 4;
    } else {
      hi = lo + pad;
      if (!axis.min) lo -= pad;
    }
  }
  // A little headroom so a line at the maximum (a plateau at a limit) does not hug the frame.
  if (headroom && !fixed && !axis.max && axis.scale == Scale::kLinear &&
      axis.format == TickFormat::kNumber)
    hi += (hi - lo) * 0.04;
  AxisLayout out;
  auto fit = [&](double px_per_tick, int most) {
    return std::clamp(static_cast<int>(plot_px / px_per_tick), 2, most);
  };
  if (axis.scale == Scale::kLog) {
    out.ticks = LogTicks(lo, hi, axis.log_base, fit(48, 9));
  } else if (axis.format == TickFormat::kClockUtc) {
    out.ticks = ClockTicks(lo, hi, fit(80, 7));
  } else {
    out.ticks = NiceTicks(lo, hi, fit(70, 6));
  }
  if (axis.integer && axis.scale == Scale::kLinear) {
    // Whole numbers only: no page 1.5. Steps under 1 become 1.
    std::vector<double> whole;
    double step = out.ticks.size() > 1 ? std::max(1.0, std::round(out.ticks[1] - out.ticks[0])) : 1;
    // From the multiple of the step at or under lo to the first one at or over hi, so the
    // ticks cover the data.
    for (double t = std::floor(lo / step) * step; whole.size() < 1000; t += step) {
      whole.push_back(t);
      if (t >= hi - 1e-9) break;
    }
    out.ticks = whole;
  }
  out.step = out.ticks.size() > 1 ? out.ticks[1] - out.ticks[0] : 1;
  // Clock axes keep the data's range (ticks fall inside it); others snap to the outer ticks.
  if (fixed || axis.format == TickFormat::kClockUtc || out.ticks.size() < 2) {
    out.lo = lo;
    out.hi = hi;
    std::vector<double> inside;
    for (double t : out.ticks)
      if (t >= lo - 1e-9 * std::fabs(hi - lo) && t <= hi + 1e-9 * std::fabs(hi - lo))
        inside.push_back(t);
    out.ticks = inside;
  } else {
    out.lo = out.ticks.front();
    out.hi = out.ticks.back();
  }
  return out;
}

std::string XAxis(const AxisLayout& layout, const Axis& axis, const Mapper& mx, double y_px,
                  double plot_top) {
  // Tick labels 19 px under the axis: a first tick on the left edge then clears the y axis's
  // bottom label ("0"), which sits 4 px under the axis.
  std::string out;
  for (double t : layout.ticks) {
    double px = mx(t);
    out += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"{3}\"/>"
        "<text class=\"tick\" x=\"{0:.1f}\" y=\"{4:.1f}\" text-anchor=\"middle\">{5}</text>\n",
        px, plot_top, y_px, kGrid, y_px + 19, HtmlEscape(TickLabel(t, axis.format, layout.step)));
  }
  out +=
      fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\"/>\n",
                  mx.px0, y_px, mx.px1, y_px, kAxisColor);
  if (!axis.label.empty()) {
    out += fmt::format(
        "<text class=\"axis-label\" x=\"{:.1f}\" y=\"{:.1f}\" "
        "text-anchor=\"middle\">{}</text>\n",
        (mx.px0 + mx.px1) / 2, y_px + 36, HtmlEscape(axis.label));
  }
  return out;
}

std::string YAxis(const AxisLayout& layout, const Axis& axis, const Mapper& my, double x0,
                  double x1) {
  std::string out;
  for (double t : layout.ticks) {
    double py = my(t);
    out += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\" stroke=\"{3}\"/>"
        "<text class=\"tick\" x=\"{4:.1f}\" y=\"{5:.1f}\" text-anchor=\"end\">{6}</text>\n",
        x0, py, x1, kGrid, x0 - 6, py + 4, HtmlEscape(TickLabel(t, axis.format, layout.step)));
  }
  if (!axis.label.empty()) {
    double cy = (my.px0 + my.px1) / 2;
    out += fmt::format(
        "<text class=\"axis-label\" transform=\"translate(16,{:.1f}) rotate(-90)\" "
        "text-anchor=\"middle\">{}</text>\n",
        cy, HtmlEscape(axis.label));
  }
  return out;
}

// Legend text width at 12 px (DejaVu Sans averages under 7.2 px a character); generous, so an
// item never runs past the edge it was laid out against.
double LegendTextWidth(const std::string& name) { return 7.2 * static_cast<double>(name.size()); }

std::vector<LegendItem> LegendItems(const std::vector<Line>& lines,
                                    const std::vector<ReferenceLine>& refs,
                                    const std::vector<VerticalLine>& vlines,
                                    const std::vector<Marker>& markers) {
  std::vector<LegendItem> items;
  for (const auto& l : lines)
    if (!l.name.empty())
      items.push_back({l.name, l.color, LegendItem::Kind::kLine, l.dashed, l.width, l.opacity});
  for (const auto& r : refs)
    if (!r.label.empty()) items.push_back({r.label, r.color, LegendItem::Kind::kLine, true, 2});
  for (const auto& v : vlines)
    if (!v.label.empty()) items.push_back({v.label, v.color, LegendItem::Kind::kLine, true, 2});
  for (const auto& m : markers)
    if (!m.label.empty()) items.push_back({m.label, m.color, LegendItem::Kind::kRing, false, 2.5});
  return items;
}

std::string DataMarker(const std::string& tag) {
  return tag.empty() ? "" : fmt::format(" data-marker=\"{}\"", HtmlEscape(tag));
}

}  // namespace

std::vector<double> NiceTicks(double lo, double hi, int target) {
  if (!(hi > lo) || target < 1) return {lo};
  double raw = (hi - lo) / target;
  double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude;
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    step = m * magnitude;
    if (raw <= step) break;
  }
  double first = std::floor(lo / step + 1e-9) * step;
  double last = std::ceil(hi / step - 1e-9) * step;
  std::vector<double> ticks;
  for (int i = 0; i <= 1000; ++i) {
    double t = first + i * step;
    if (t > last + step * 1e-6) break;
    ticks.push_back(std::fabs(t) < step * 1e-9 ? 0.0 : t);
  }
  return ticks;
}

std::vector<double> LogTicks(double lo, double hi, double base, int max_ticks) {
  if (!(lo > 0) || !(hi > lo) || !(base > 1)) return {lo > 0 ? lo : 1};
  double e0 = std::floor(std::log(lo) / std::log(base) + 1e-9);
  double e1 = std::ceil(std::log(hi) / std::log(base) - 1e-9);
  int stride = 1;
  while ((e1 - e0) / stride > std::max(1, max_ticks - 1)) ++stride;
  std::vector<double> ticks;
  for (double e = e0; e <= e1 + stride - 1; e += stride) ticks.push_back(std::pow(base, e));
  return ticks;
}

std::vector<double> ClockTicks(double lo, double hi, int target) {
  if (!(hi > lo)) return {lo};
  static constexpr std::array<double, 17> kSteps{
      1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 86400};
  double step = kSteps.back();
  for (double s : kSteps) {
    if ((hi - lo) / s <= target) {
      step = s;
      break;
    }
  }
  std::vector<double> ticks;
  for (double t = std::ceil(lo / step) * step; t <= hi && ticks.size() < 100; t += step)
    ticks.push_back(t);
  return ticks;
}

int LegendLeft(int width) { return width < 480 ? 8 : kMarginLeft; }

std::string Legend(const std::vector<LegendItem>& items, int width, double top, int* rows) {
  std::string out;
  const double left = LegendLeft(width);
  double x = left, y = top;
  *rows = items.empty() ? 0 : 1;
  for (const auto& item : items) {
    double w = 24 + LegendTextWidth(item.name);
    if (x > left && x + w > width - 8) {
      x = left;
      y += kLegendRowHeight;
      ++*rows;
    }
    switch (item.kind) {
      case LegendItem::Kind::kLine:
        // The line as drawn: its width (capped, so a wide band stays a symbol) and its dash.
        out += fmt::format(
            "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" "
            "stroke-width=\"{}\"{}{}/>",
            x, y, x + 18, y, HtmlEscape(item.color), std::min(item.width, 7.0),
            item.dashed ? " stroke-dasharray=\"5 3\"" : "",
            item.opacity < 1 ? fmt::format(" stroke-opacity=\"{:.2f}\"", item.opacity) : "");
        break;
      case LegendItem::Kind::kRing:
        out += fmt::format(
            "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"5\" fill=\"none\" stroke=\"{}\" "
            "stroke-width=\"2.5\"/>",
            x + 9, y, HtmlEscape(item.color));
        break;
      case LegendItem::Kind::kSwatch:
        out += fmt::format(
            "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"18\" height=\"10\" rx=\"2\" "
            "fill=\"{}\"/>",
            x, y - 5, HtmlEscape(item.color));
        break;
    }
    out += fmt::format("<text class=\"legend\" x=\"{:.1f}\" y=\"{:.1f}\">{}</text>\n", x + 24,
                       y + 4, HtmlEscape(item.name));
    x += w + 18;
  }
  return out;
}

std::string TickLabel(double value, TickFormat format, double step) {
  switch (format) {
    case TickFormat::kBytes: {
      static constexpr std::array<std::string_view, 6> kNames{"B",   "KiB", "MiB",
                                                              "GiB", "TiB", "PiB"};
      size_t i = 0;
      double v = value;
      while (std::fabs(v) >= 1024 && i + 1 < kNames.size()) {
        v /= 1024;
        ++i;
      }
      return fmt::format("{} {}", FormatNumber(v, 3), kNames[i]);
    }
    case TickFormat::kClockUtc: {
      std::time_t t = static_cast<std::time_t>(value);
      std::tm tm{};
      gmtime_r(&t, &tm);
      char buf[16];
      std::strftime(buf, sizeof(buf), step >= 60 ? "%H:%M" : "%H:%M:%S", &tm);
      return buf;
    }
    case TickFormat::kNumber:
      break;
  }
  return FormatNumber(value, 3);
}

std::string LineChart::Render(std::string_view aria_label) const {
  const double x0 = kMarginLeft, x1 = width_ - kMarginRight;
  int legend_rows = 0;
  std::string legend =
      Legend(LegendItems(lines_, refs_, vlines_, markers_), width_, 14, &legend_rows);
  const double y0 = height_ - kMarginBottom,
               y1 = kMarginTop + kLegendRowHeight * std::max(0, legend_rows - 1);
  // A fixed x range (a zoomed timeline) leaves out the points outside it.
  auto in_range = [&](const SeriesPoint& p) {
    return !x_range_ || (p.x >= x_range_->first && p.x <= x_range_->second);
  };
  double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
  for (const auto& l : lines_) {
    for (const auto& p : l.points) {
      if (!Usable(p, x.scale, y.scale) || !in_range(p)) continue;
      xlo = std::min(xlo, p.x);
      xhi = std::max(xhi, p.x);
      ylo = std::min(ylo, p.y);
      yhi = std::max(yhi, p.y);
    }
  }
  for (const auto& r : refs_) {
    if (!std::isfinite(r.y)) continue;
    ylo = std::min(ylo, r.y);
    yhi = std::max(yhi, r.y);
  }
  // A marker or a vertical line outside the data widens the range, so it is drawn, not lost.
  auto usable_x = [&](double v) { return std::isfinite(v) && (x.scale != Scale::kLog || v > 0); };
  for (const auto& v : vlines_) {
    if (!usable_x(v.x) || !in_range({v.x, 0})) continue;
    xlo = std::min(xlo, v.x);
    xhi = std::max(xhi, v.x);
  }
  for (const auto& m : markers_) {
    if (!Usable({m.x, m.y}, x.scale, y.scale) || !in_range({m.x, m.y})) continue;
    xlo = std::min(xlo, m.x);
    xhi = std::max(xhi, m.x);
    ylo = std::min(ylo, m.y);
    yhi = std::max(yhi, m.y);
  }
  std::string out = fmt::format(
      "<svg class=\"chart\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" height=\"{1}\" role=\"img\" "
      "aria-label=\"{2}\" xmlns=\"http://www.w3.org/2000/svg\">\n",
      width_, height_, HtmlEscape(aria_label));
  if (!(xhi >= xlo) || !(yhi >= ylo)) {
    out += fmt::format(
        "<text class=\"axis-label\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">"
        "no plottable points</text></svg>\n",
        width_ / 2, height_ / 2);
    return out;
  }
  if (x_range_) {
    xlo = x_range_->first;
    xhi = x_range_->second;
  }
  AxisLayout lx = LayOut(x, xlo, xhi, x_range_.has_value(), x1 - x0);
  AxisLayout ly = LayOut(y, ylo, yhi, false, y0 - y1, /*headroom=*/true);
  Mapper mx{lx.lo, lx.hi, x.scale, x0, x1};
  Mapper my{ly.lo, ly.hi, y.scale, y0, y1};

  out += YAxis(ly, y, my, x0, x1);
  out += XAxis(lx, x, mx, y0, y1);
  for (const auto& r : refs_) {
    if (!std::isfinite(r.y)) continue;
    out += fmt::format(
        "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" "
        "stroke-width=\"2\" stroke-dasharray=\"7 4\"{}><title>{}</title></line>\n",
        x0, my(r.y), x1, my(r.y), HtmlEscape(r.color), DataMarker(r.tag), HtmlEscape(r.label));
  }
  for (const auto& v : vlines_) {
    if (!usable_x(v.x) || !in_range({v.x, 0})) continue;
    out += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"{3}\" "
        "stroke-width=\"2\" stroke-dasharray=\"7 4\"{4}><title>{5}</title></line>\n",
        mx(v.x), y1, y0, HtmlEscape(v.color), DataMarker(v.tag), HtmlEscape(v.label));
  }
  for (const auto& l : lines_) {
    std::string pts;
    for (const auto& p : l.points)
      if (Usable(p, x.scale, y.scale) && in_range(p))
        pts += fmt::format("{:.1f},{:.1f} ", mx(p.x), my(p.y));
    out += fmt::format(
        "<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"{}\" stroke-linejoin=\"round\" "
        "stroke-linecap=\"round\"{}{} points=\"{}\"><title>{}</title></polyline>\n",
        HtmlEscape(l.color), l.width, l.dashed ? " stroke-dasharray=\"6 4\"" : "",
        l.opacity < 1 ? fmt::format(" stroke-opacity=\"{:.2f}\"", l.opacity) : "", pts,
        HtmlEscape(l.name));
    if (!l.markers) continue;
    for (const auto& p : l.points) {
      if (!Usable(p, x.scale, y.scale) || !in_range(p)) continue;
      out += fmt::format(
          "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"4\" fill=\"{}\" stroke=\"#fff\" "
          "stroke-width=\"1.5\"><title>{}: {}, {}</title></circle>\n",
          mx(p.x), my(p.y), HtmlEscape(l.color), HtmlEscape(l.name),
          HtmlEscape(TickLabel(p.x, x.format, lx.step)), HtmlEscape(FormatNumber(p.y, 3)));
    }
  }
  // Markers last, over the lines: the guides show where the point falls on each axis.
  for (const auto& m : markers_) {
    if (!Usable({m.x, m.y}, x.scale, y.scale) || !in_range({m.x, m.y})) continue;
    double cx = mx(m.x), cy = my(m.y);
    out += fmt::format(
        "<g{0}><polyline fill=\"none\" stroke=\"{1}\" stroke-width=\"1.2\" "
        "stroke-dasharray=\"3 3\" points=\"{2:.1f},{3:.1f} {4:.1f},{3:.1f} {4:.1f},{5:.1f}\"/>"
        "<circle cx=\"{4:.1f}\" cy=\"{3:.1f}\" r=\"8\" fill=\"none\" stroke=\"{1}\" "
        "stroke-width=\"2.5\"><title>{6}</title></circle></g>\n",
        DataMarker(m.tag), HtmlEscape(m.color), x0, cy, cx, y0, HtmlEscape(m.label));
  }
  out += legend;
  out += "</svg>\n";
  return out;
}

std::string LaneChart(int width, const std::vector<std::string>& lanes,
                      const std::vector<LaneBar>& bars, double x_lo, double x_hi, TickFormat format,
                      std::string_view aria_label, std::string_view note,
                      const std::vector<Swatch>& legend) {
  constexpr double kLaneHeight = 24;
  std::vector<LegendItem> items;
  for (const auto& s : legend) items.push_back({s.name, s.color, LegendItem::Kind::kSwatch});
  int legend_rows = 0;
  std::string legend_svg = Legend(items, width, 14, &legend_rows);
  const double kTop = legend_rows > 0 ? 14 + kLegendRowHeight * (legend_rows - 1) + 12 : 6;
  // The note in lines that fit the width (11.5 px italic: under 6.4 px a character), from the
  // legend's left edge: one line on a desk, three or four on a phone.
  const double note_left = LegendLeft(width);
  std::vector<std::string> note_lines;
  if (!note.empty())
    note_lines = WrapText(note, static_cast<size_t>((width - note_left - 8) / 6.4), 0, "");
  const double kAxis = note_lines.empty() ? 24 : 26 + 16 * static_cast<double>(note_lines.size());
  const double x0 = kMarginLeft, x1 = width - kMarginRight;
  const double plot_bottom = kTop + kLaneHeight * static_cast<double>(lanes.size());
  const int height = static_cast<int>(plot_bottom + kAxis);
  Axis axis;
  axis.format = format;
  AxisLayout layout = LayOut(axis, x_lo, x_hi, true, x1 - x0);
  Mapper mx{layout.lo, layout.hi, Scale::kLinear, x0, x1};
  std::string out = fmt::format(
      "<svg class=\"chart\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" height=\"{1}\" role=\"img\" "
      "aria-label=\"{2}\" xmlns=\"http://www.w3.org/2000/svg\">\n",
      width, height, HtmlEscape(aria_label));
  out += legend_svg;
  for (size_t i = 0; i < lanes.size(); ++i) {
    double top = kTop + kLaneHeight * static_cast<double>(i);
    out += fmt::format(
        "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\"/>"
        "<text class=\"tick\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n",
        x0, top + 2, x1 - x0, kLaneHeight - 4, i % 2 ? "#f8fafc" : "#f1f5f9", x0 - 6,
        top + kLaneHeight / 2 + 4, HtmlEscape(lanes[i]));
    for (const auto& b : bars) {
      if (b.lane != lanes[i] || !std::isfinite(b.start) || !std::isfinite(b.end)) continue;
      if (b.end < layout.lo || b.start > layout.hi) continue;  // outside a zoomed range
      double a = std::clamp(mx(b.start), x0, x1), z = std::clamp(mx(b.end), x0, x1);
      out += fmt::format(
          "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" rx=\"2\" "
          "fill=\"{}\"><title>{}</title></rect>\n",
          a, top + 4, std::max(z - a, 2.0), kLaneHeight - 8, HtmlEscape(b.color),
          HtmlEscape(b.tooltip));
    }
  }
  for (double t : layout.ticks) {
    out += fmt::format(
        "<text class=\"tick\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}"
        "</text>\n",
        mx(t), plot_bottom + 16, HtmlEscape(TickLabel(t, format, layout.step)));
  }
  for (size_t i = 0; i < note_lines.size(); ++i)
    out +=
        fmt::format("<text class=\"chart-note\" x=\"{:.1f}\" y=\"{:.1f}\">{}</text>\n", note_left,
                    plot_bottom + 36 + 16 * static_cast<double>(i), HtmlEscape(note_lines[i]));
  out += "</svg>\n";
  return out;
}

}  // namespace feedcheck::svg
