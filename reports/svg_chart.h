// Inline SVG charts for the HTML report: axes with nice ticks (1-2-5 steps, log axes for sizes,
// clock axes for time), lines with markers, reference lines and timeline lanes. Only maps values
// to pixels; what to draw comes ready-made from the Report.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/evidence.h"

namespace feedcheck::svg {

enum class Scale { kLinear, kLog };
enum class TickFormat { kNumber, kBytes, kClockUtc };

struct Axis {
  std::string label;
  Scale scale = Scale::kLinear;
  double log_base = 10;  ///< tick spacing on a log axis: 10, 4 (sizes), 2 (connections)
  TickFormat format = TickFormat::kNumber;
  std::optional<double> min;  ///< forced lower bound (0 for rates, 0 for fractions)
  std::optional<double> max;  ///< forced upper bound (1 for a CDF, 100 for percent)
  bool integer = false;       ///< whole-number ticks only (pages, nodes)
};

struct Line {
  std::string name;  ///< legend text
  std::vector<SeriesPoint> points;
  std::string color;
  bool dashed = false;
  bool markers = false;
  double width = 2.5;
  /// Below 1 for a wide band drawn under a thinner line, so both stay visible where they meet
  /// (a CDF's total under its time to first byte).
  double opacity = 1;
};

/// A horizontal line across the plot: a limit to compare against. `tag` names what it marks
/// in the SVG (data-marker="nic"), so a test can find it.
struct ReferenceLine {
  double y = 0;
  std::string label;
  std::string color;
  std::string tag;
};

/// A vertical line across the plot at one x: a break-even size. Named in the legend.
struct VerticalLine {
  double x = 0;
  std::string label;
  std::string color;
  std::string tag;
};

/// A ring around one point, with guides down to the x axis and across to the y axis: the knee
/// of a sweep. Named in the legend ("knee: 32 connections, 9.4 Gbit/s").
struct Marker {
  double x = 0;
  double y = 0;
  std::string label;
  std::string color;
  std::string tag;
};

/// A coloured square and its name in a legend (what a lane's colour means).
struct Swatch {
  std::string name;
  std::string color;
};

/// The same left/right margins for every chart, so stacked charts share one time axis.
inline constexpr int kMarginLeft = 88;
inline constexpr int kMarginRight = 32;

class LineChart {
 public:
  LineChart(int width, int height) : width_(width), height_(height) {}
  Axis x;
  Axis y;
  void Add(Line line) { lines_.push_back(std::move(line)); }
  void Add(ReferenceLine ref) { refs_.push_back(std::move(ref)); }
  void Add(VerticalLine line) { vlines_.push_back(std::move(line)); }
  void Add(Marker marker) { markers_.push_back(std::move(marker)); }
  /// Fixes the x range (stacked charts on one time axis).
  void SetXRange(double lo, double hi) { x_range_ = {lo, hi}; }
  std::string Render(std::string_view aria_label) const;

 private:
  int width_;
  int height_;
  std::vector<Line> lines_;
  std::vector<ReferenceLine> refs_;
  std::vector<VerticalLine> vlines_;
  std::vector<Marker> markers_;
  std::optional<std::pair<double, double>> x_range_;
};

struct LaneBar {
  std::string lane;
  double start = 0;
  double end = 0;
  std::string color;
  std::string tooltip;
};

/// Horizontal lanes of bars over a shared x range (data-runtime activities, starved GPU time,
/// throttled minutes), with a legend of what each colour means above them, tick labels under
/// them and, when given, a one-line note under those (what a zoomed range left out).
std::string LaneChart(int width, const std::vector<std::string>& lanes,
                      const std::vector<LaneBar>& bars, double x_lo, double x_hi, TickFormat format,
                      std::string_view aria_label, std::string_view note = "",
                      const std::vector<Swatch>& legend = {});

/// Tick values for a linear axis: 1, 2 or 5 times a power of ten, about `target` of them,
/// covering [lo, hi] (the first tick <= lo, the last >= hi).
std::vector<double> NiceTicks(double lo, double hi, int target);
/// Tick values for a log axis: powers of `base` (10; 4 for sizes: 1 KiB, 4 KiB, 16 KiB...; 2 for
/// connection counts), thinned to at most `max_ticks` (9; fewer on a phone-width plot).
std::vector<double> LogTicks(double lo, double hi, double base, int max_ticks = 9);
/// Seconds-based ticks on round clock steps (1 s .. 1 day).
std::vector<double> ClockTicks(double lo, double hi, int target);
std::string TickLabel(double value, TickFormat format, double step);

/// Where a legend starts: under the plot's left edge on a wide chart, at the left edge of a
/// phone-width one (whose plot is too narrow for long names).
int LegendLeft(int width);
/// A legend's items, left to right from LegendLeft, wrapping to a new row rather than running
/// past the right edge; `rows` is set to the number of rows used. Lines show their width and
/// dash, markers their ring, swatches a square.
struct LegendItem {
  enum class Kind { kLine, kRing, kSwatch };
  std::string name, color;
  Kind kind = Kind::kLine;
  bool dashed = false;
  double width = 2.5;
  double opacity = 1;
};
std::string Legend(const std::vector<LegendItem>& items, int width, double top, int* rows);
inline constexpr int kLegendRowHeight = 18;
}  // namespace feedcheck::svg
