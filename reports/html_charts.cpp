#include "reports/html_charts.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

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
  return fmt::format("{} ({})", text, UnitName(unit));
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
  svg::LineChart chart(kHalfWidth, kHeight);
  chart.x.label = AxisLabel(s->x_label, s->x_unit, "page");
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

std::string GpuTimeline(const Evidence& e) {
  const char* title = "GPU utilisation, data activity and egress over time";
  const Series* util = e.FindSeries("gpu.util");
  const Series* egress = e.FindSeries("metrics.egress_gbps");
  if (!util && !egress && e.timeline.empty())
    return Missing(title, "gpu.util, metrics.egress_gbps or a timeline", "feedcheck postmortem");
  // One x range for the three panels, so a dip in utilisation lines up with what caused it.
  double lo = INFINITY, hi = -INFINITY;
  auto extend = [&](double v) {
    if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
  };
  std::vector<const Series*> gpu_lines;
  for (const auto& s : e.series)
    if (s.key.rfind("gpu.util.gpu", 0) == 0) gpu_lines.push_back(&s);
  for (const Series* s : {util, egress})
    if (s)
      for (const auto& p : s->points) extend(p.x);
  for (const auto& t : e.timeline) extend(t.start_epoch_s), extend(t.end_epoch_s);
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
                           "data-runtime activity, starved GPU time and throttling");
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
