#include "reports/report_charts.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/units.h"

namespace feedcheck {

namespace {

// The time the GPU timeline would span: its GPU samples, egress samples and activities. One
// instant (a single sample, nothing else) is no axis to draw on.
bool TimelineHasSpan(const Evidence& e) {
  double lo = INFINITY, hi = -INFINITY;
  auto extend = [&](double v) {
    if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
  };
  for (const char* key : {"gpu.util", "metrics.egress_gbps"})
    if (const Series* s = e.FindSeries(key))
      for (const auto& p : s->points) extend(p.x);
  for (const auto& t : e.timeline) extend(t.start_epoch_s), extend(t.end_epoch_s);
  return hi > lo;
}

// The timeline's panels its inputs did not give, for a timeline drawn without them.
std::string MissingPanels(const Evidence& e) {
  std::vector<std::string> missing;
  if (!e.FindSeries("gpu.util"))
    missing.push_back(
        "GPU utilisation (no GPU samples: nvidia-smi, DCGM or the GpuUtilization metric)");
  if (!e.FindSeries("metrics.egress_gbps"))
    missing.push_back("account egress (no storage account metrics)");
  if (missing.empty()) return "";
  return fmt::format("Not drawn for want of inputs: {}.", fmt::join(missing, "; "));
}

}  // namespace

bool GaugeSaysSomething(const FindingGauge& g) {
  if (!std::isfinite(g.demand) || !std::isfinite(g.limit)) return false;
  return g.demand != g.limit && FormatValue(g.demand, g.unit) != FormatValue(g.limit, g.unit);
}

bool BarsSaySomething(const ReportBarChart& chart) {
  // Two bars of different lengths at least; a bar without a length compares nothing.
  std::vector<double> lengths;
  for (const auto& b : chart.bars)
    if (std::isfinite(b.value)) lengths.push_back(b.value);
  return std::any_of(lengths.begin(), lengths.end(),
                     [&](double v) { return v != lengths.front(); });
}

ReportCharts DecideCharts(const Report& r) {
  const Evidence& e = r.evidence;
  ReportCharts out;
  out.decided = true;
  auto add = [&](EvidenceChart kind, size_t finding = 0) { out.charts.push_back({kind, finding}); };
  if (TimelineHasSpan(e)) {
    add(EvidenceChart::kTimeline);
    out.missing = MissingPanels(e);
  }
  for (size_t i = 0; i < r.findings.size(); ++i) {
    const Finding& f = r.findings[i];
    if (f.gauge && !f.secondary && GaugeSaysSomething(*f.gauge)) add(EvidenceChart::kGauge, i);
  }
  if (e.FindSeries("probe.throughput.by_concurrency")) add(EvidenceChart::kThroughput);
  if (e.FindSeries("probe.latency.total_cdf") || e.FindSeries("probe.latency.head_cdf") ||
      e.FindSeries("probe.latency.ttfb_cdf"))
    add(EvidenceChart::kLatency);
  if (e.FindSeries("probe.smallfile.time_by_size")) add(EvidenceChart::kSmallFiles);
  if (e.FindSeries("probe.cluster.ramp") || e.FindSeries("probe.cluster.ramp_predicted"))
    add(EvidenceChart::kRamp);
  const Series* listed = e.FindSeries("probe.list.entries_by_time");
  if ((listed && listed->points.size() >= 2) || e.FindSeries("probe.list.page_ms"))
    add(EvidenceChart::kListing);
  return out;
}

void DecideCharts(Report* report) {
  if (!report->charts.decided) report->charts = DecideCharts(*report);
}

}  // namespace feedcheck
