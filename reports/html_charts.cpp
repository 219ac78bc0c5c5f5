#include "reports/html_charts.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/units.h"
#include "reports/chart_palette.h"
#include "reports/html_escape.h"
#include "reports/svg_chart.h"
#include "reports/svg_gauge.h"

namespace feedcheck {

namespace {

// The sizes a chart is drawn at. Every chart is drawn twice: for a desk (two columns at 1280 px;
// the timeline across both) and for a phone (one column, 360 px of viewBox drawn at about
// 360 px, so 11 px text stays 11 px). CSS shows the one that fits.
struct Frame {
  int half_width;
  int full_width;
  int height;
};
constexpr Frame kDesk{560, 1140, 300}, kPhone{360, 360, 300};

// One chart as drawn for one frame; no title when there was nothing to draw after all.
struct Drawn {
  std::string key;  ///< data-chart="throughput": what a test looks for
  std::string title, caption, body;
  bool wide = false;
};

Drawn Chart(std::string key, std::string title, std::string caption, std::string body,
            bool wide = false) {
  return Drawn{std::move(key), std::move(title), std::move(caption), std::move(body), wide};
}

Drawn Nothing() { return Drawn{}; }  // a chart the report has, drawn from series since dropped

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

std::string Connections(double n) {
  return fmt::format("{} connection{}", FormatNumber(n, 3), n == 1 ? "" : "s");
}

Drawn Throughput(const Evidence& e, const Frame& f) {
  const char* title = "Throughput vs concurrency";
  const Series* s = e.FindSeries("probe.throughput.by_concurrency");
  if (!s) return Nothing();
  svg::LineChart chart(f.half_width, f.height);
  chart.x.label = AxisLabel(s->x_label, s->x_unit, "connections");
  chart.x.scale = svg::Scale::kLog;
  chart.x.log_base = 2;
  chart.y.label = AxisLabel(s->y_label, s->y_unit, "throughput");
  chart.y.min = 0;
  chart.Add(
      svg::Line{Title(*s, "measured"), s->points, std::string(palette::kThroughput), false, true});
  // The node's NIC: the ceiling a well-tuned sweep flattens against.
  if (auto nic = e.facts.NumberIn("node.nic_gbps", s->y_unit))
    chart.Add(svg::ReferenceLine{*nic, "node NIC", std::string(palette::kNic), "nic"});
  // The knee as the sweep found it: the fewest connections not measurably slower than the best.
  auto knee = e.facts.NumberIn("probe.throughput.best_concurrency", Unit::kCount);
  auto at_knee = e.facts.NumberIn("probe.throughput.knee_gbps", s->y_unit);
  if (knee && at_knee && *knee > 0)
    chart.Add(svg::Marker{
        *knee, *at_knee,
        fmt::format("knee: {}, {}", Connections(*knee), FormatValue(*at_knee, s->y_unit)),
        std::string(palette::kKnee), "knee"});
  return Chart("throughput", title,
               "Where adding connections stops adding throughput: the ring is the knee.",
               chart.Render(title));
}

Drawn Latency(const Evidence& e, const Frame& f) {
  const char* title = "Latency distribution (CDF)";
  struct Curve {
    const char* key;
    const char* name;
    std::string_view color;
    double width, opacity;
    bool dashed;
  };
  // Drawn in this order: the total as a wide pale band underneath, HEAD dashed, the time to
  // first byte thin and on top. For small objects the three nearly coincide; each stays seen.
  const Curve curves[] = {
      {"probe.latency.total_cdf", "total", palette::kLatencyTotal, 8, 0.45, false},
      {"probe.latency.head_cdf", "HEAD", palette::kLatencyHead, 2, 1, true},
      {"probe.latency.ttfb_cdf", "time to first byte", palette::kLatencyTtfb, 2.5, 1, false}};
  svg::LineChart chart(f.half_width, f.height);
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
    chart.Add(svg::Line{Title(*s, c.name), s->points, std::string(c.color), c.dashed, false,
                        c.width, c.opacity});
  }
  if (!any) return Nothing();
  return Chart("latency", title,
               "Share of requests answered within a time; a long flat top is the tail.",
               chart.Render(title));
}

Drawn SmallFiles(const Evidence& e, const Frame& f) {
  const char* title = "Time per request vs object size";
  const Series* measured = e.FindSeries("probe.smallfile.time_by_size");
  if (!measured) return Nothing();
  svg::LineChart chart(f.half_width, f.height);
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
  // The break-even the small-files finding quotes (the cluster's when measured across nodes):
  // below it a request costs more in overhead than in transfer.
  auto breakeven = e.facts.NumberIn("probe.cluster.smallfile_breakeven_bytes", Unit::kBytes);
  if (!breakeven) breakeven = e.facts.NumberIn("probe.smallfile.breakeven_bytes", Unit::kBytes);
  if (breakeven && *breakeven > 0)
    chart.Add(svg::VerticalLine{*breakeven, "break-even: " + FormatValue(*breakeven, Unit::kBytes),
                                std::string(palette::kBreakEven), "break-even"});
  if (auto median = e.facts.NumberIn("dataset.median_file_bytes", Unit::kBytes);
      median && *median > 0)
    chart.Add(svg::VerticalLine{*median, "median file: " + FormatValue(*median, Unit::kBytes),
                                std::string(palette::kMedianFile), "median-file"});
  return Chart("smallfiles", title,
               "Flat on the left means per-request overhead dominates: small files cost a "
               "round trip each. Left of the break-even, overhead is most of each request.",
               chart.Render(title));
}

Drawn Listing(const Evidence& e, const Frame& f) {
  const char* caption =
      "Entries listed against time since the first request: the slope is the listing's rate, "
      "and the dataset's listing takes its entries divided by it.";
  const Series* listed = e.FindSeries("probe.list.entries_by_time");
  if (listed && listed->points.size() >= 2) {
    const char* title = "Listing: entries over time";
    svg::LineChart chart(f.half_width, f.height);
    chart.x.label = AxisLabel(listed->x_label, listed->x_unit, "time");
    chart.x.min = 0;
    chart.y.label = AxisLabel(listed->y_label, listed->y_unit, "entries listed");
    chart.y.min = 0;
    std::string name = Title(*listed, "entries listed");
    if (auto rate = e.facts.NumberIn("probe.list.entries_per_s", Unit::kPerSecond))
      name += fmt::format(" ({} a second)", FormatGrouped(*rate, 3));
    chart.Add(svg::Line{name, listed->points, std::string(palette::kListPages), false, true});
    return Chart("listing", title, caption, chart.Render(title));
  }
  // A result saved before entries were timed: the time of each page.
  const Series* s = e.FindSeries("probe.list.page_ms");
  if (!s) return Nothing();
  const char* title = "Listing: time per page";
  const char* page_caption =
      "What one List Blobs page costs; the dataset's listing is pages times this.";
  if (s->points.size() == 1) {
    // One page is a number, not a chart: a single point on an axis would only invent a scale.
    std::string value = FormatValue(s->points.front().y, s->y_unit);
    return Chart("listing", title, page_caption,
                 fmt::format("<p class=\"stat\">{}</p><p class=\"note\">for the one page listed "
                             "(the container held fewer blobs than a page)</p>\n",
                             HtmlEscape(value)));
  }
  svg::LineChart chart(f.half_width, f.height);
  chart.x.label = AxisLabel(s->x_label, s->x_unit, "page");
  chart.x.integer = true;
  chart.y.label = AxisLabel(s->y_label, s->y_unit, "time per page");
  chart.y.min = 0;
  chart.Add(svg::Line{Title(*s, "page"), s->points, std::string(palette::kListPages), false, true});
  return Chart("listing", title, page_caption, chart.Render(title));
}

// A finding's demand against the limit it meets (the rule's `demand:` and `limit:`), as one bar
// chart; the report decided which findings' bars say something.
Drawn Gauge(const Finding& finding, const Frame& f) {
  if (!finding.gauge) return Nothing();
  const FindingGauge& g = *finding.gauge;
  std::string tag = finding.rule_id.empty() ? "gauge" : finding.rule_id;
  // A capacity finding weighs what the plan needs; an observed one, what the job reached.
  const bool observed = finding.basis == FindingBasis::kObserved;
  svg::GaugeBar demand{observed ? "observed" : "needed", g.demand, FormatValue(g.demand, g.unit),
                       std::string(palette::kDemand)};
  svg::GaugeBar limit{"limit", g.limit, FormatValue(g.limit, g.unit), std::string(palette::kLimit)};
  std::string caption = observed ? "What the job reached against the limit it met"
                                 : "What the plan needs against the limit it meets";
  // As the ratio is read elsewhere: 1.00x, 1.44x, 13.7x.
  if (finding.excess)
    caption += fmt::format(": {}x", *finding.excess < 10 ? fmt::format("{:.2f}", *finding.excess)
                                                         : FormatNumber(*finding.excess, 3));
  caption += ".";
  return Chart("gauge", finding.title, caption,
               svg::GaugeChart(f.half_width, demand, limit, finding.title, tag));
}

std::string LaneColor(const TimelineInterval& t) {
  if (t.lane == "data-runtime") {
    bool failed = !t.status.empty() && t.status != "Success";
    return std::string(failed ? palette::kLaneRuntimeFailed : palette::kLaneRuntime);
  }
  if (t.lane == "gpu") return std::string(palette::kLaneGpuStarved);
  if (t.lane == "training loop") return std::string(palette::kLaneDataWait);
  return std::string(palette::kLaneStorage);
}

// What each lane colour means, for the colours the bars use.
std::vector<svg::Swatch> LaneLegend(const std::vector<svg::LaneBar>& bars) {
  const std::pair<std::string_view, const char*> kinds[] = {
      {palette::kLaneRuntime, "data runtime activity"},
      {palette::kLaneRuntimeFailed, "failed"},
      {palette::kLaneGpuStarved, "GPUs starved"},
      {palette::kLaneStorage, "throttled"},
      {palette::kLaneDataWait, "step waited for data (profiler trace)"}};
  std::vector<svg::Swatch> out;
  for (const auto& kind : kinds) {
    // A named pair, not a structured binding: clang 14 cannot capture those in a lambda.
    const std::string_view color = kind.first;
    if (std::any_of(bars.begin(), bars.end(), [&](const auto& b) { return b.color == color; }))
      out.push_back({kind.second, std::string(color)});
  }
  return out;
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
TimeWindow FocusWindow(const Evidence& e, const Series* util, const Series* egress,
                       const Series* wait) {
  TimeWindow w;
  auto extend = [&](double v) {
    if (std::isfinite(v)) w.lo = std::min(w.lo, v), w.hi = std::max(w.hi, v);
  };
  if (util)
    for (const auto& p : util->points) extend(p.x);
  if (wait)  // the profiled steps, drawn beside the utilisation
    for (const auto& p : wait->points) extend(p.x);
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

Drawn GpuTimeline(const Evidence& e, const Frame& f) {
  const char* title = "GPU utilisation, data activity and egress over time";
  const Series* util = e.FindSeries("gpu.util");
  const Series* egress = e.FindSeries("metrics.egress_gbps");
  // The profiled steps' share waiting for data, in percent (the post-mortem's model computes it).
  const Series* wait = e.FindSeries("trace.data_wait_percent");
  if (!util && !egress && !wait && e.timeline.empty()) return Nothing();
  // One x range for the three panels, so a dip in utilisation lines up with what caused it:
  // the GPU samples and the data phase, with whatever lies far outside them folded and named.
  TimeWindow window = FocusWindow(e, util, egress, wait);
  double lo = window.lo, hi = window.hi;
  // One thin line per device ("gpu.util.gpu0", or "gpu.util.node-1/gpu0" across nodes); past
  // kMaxGpuLines the lines hide each other and the page grows, so the mean stands alone.
  constexpr size_t kMaxGpuLines = 64;
  std::vector<const Series*> gpu_lines;
  for (const auto& s : e.series)
    if (s.key.rfind("gpu.util.", 0) == 0) gpu_lines.push_back(&s);
  if (gpu_lines.size() > kMaxGpuLines) gpu_lines.clear();
  if (!(hi > lo)) return Nothing();

  std::string body;
  if (util || wait) {
    svg::LineChart chart(f.full_width, 230);
    chart.x.format = svg::TickFormat::kClockUtc;
    chart.y.label = !wait  ? "GPU utilisation (%)"
                    : util ? "GPU utilisation, waited for data (%)"
                           : "waited for data (% of the step)";
    chart.y.min = 0;
    chart.y.max = 100;
    chart.SetXRange(lo, hi);
    if (util) {
      for (const Series* s : gpu_lines)
        chart.Add(svg::Line{"", s->points, std::string(palette::kGpuPerDevice), false, false, 1.2});
      chart.Add(svg::Line{Title(*util, "mean over GPUs"), util->points,
                          std::string(palette::kGpuUtil), false, false});
      // Under this line a GPU counts as idle: the starved time below is measured against it.
      if (auto busy = e.facts.NumberIn("gpu.busy_threshold_percent", Unit::kPercent))
        chart.Add(svg::ReferenceLine{
            *busy, fmt::format("busy threshold ({})", FormatValue(*busy, Unit::kPercent)),
            std::string(palette::kBusyThreshold), "busy-threshold"});
    }
    // Each profiled step's share waiting for data, at its start: its legend says which steps.
    if (wait)
      chart.Add(svg::Line{Title(*wait, "waited for data"), wait->points,
                          std::string(palette::kDataWait), false, true});
    body += chart.Render(!wait  ? "GPU utilisation over time"
                         : util ? "GPU utilisation and the steps' wait for data over time"
                                : "the profiled steps' wait for data over time");
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
    body += svg::LaneChart(f.full_width, lanes, bars, lo, hi, svg::TickFormat::kClockUtc,
                           "data-runtime activity, starved GPU time and throttling", window.note,
                           LaneLegend(bars));
  }
  if (egress) {
    svg::LineChart chart(f.full_width, 200);
    chart.x.format = svg::TickFormat::kClockUtc;
    chart.x.label = "time (UTC)";
    chart.y.label = AxisLabel(egress->y_label, egress->y_unit, "egress");
    chart.y.min = 0;
    chart.SetXRange(lo, hi);
    chart.Add(svg::Line{Title(*egress, "account egress"), egress->points,
                        std::string(palette::kEgress), false, false});
    if (auto limit = e.facts.NumberIn("account.egress_gbps", egress->y_unit))
      chart.Add(svg::ReferenceLine{*limit, "account egress limit", std::string(palette::kLimit),
                                   "limit"});
    // The most the job's nodes could take in (nodes x NIC), the account aside.
    if (auto nics = e.facts.NumberIn("egress.nics_gbps", egress->y_unit))
      chart.Add(
          svg::ReferenceLine{*nics, "nodes' NICs together", std::string(palette::kNic), "nic"});
    body += chart.Render("storage account egress over time");
  }
  std::string caption =
      "Utilisation against the busy threshold, what the data runtime was doing, and account "
      "egress against its limit and the nodes' NICs, on one time axis.";
  if (wait)
    caption +=
        " From the PyTorch profiler traces: each profiled step's share of its time waiting for "
        "data, at the step's start (the legend says which steps the traces covered).";
  return Chart("timeline", title, caption, body, true);
}

Drawn Ramp(const Evidence& e, const Frame& f) {
  const char* title = "Aggregate throughput vs nodes";
  const Series* ramp = e.FindSeries("probe.cluster.ramp");
  const Series* predicted = e.FindSeries("probe.cluster.ramp_predicted");
  if (!ramp && !predicted) return Nothing();
  const Series* first = ramp ? ramp : predicted;
  svg::LineChart chart(f.half_width, f.height);
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
    chart.Add(
        svg::ReferenceLine{*limit, "account egress limit", std::string(palette::kLimit), "limit"});
  }
  return Chart("ramp", title,
               "Where adding nodes stops adding throughput: the account's egress limit.",
               chart.Render(title));
}

// The charts the report has, in its order.
std::vector<Drawn> AllCharts(const Report& r, const Frame& f) {
  const Evidence& e = r.evidence;
  std::vector<Drawn> out;
  for (const ReportChart& c : r.charts.charts) {
    switch (c.kind) {
      case EvidenceChart::kTimeline:
        out.push_back(GpuTimeline(e, f));
        break;
      case EvidenceChart::kGauge:
        out.push_back(c.finding < r.findings.size() ? Gauge(r.findings[c.finding], f) : Nothing());
        break;
      case EvidenceChart::kThroughput:
        out.push_back(Throughput(e, f));
        break;
      case EvidenceChart::kLatency:
        out.push_back(Latency(e, f));
        break;
      case EvidenceChart::kSmallFiles:
        out.push_back(SmallFiles(e, f));
        break;
      case EvidenceChart::kRamp:
        out.push_back(Ramp(e, f));
        break;
      case EvidenceChart::kListing:
        out.push_back(Listing(e, f));
        break;
    }
  }
  return out;
}

}  // namespace

const char* const kBarChartCss = R"css(
.hbar{display:grid;grid-template-columns:17em 1fr 16em;gap:4px 12px;
align-items:center;margin:4px 0;font-size:14px}
.hlabel{text-align:right;color:#1e293b}.hval{color:#334155;font-variant-numeric:tabular-nums}
.htrack{background:#f1f5f9;border-radius:4px;height:18px}
.hfill{display:block;height:18px;border-radius:4px}
@media (max-width:640px){.hbar{grid-template-columns:1fr;margin:10px 0}.hlabel{text-align:left}}
)css";

std::string RenderBarChart(const ReportBarChart& chart) {
  if (chart.bars.empty()) return "";
  double most = 0;
  for (const auto& b : chart.bars) most = std::max(most, b.value);
  std::string out =
      fmt::format("<div class=\"card\"><div class=\"hbars\" role=\"img\" aria-label=\"{}\">\n",
                  HtmlEscape(chart.title));
  for (const auto& b : chart.bars) {
    const double percent = most > 0 ? b.value / most * 100 : 0;
    out += fmt::format(
        "<div class=\"hbar\"><span class=\"hlabel\">{}</span><span class=\"htrack\">"
        "<span class=\"hfill\" style=\"width:{:.1f}%;background:{}\"></span></span>"
        "<span class=\"hval\">{}</span></div>\n",
        HtmlEscape(b.label), std::max(percent, 0.5), palette::kBar, HtmlEscape(b.text));
  }
  return out + "</div><p class=\"note\">" + HtmlEscape(chart.caption) + "</p></div>\n";
}

HtmlCharts RenderHtmlCharts(const Report& report) {
  std::vector<Drawn> desk = AllCharts(report, kDesk), phone = AllCharts(report, kPhone);
  HtmlCharts out;
  for (size_t i = 0; i < desk.size() && i < phone.size(); ++i) {
    const Drawn& d = desk[i];
    if (d.title.empty()) continue;
    ++out.figures;
    out.grid += fmt::format(
        "<figure class=\"card chart-card{}\" data-chart=\"{}\"><figcaption><h3>{}</h3><p>{}</p>"
        "</figcaption>\n<div class=\"for-desk\">{}</div>\n<div class=\"for-phone\">{}</div>"
        "</figure>\n",
        d.wide ? " wide" : "", HtmlEscape(d.key), HtmlEscape(d.title), HtmlEscape(d.caption),
        d.body, phone[i].body);
  }
  if (out.figures == 0) return out;
  out.grid = "<div class=\"charts\">\n" + out.grid + "</div>\n";
  if (!report.charts.missing.empty())
    out.notes = fmt::format("<p class=\"note\">{}</p>\n", HtmlEscape(report.charts.missing));
  return out;
}

}  // namespace feedcheck
