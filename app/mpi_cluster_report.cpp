#include "app/mpi_cluster_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "app/probe_report.h"
#include "core/redact.h"
#include "core/run_context.h"
#include "core/units.h"
#include "probes/target_facts.h"

namespace feedcheck::app {
namespace {

// The aggregate counts as at the account's limit within this share of it: the same tolerance
// the ramp test holds the measured plateau to.
constexpr double kAtLimitFraction = 0.9;
// "Ramp by rank" rows the terminal shows without -v (5 nodes: 15 rows; 6 nodes: 21, folded).
constexpr size_t kRampRowsOnTerminal = 20;

std::string Plural(double n, const char* one, const char* many) { return n == 1 ? one : many; }

// A number cell: the text people read and the number a script reads.
TableCell NumberCell(double value, const char* format_spec) {
  return {fmt::format(fmt::runtime(format_spec), value), value};
}
TableCell WholeCell(double value) { return NumberCell(value, "{:.0f}"); }
// Milliseconds to 3 significant digits (0.035 on loopback, 12.3 against Azure); "-" for a node
// that measured none (0 stands for "not measured" in ClusterNodeRow).
TableCell Ms(double value) {
  if (value <= 0) return {"-", std::nullopt};
  return {FormatNumber(value), value};
}

// The verdict's detail is what the terminal shows above the tables (the "result" block is
// left out there when a report has tables): the headline figures, one line each.
void AddDetail(const std::string& line, Report* report) {
  if (!report->verdict_detail.empty()) report->verdict_detail += "\n";
  report->verdict_detail += line;
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t mid = v.size() / 2;
  return v.size() % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

// min, median and max of one per-node figure, under `key`_min, _median, _max.
void AddSpread(const std::vector<double>& values, const std::string& key, const std::string& unit,
               const std::string& label, Report* report) {
  if (values.empty()) return;
  auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  AddNumberResult(key + "_min", *lo, unit, label + ", lowest node", report);
  AddNumberResult(key + "_median", Median(values), unit, label + ", median node", report);
  AddNumberResult(key + "_max", *hi, unit, label + ", highest node", report);
  AddDetail(fmt::format("{} per node: {} to {} {}, median {}", label, FormatNumber(*lo),
                        FormatNumber(*hi), unit, FormatNumber(Median(values))),
            report);
}

// The report every cluster probe starts from: title, run context and the target's facts (so a
// loopback or emulator run stays marked wherever the result goes).
Report StartClusterReport(const std::string& probe, const RankProbe& s, int ranks) {
  Report report;
  report.context = CurrentRunContext("mpi probe " + probe);
  report.title = "Cluster probe: " + probe;
  if (s.local_dir.empty()) {
    report.context.target = RedactUrl(s.env.target.Display());
    AddTargetFacts(s.env.target, &report.evidence.facts);
  } else {
    report.context.target = s.local_dir + " (local path, each node's own)";
  }
  AddNumberResult("ranks", ranks, "", "Ranks", &report);
  return report;
}

void AddRankIndex(const std::vector<int>& ranks_by_index, int slowest, int fastest,
                  Report* report) {
  if (slowest < 0) return;
  AddNumberResult("slowest_rank", ranks_by_index[size_t(slowest)], "", "Slowest node (rank)",
                  report);
  AddNumberResult("fastest_rank", ranks_by_index[size_t(fastest)], "", "Fastest node (rank)",
                  report);
}

void AddErrorTotals(Report* report) {
  const FactSet& facts = report->evidence.facts;
  AddFactResult(facts, "probe.cluster.errors", "errors", "Errors (all ranks)", report);
  AddFactResult(facts, "probe.cluster.throttled", "throttled", "Throttled (all ranks)", report);
}

// Rank, host, Gbit/s, bytes in the common window, p50/p99 time to first byte, errors,
// throttled, status: one row per active rank.
ReportTable NodeTable(const std::string& title, const std::vector<ClusterNodeRow>& nodes,
                      bool throughput) {
  ReportTable t;
  t.title = title;
  t.columns = {{"rank", "rank", true}, {"host", "host", false}};
  if (throughput)
    t.columns.insert(t.columns.end(),
                     {{"gbps", "Gbit/s", true}, {"common_window_bytes", "common window", true}});
  else
    t.columns.insert(t.columns.end(),
                     {{"ttfb_p50_ms", "p50 ms", true}, {"ttfb_p99_ms", "p99 ms", true}});
  t.columns.insert(
      t.columns.end(),
      {{"errors", "errors", true}, {"throttled", "throttled", true}, {"status", "status", false}});
  for (const ClusterNodeRow& n : nodes) {
    std::vector<TableCell> row = {WholeCell(n.rank), TextCell(n.host)};
    if (throughput) {
      row.push_back(NumberCell(n.gbps, "{:.3f}"));
      row.push_back({FormatBytes(n.common_bytes), n.common_bytes});
    } else {
      row.push_back(Ms(n.ttfb_p50_ms));
      row.push_back(Ms(n.ttfb_p99_ms));
    }
    row.insert(row.end(), {WholeCell(n.errors), WholeCell(n.throttled), TextCell(n.status)});
    t.rows.push_back(std::move(row));
  }
  return t;
}

std::vector<int> RanksOf(const std::vector<ClusterNodeRow>& nodes) {
  std::vector<int> ranks;
  for (const ClusterNodeRow& n : nodes) ranks.push_back(n.rank);
  return ranks;
}

void AddRamp(const RankProbe& s, int n, const std::vector<ClusterThroughput>& steps,
             const Ramp& ramp, Report* report) {
  const auto& m = ramp.measured_gbps;
  const auto& p = ramp.predicted_gbps;
  if (m.empty() || ramp.knee < 1 || ramp.predicted_knee < 1) return;
  AddNumberResult("knee_nodes", ramp.knee, "", "Knee (nodes)", report);
  AddNumberResult("knee_gbps", m[size_t(ramp.knee - 1)], "Gbit/s", "Aggregate at the knee", report);
  report->result.push_back(
      {"knee_at_last_step", ramp.knee == n, "", "Knee at the last step (may lie further)"});
  AddNumberResult("predicted_knee_nodes", ramp.predicted_knee, "", "Predicted knee (nodes)",
                  report);
  AddNumberResult("predicted_plateau_gbps", p.back(), "Gbit/s", "Predicted plateau", report);
  RampLimit egress = EgressLimit(s);
  if (int at = NodesToEgressLimit(m, egress.gbps))
    AddNumberResult("nodes_to_egress_limit", at, "", "Nodes to the account's egress limit", report);

  ReportTable t;
  t.title = fmt::format("Ramp (each step {:.1f} s)", s.env.budget.duration_s);
  t.columns = {{"nodes", "nodes", true},
               {"aggregate_gbps", "aggregate Gbit/s", true},
               {"predicted_gbps", "predicted Gbit/s", true},
               {"window_s", "common window s", true}};
  for (size_t i = 0; i < m.size() && i < steps.size(); ++i)
    t.rows.push_back({WholeCell(double(i + 1)), NumberCell(m[i], "{:.3f}"),
                      NumberCell(p[i], "{:.3f}"), NumberCell(steps[i].window_s, "{:.2f}")});
  t.notes.push_back(fmt::format(
      "knee: {} node{} ({:.3f} Gbit/s){}; predicted {} node{} ({:.3f} Gbit/s)", ramp.knee,
      Plural(ramp.knee, "", "s"), m[size_t(ramp.knee - 1)],
      ramp.knee == n ? ", or further: it still grew at the last step" : "", ramp.predicted_knee,
      Plural(ramp.predicted_knee, "", "s"), p[size_t(ramp.predicted_knee - 1)]));
  t.notes.push_back("prediction from " + ramp.prediction_basis);
  AddDetail("ramp " + t.notes.front(), report);
  report->tables.push_back(std::move(t));

  // Every rank at every step: which node held the aggregate back, and when.
  ReportTable by_rank = NodeTable("Ramp by rank", {}, true);
  by_rank.columns.insert(by_rank.columns.begin(), {"nodes", "nodes", true});
  for (size_t i = 0; i < steps.size(); ++i) {
    ReportTable step = NodeTable("", steps[i].nodes, true);
    for (auto& row : step.rows) {
      row.insert(row.begin(), WholeCell(double(i + 1)));
      by_rank.rows.push_back(std::move(row));
    }
  }
  // N nodes give N(N+1)/2 rows: beyond a screenful the terminal counts them unless -v.
  by_rank.folded = by_rank.rows.size() > kRampRowsOnTerminal;
  report->tables.push_back(std::move(by_rank));
}

// Rank, host, the node's own fit (overhead, bandwidth, break-even, r2, points), sizes,
// requests, requests/s, errors, throttled, status.
ReportTable SmallFileNodeTable(const std::vector<SmallFileNodeRow>& nodes) {
  ReportTable t;
  t.title = "Nodes";
  t.columns = {{"rank", "rank", true},
               {"host", "host", false},
               {"overhead_ms", "overhead ms", true},
               {"bandwidth_gbps", "Gbit/s", true},
               {"breakeven_bytes", "break-even", true},
               {"fit_r2", "r2", true},
               {"fit_points", "points", true},
               {"sizes", "sizes", true},
               {"requests", "requests", true},
               {"requests_per_s", "requests/s", true},
               {"errors", "errors", true},
               {"throttled", "throttled", true},
               {"status", "status", false}};
  for (const SmallFileNodeRow& n : nodes) {
    std::vector<TableCell> row = {WholeCell(n.rank), TextCell(n.host)};
    if (n.fit) {
      row.push_back(Ms(n.fit->overhead_ms));
      row.push_back(NumberCell(n.fit->bandwidth_gbps, "{:.3f}"));
      row.push_back({FormatBytes(n.fit->breakeven_bytes), n.fit->breakeven_bytes});
      row.push_back(NumberCell(n.fit->r_squared, "{:.3f}"));
      row.push_back(WholeCell(double(n.fit->points)));
    } else {
      for (int i = 0; i < 5; ++i) row.push_back(TextCell("-"));
    }
    row.insert(row.end(), {WholeCell(double(n.sizes)), WholeCell(n.requests),
                           NumberCell(n.requests_per_s, "{:.0f}"), WholeCell(n.errors),
                           WholeCell(n.throttled), TextCell(n.status)});
    t.rows.push_back(std::move(row));
  }
  return t;
}

}  // namespace

int NodesToEgressLimit(const std::vector<double>& aggregate_gbps, double egress_gbps) {
  if (egress_gbps <= 0) return 0;
  for (size_t i = 0; i < aggregate_gbps.size(); ++i)
    if (aggregate_gbps[i] >= kAtLimitFraction * egress_gbps) return static_cast<int>(i + 1);
  return 0;
}

Report ThroughputClusterReport(const MpiProbeRequest& f, const RankProbe& s, int n,
                               const std::vector<ClusterThroughput>& steps,
                               const ClusterThroughputResult& result) {
  Report report = StartClusterReport("throughput", s, n);
  report.evidence.Merge(result.evidence);
  const ClusterThroughput& all = steps.back();
  AddNumberResult("connections_per_rank", f.concurrency, "", "Connections per rank", &report);
  AddNumberResult("block_bytes", double(s.throughput.block_bytes), "bytes", "Block size", &report);
  AddNumberResult("duration_s", s.env.budget.duration_s, "s",
                  f.ramp ? "Duration of each ramp step" : "Duration per rank", &report);
  report.result.push_back({"ramp", f.ramp, "", "Ramp of 1..N nodes"});
  if (all.window_s > 0) {
    AddNumberResult("aggregate_gbps", all.aggregate_gbps, "Gbit/s", "Aggregate throughput",
                    &report);
    AddNumberResult("window_s", all.window_s, "s", "Common window", &report);
    AddNumberResult("window_start_epoch_s", all.window_start_epoch_s, "s",
                    "Common window starts (epoch)", &report);
    AddNumberResult("common_window_bytes", all.common_bytes, "bytes", "Bytes in the window",
                    &report);
    AddDetail(
        fmt::format("{} node{} x {} connection{}: {:.3f} Gbit/s together over a common window of "
                    "{:.2f} s",
                    n, Plural(n, "", "s"), f.concurrency, Plural(f.concurrency, "", "s"),
                    all.aggregate_gbps, all.window_s),
        &report);
  } else {
    AddTextResult("error", all.error, "No aggregate", &report);
    AddDetail("no aggregate: " + all.error, &report);
  }
  std::vector<double> rates;
  for (const ClusterNodeRow& r : all.nodes) rates.push_back(r.gbps);
  AddSpread(rates, "node_gbps", "Gbit/s", "Throughput", &report);
  AddRankIndex(RanksOf(all.nodes), all.slowest, all.fastest, &report);
  AddErrorTotals(&report);
  report.tables.push_back(NodeTable("Nodes", all.nodes, true));
  if (f.ramp) AddRamp(s, n, steps, result.ramp, &report);
  return report;
}

Report LatencyClusterReport(const RankProbe& s, int n, const ClusterLatencyResult& result) {
  Report report = StartClusterReport("latency", s, n);
  report.evidence.Merge(result.evidence);
  AddNumberResult("duration_s", s.env.budget.duration_s, "s", "At most, per rank", &report);
  const ClusterLatency& c = result.merged;
  const FactSet& facts = report.evidence.facts;
  AddNumberResult("samples", double(c.ttfb.count()), "", "Samples (all ranks)", &report);
  AddFactResult(facts, "probe.cluster.ttfb_p50_ms", "ttfb_p50_ms", "First byte p50", &report);
  AddFactResult(facts, "probe.cluster.ttfb_p90_ms", "ttfb_p90_ms", "First byte p90", &report);
  AddFactResult(facts, "probe.cluster.ttfb_p99_ms", "ttfb_p99_ms", "First byte p99", &report);
  AddFactResult(facts, "probe.cluster.ttfb_p999_ms", "ttfb_p999_ms", "First byte p99.9", &report);
  if (c.ttfb.count()) {
    AddNumberResult("ttfb_min_ms", c.ttfb.min_s() * 1e3, "ms", "First byte min", &report);
    AddNumberResult("ttfb_mean_ms", c.ttfb.mean_s() * 1e3, "ms", "First byte mean", &report);
    AddNumberResult("ttfb_max_ms", c.ttfb.max_s() * 1e3, "ms", "First byte max", &report);
    auto ms = [&c](double q) { return FormatNumber(c.ttfb.PercentileSeconds(q) * 1e3); };
    AddDetail(
        fmt::format("{} node{}, {} samples of time to first byte merged: p50 {} ms, p90 {} "
                    "ms, p99 {} ms, p99.9 {} ms",
                    n, Plural(n, "", "s"), c.ttfb.count(), ms(0.5), ms(0.9), ms(0.99), ms(0.999)),
        &report);
    // The merged histogram itself (bucket middles against counts), as the ranks sent it.
    Series h;
    h.key = "probe.cluster.ttfb_histogram";
    h.title = "time to first byte, all ranks together (histogram)";
    h.x_label = "latency";
    h.x_unit = Unit::kMilliseconds;
    h.y_label = "samples";
    h.y_unit = Unit::kCount;
    std::vector<uint64_t> counts = c.ttfb.counts();
    for (size_t i = 0; i < counts.size(); ++i)
      if (counts[i])
        h.points.push_back({LatencyHistogram::BucketMidNanos(i) / 1e6, double(counts[i])});
    report.evidence.series.push_back(std::move(h));
  }
  std::vector<double> p50s;
  for (const ClusterNodeRow& r : c.nodes)
    if (r.ttfb_p50_ms > 0) p50s.push_back(r.ttfb_p50_ms);
  AddSpread(p50s, "node_ttfb_p50_ms", "ms", "First byte p50", &report);
  if (p50s.empty()) AddDetail("no rank measured a first byte", &report);
  AddRankIndex(RanksOf(c.nodes), c.slowest, c.fastest, &report);
  AddErrorTotals(&report);
  report.tables.push_back(NodeTable("Nodes", c.nodes, false));
  return report;
}

Report SmallFilesClusterReport(const RankProbe& s, int n, const ClusterSmallFilesResult& result) {
  Report report = StartClusterReport("smallfiles", s, n);
  report.evidence.Merge(result.evidence);
  AddNumberResult("duration_s", s.env.budget.duration_s, "s", "At most, per rank", &report);
  const ClusterSmallFiles& c = result.merged;
  AddNumberResult("concurrency_per_rank", s.smallfiles.concurrency, "", "Parallel reads per rank",
                  &report);
  AddNumberResult("requests", c.requests, "", "Requests (all ranks)", &report);
  AddNumberResult("span_s", c.span_s, "s", "Start to last rank's end", &report);
  AddNumberResult("requests_per_s", c.requests_per_s, "/s", "Requests per second together",
                  &report);
  if (c.fit) {
    AddNumberResult("overhead_ms", c.fit->overhead_ms, "ms", "Overhead per request", &report);
    AddNumberResult("bandwidth_gbps", c.fit->bandwidth_gbps, "Gbit/s", "Bandwidth per stream",
                    &report);
    AddNumberResult("breakeven_bytes", c.fit->breakeven_bytes, "bytes", "Break-even size", &report);
    AddNumberResult("fit_r2", c.fit->r_squared, "", "Fit r2", &report);
    AddNumberResult("fit_points", double(c.fit->points), "", "Points (all nodes)", &report);
    AddDetail(
        fmt::format("{} node{}, one fit over all nodes' {} points: overhead {} ms per "
                    "request, {:.3f} Gbit/s per stream, break-even {} (r2 {:.3f})",
                    n, Plural(n, "", "s"), c.fit->points, FormatNumber(c.fit->overhead_ms),
                    c.fit->bandwidth_gbps, FormatBytes(c.fit->breakeven_bytes), c.fit->r_squared),
        &report);
  } else {
    AddTextResult("error", c.error, "No cluster fit", &report);
    AddDetail("no cluster fit: " + c.error, &report);
  }
  AddDetail(
      fmt::format("{:.0f} requests, {:.0f} requests/s together", c.requests, c.requests_per_s),
      &report);
  std::vector<double> overheads;
  std::vector<int> ranks;
  for (const SmallFileNodeRow& r : c.nodes) {
    ranks.push_back(r.rank);
    if (r.fit) overheads.push_back(r.fit->overhead_ms);
  }
  AddSpread(overheads, "node_overhead_ms", "ms", "Overhead", &report);
  AddRankIndex(ranks, c.slowest, c.fastest, &report);
  AddErrorTotals(&report);
  report.tables.push_back(SmallFileNodeTable(c.nodes));
  return report;
}

}  // namespace feedcheck::app
