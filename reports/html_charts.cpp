#include "reports/html_charts.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/units.h"
#include "reports/chart_palette.h"
#include "reports/html_escape.h"
#include "reports/svg_chart.h"

namespace feedcheck {

namespace {

constexpr int kHalfWidth = 560, kFullWidth = 1140, kHeight = 300;

std::string AxisLabel(const std::string& label, Unit unit, std::string_view fallback) {
  std::string text = label.empty() ? std::string(fallback) : label;
  // Sizes carry their unit in the tick labels; counts and fractions need none.
  if (unit == Unit::kCount || unit == Unit::kBytes || unit == Unit::kText ||
      unit == Unit::kFraction)
    return text;
  // A label that already names its unit ("Gbit/s", "throughput (Gbit/s)") keeps it once.
  std::string_view name = UnitName(unit);
  if (text.find(name) != std::string::npos) return text;
  return fmt::format("{} ({})", text, name);
}

std::string Title(const Series& s, std::string_view fallback) {
  return s.title.empty() ? std::string(fallback) : s.title;
}

std::string Figure(std::string_view title, std::string_view caption, const std::string& body,
                   bool wide) {
  return fmt::format(
      "<figure class=\"card chart-card{}\"><figcaption><h3>{}</h3><p>{}</p></figcaption>\n{}"
      "</figure>\n",
      wide ? " wide" : "", HtmlEscape(title), HtmlEscape(caption), body);
}

std::string Missing(std::string_view title, std::string_view keys, std::string_view producer) {
  return fmt::format(
      "<p class=\"note\"><b>{}</b> not drawn: this result has no <code>{}</code> series "
      "(from <code>{}</code>).</p>\n",
      HtmlEscape(title), HtmlEscape(keys), HtmlEscape(producer));
}

std::string Throughput(const Evidence& e) {
  const char* title = "Throughput vs concurrency";
  const Series* s = e.FindSeries("probe.throughput.by_concurrency");
  if (!s) return Missing(title, "probe.throughput.by_concurrency", "feedcheck probe throughput");
  svg::LineChart chart(kHalfWidth, kHeight);
  chart.x.label = AxisLabel(s->x_label, s->x_unit, "connections");
  chart.x.scale = svg::Scale::kLog;
  chart.x.log_base = 2;
  chart.y.label = AxisLabel(s->y_label, s->y_unit, "throughput");
  chart.y.min = 0;
  chart.Add(
      svg::Line{Title(*s, "measured"), s->points, std::string(palette::kThroughput), false, true});
  // The node's NIC: the ceiling a well-tuned sweep flattens against.
  if (auto nic = e.facts.NumberIn("node.nic_gbps", s->y_unit))
    chart.Add(svg::ReferenceLine{*nic, "node NIC", std::string(palette::kNic)});
  return Figure(title, "Where adding connections stops adding throughput.", chart.Render(title),
                false);
}

std::string Latency(const Evidence& e) {
  const char* title = "Latency distribution (CDF)";
  struct Curve {
    const char* key;
    const char* name;
    std::string_view color;
  };
  const Curve curves[] = {{"probe.latency.ttfb_cdf", "time to first byte", palette::kLatencyTtfb},
                          {"probe.latency.total_cdf", "total", palette::kLatencyTotal},
                          {"probe.latency.head_cdf", "HEAD", palette::kLatencyHead}};
  svg::LineChart chart(kHalfWidth, kHeight);
  chart.y.min = 0;
  chart.y.max = 1;
  bool any = false;
  for (const auto& c : curves) {
    const Series* s = e.FindSeries(c.key);
    if (!s) continue;
    if (!any) {
      chart.x.label = AxisLabel(s->x_label, s->x_unit, "latency");
      chart.y.label = AxisLabel(s->y_label, s->y_unit, "fraction of requests");
    }
    any = true;
    chart.Add(svg::Line{Title(*s, c.name), s->points, std::string(c.color), false, false});
  }
  if (!any) return Missing(title, "probe.latency.ttfb_cdf", "feedcheck probe latency");
  return Figure(title, "Share of requests answered within a time; a long flat top is the tail.",
                chart.Render(title), false);
}

std::string SmallFiles(const Evidence& e) {
  const char* title = "Time per request vs object size";
  const Series* measured = e.FindSeries("probe.smallfile.time_by_size");
  if (!measured)
    return Missing(title, "probe.smallfile.time_by_size", "feedcheck probe smallfiles");
  svg::LineChart chart(kHalfWidth, kHeight);
  chart.x.label = AxisLabel(measured->x_label, measured->x_unit, "object size");
  chart.x.scale = svg::Scale::kLog;
  chart.x.format = svg::TickFormat::kBytes;
  chart.x.log_base = 4;
  chart.y.label = AxisLabel(measured->y_label, measured->y_unit, "time per request");
  chart.y.min = 0;
  if (const Series* fit = e.FindSeries("probe.smallfile.fit")) {
    chart.Add(svg::Line{Title(*fit, "fit: overhead + size / bandwidth"), fit->points,
                        std::string(palette::kSizeFit), true, false});
  }
  chart.Add(svg::Line{Title(*measured, "measured"), measured->points,
                      std::string(palette::kSizeMeasured), false, true});
  return Figure(title,
                "Flat on the left means per-request overhead dominates: small files cost a "
                "round trip each.",
                chart.Render(title), false);
}

std::string ListPages(const Evidence& e) {
  const Series* s = e.FindSeries("probe.list.page_ms");
  if (!s) return "";  // optional chart: no note
  const char* title = "Listing: time per page";
  if (s->points.size() == 1) {
    // One page is a number, not a chart: a single point on an axis would only invent a scale.
    std::string value = FormatValue(s->points.front().y, s->y_unit);
    return Figure(title,
                  "What one List Blobs page costs; the dataset's listing is pages times this.",
                  fmt::format("<p class=\"stat\">{}</p><p class=\"note\">for the one page listed "
                              "(the container held fewer blobs than a page)</p>\n",
                              HtmlEscape(value)),
                  false);
  }
  svg::LineChart chart(kHalfWidth, kHeight);
  chart.x.label = AxisLabel(s->x_label, s->x_unit, "page");
  chart.x.integer = true;
  chart.y.label = AxisLabel(s->y_label, s->y_unit, "time per page");
  chart.y.min = 0;
  chart.Add(svg::Line{Title(*s, "page"), s->points, std::string(palette::kListPages), false, true});
  return Figure(title, "What one List Blobs page costs; the dataset's listing is pages times this.",
                chart.Render(title), false);
}

std::string LaneColor(const TimelineInterval& t) {
  if (t.lane == "data-runtime") {
    bool failed = !t.status.empty() && t.status != "Success";
    return std::string(failed ? palette::kLaneRuntimeFailed : palette::kLaneRuntime);
  }
  if (t.lane == "gpu") return std::string(palette::kLaneGpuStarved);
  return std::string(palette::kLaneStorage);
}

// The span a timeline shows and what it leaves out.
struct TimeWindow {
  double lo = INFINITY, hi = -INFINITY;
  std::string note;  ///< "folded: upload at 11:40:02 (5.23 s), 13 egress samples", or ""
};

std::string ClockText(double epoch_s) {
  return svg::TickLabel(epoch_s, svg::TickFormat::kClockUtc, /*step=*/1);
}

// The GPU samples and the data runtime's data phase (download or mount), where GPU time is lost.
// Without either, everything. An activity long after (a 5 s upload an hour later) would squeeze
// the minutes that matter into a sliver: it is folded and named in a note instead.
TimeWindow FocusWindow(const Evidence& e, const Series* util, const Series* egress) {
  TimeWindow w;
  auto extend = [&](double v) {
    if (std::isfinite(v)) w.lo = std::min(w.lo, v), w.hi = std::max(w.hi, v);
  };
  if (util)
    for (const auto& p : util->points) extend(p.x);
  for (const auto& t : e.timeline)
    if (t.lane == "data-runtime" && (t.label == "download" || t.label == "mount"))
      extend(t.start_epoch_s), extend(t.end_epoch_s);
  if (!(w.hi > w.lo)) {
    if (egress)
      for (const auto& p : egress->points) extend(p.x);
    for (const auto& t : e.timeline) extend(t.start_epoch_s), extend(t.end_epoch_s);
    return w;
  }
  std::vector<std::string> folded;
  size_t more = 0;
  for (const auto& t : e.timeline) {
    if (t.end_epoch_s >= w.lo && t.start_epoch_s <= w.hi) continue;
    if (folded.size() < 3)
      folded.push_back(fmt::format("{} at {} ({})", t.label, ClockText(t.start_epoch_s),
                                   FormatSeconds(t.end_epoch_s - t.start_epoch_s)));
    else
      ++more;
  }
  size_t egress_outside = 0;
  if (egress)
    for (const auto& p : egress->points) egress_outside += p.x < w.lo || p.x > w.hi;
  if (more > 0) folded.push_back(fmt::format("{} more", more));
  if (egress_outside > 0)
    folded.push_back(
        fmt::format("{} egress sample{}", egress_outside, egress_outside == 1 ? "" : "s"));
  if (!folded.empty())
    w.note = fmt::format("Outside {}\u2013{} UTC, folded: {}", ClockText(w.lo), ClockText(w.hi),
                         fmt::join(folded, "; "));
  return w;
}

std::string GpuTimeline(const Evidence& e) {
  const char* title = "GPU utilisation, data activity and egress over time";
  const Series* util = e.FindSeries("gpu.util");
  const Series* egress = e.FindSeries("metrics.egress_gbps");
  if (!util && !egress && e.timeline.empty())
    return Missing(title, "gpu.util, metrics.egress_gbps or a timeline", "feedcheck postmortem");
  // One x range for the three panels, so a dip in utilisation lines up with what caused it:
  // the GPU samples and the data phase, with whatever lies far outside them folded and named.
  TimeWindow window = FocusWindow(e, util, egress);
  double lo = window.lo, hi = window.hi;
  // One thin line per device ("gpu.util.gpu0", or "gpu.util.node-1/gpu0" across nodes); past
  // kMaxGpuLines the lines hide each other and the page grows, so the mean stands alone.
  constexpr size_t kMaxGpuLines = 64;
  std::vector<const Series*> gpu_lines;
  for (const auto& s : e.series)
    if (s.key.rfind("gpu.util.", 0) == 0) gpu_lines.push_back(&s);
  if (gpu_lines.size() > kMaxGpuLines) gpu_lines.clear();
  if (!(hi > lo)) return Missing(title, "gpu.util with more than one time", "feedcheck postmortem");

  std::string body;
  if (util) {
    svg::LineChart chart(kFullWidth, 230);
    chart.x.format = svg::TickFormat::kClockUtc;
    chart.y.label = "GPU utilisation (%)";
    chart.y.min = 0;
    chart.y.max = 100;
    chart.SetXRange(lo, hi);
    for (const Series* s : gpu_lines)
      chart.Add(svg::Line{"", s->points, std::string(palette::kGpuPerDevice), false, false, 1.2});
    chart.Add(svg::Line{Title(*util, "mean over GPUs"), util->points,
                        std::string(palette::kGpuUtil), false, false});
    body += chart.Render("GPU utilisation over time");
  }
  if (!e.timeline.empty()) {
    std::vector<std::string> lanes;
    std::vector<svg::LaneBar> bars;
    for (const auto& t : e.timeline) {
      if (std::find(lanes.begin(), lanes.end(), t.lane) == lanes.end()) lanes.push_back(t.lane);
      std::string tip = t.label + (t.status.empty() ? "" : " (" + t.status + ")") +
                        (t.source.empty() ? "" : ", " + t.source);
      bars.push_back({t.lane, t.start_epoch_s, t.end_epoch_s, LaneColor(t), tip});
    }
    body += svg::LaneChart(kFullWidth, lanes, bars, lo, hi, svg::TickFormat::kClockUtc,
                           "data-runtime activity, starved GPU time and throttling", window.note);
  }
  if (egress) {
    svg::LineChart chart(kFullWidth, 200);
    chart.x.format = svg::TickFormat::kClockUtc;
    chart.x.label = "time (UTC)";
    chart.y.label = AxisLabel(egress->y_label, egress->y_unit, "egress");
    chart.y.min = 0;
    chart.SetXRange(lo, hi);
    chart.Add(svg::Line{Title(*egress, "account egress"), egress->points,
                        std::string(palette::kEgress), false, false});
    if (auto limit = e.facts.NumberIn("account.egress_gbps", egress->y_unit))
      chart.Add(svg::ReferenceLine{*limit, "account egress limit", std::string(palette::kLimit)});
    body += chart.Render("storage account egress over time");
  }
  return Figure(title,
                "Utilisation, what the data runtime was doing (teal: activity, red: failed; "
                "amber: GPUs starved; rose: throttled) and account egress, on one time axis.",
                body, true);
}

std::string Ramp(const Report& r) {
  const char* title = "Aggregate throughput vs nodes";
  const Evidence& e = r.evidence;
  const Series* ramp = e.FindSeries("probe.cluster.ramp");
  const Series* predicted = e.FindSeries("probe.cluster.ramp_predicted");
  if (!ramp && !predicted) return Missing(title, "probe.cluster.ramp", "feedcheck-mpi probe");
  const Series* first = ramp ? ramp : predicted;
  svg::LineChart chart(kHalfWidth, kHeight);
  chart.x.label = AxisLabel(first->x_label, first->x_unit, "nodes");
  chart.y.label = AxisLabel(first->y_label, first->y_unit, "aggregate throughput");
  chart.x.min = 0;
  chart.y.min = 0;
  if (predicted) {
    chart.Add(svg::Line{Title(*predicted, "predicted"), predicted->points,
                        std::string(palette::kRampPredicted), true, false});
  }
  if (ramp) {
    chart.Add(svg::Line{Title(*ramp, "measured"), ramp->points, std::string(palette::kRamp), false,
                        true});
  }
  if (auto limit = e.facts.NumberIn("account.egress_gbps", first->y_unit)) {
    chart.Add(svg::ReferenceLine{*limit, "account egress limit", std::string(palette::kLimit)});
  }
  return Figure(title, "Where adding nodes stops adding throughput: the account's egress limit.",
                chart.Render(title), false);
}

}  // namespace

std::string RenderHtmlCharts(const Report& report) {
  const Evidence& e = report.evidence;
  // Figures go into the grid; notes about charts not drawn go below it.
  std::string figures, notes;
  for (const std::string& piece :
       {GpuTimeline(e), Throughput(e), Latency(e), SmallFiles(e), Ramp(report), ListPages(e)}) {
    (piece.rfind("<figure", 0) == 0 ? figures : notes) += piece;
  }
  return "<div class=\"charts\">\n" + figures + "</div>\n" + notes;
}

}  // namespace feedcheck
