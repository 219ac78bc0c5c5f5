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
};

/// A horizontal line across the plot: a limit to compare against.
struct ReferenceLine {
  double y = 0;
  std::string label;
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
  /// Fixes the x range (stacked charts on one time axis).
  void SetXRange(double lo, double hi) { x_range_ = {lo, hi}; }
  std::string Render(std::string_view aria_label) const;

 private:
  int width_;
  int height_;
  std::vector<Line> lines_;
  std::vector<ReferenceLine> refs_;
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
/// throttled minutes), with tick labels under the lanes and, when given, a one-line note under
/// them (what a zoomed range left out).
std::string LaneChart(int width, const std::vector<std::string>& lanes,
                      const std::vector<LaneBar>& bars, double x_lo, double x_hi, TickFormat format,
                      std::string_view aria_label, std::string_view note = "");

/// Tick values for a linear axis: 1, 2 or 5 times a power of ten, about `target` of them,
/// covering [lo, hi] (the first tick <= lo, the last >= hi).
std::vector<double> NiceTicks(double lo, double hi, int target);
/// Tick values for a log axis: powers of `base` (10; 4 for sizes: 1 KiB, 4 KiB, 16 KiB...; 2 for
/// connection counts), thinned to at most 9.
std::vector<double> LogTicks(double lo, double hi, double base);
/// Seconds-based ticks on round clock steps (1 s .. 1 day).
std::vector<double> ClockTicks(double lo, double hi, int target);
std::string TickLabel(double value, TickFormat format, double step);

}  // namespace feedcheck::svg
