#include "cli/mpi_output.h"

#include <fmt/format.h>

#include "core/units.h"

namespace feedcheck::cli {
namespace {

std::string Cell(double v, const char* format_spec) {
  return v > 0 ? fmt::format(fmt::runtime(format_spec), v) : "-";
}

std::string FitCells(const std::optional<SmallFileFit>& fit) {
  if (!fit) return fmt::format("{:>11}  {:>10}  {:>10}", "-", "-", "-");
  return fmt::format("{:>11.2f}  {:>10.3f}  {:>10}", fit->overhead_ms, fit->bandwidth_gbps,
                     FormatBytes(fit->breakeven_bytes));
}

nlohmann::json FitJson(const std::optional<SmallFileFit>& fit) {
  if (!fit) return nullptr;
  return {{"overhead_ms", fit->overhead_ms},
          {"bandwidth_gbps", fit->bandwidth_gbps},
          {"breakeven_bytes", fit->breakeven_bytes},
          {"fit_r2", fit->r_squared},
          {"points", fit->points}};
}

}  // namespace

void PrintNodeTable(const std::vector<NodeRow>& nodes) {
  fmt::print("  {:>4}  {:<20}  {:>8}  {:>8}  {:>8}  {:>6}  {:>9}  {}\n", "rank", "host", "Gbit/s",
             "p50 ms", "p99 ms", "errors", "throttled", "status");
  for (const NodeRow& n : nodes)
    fmt::print("  {:>4}  {:<20}  {:>8}  {:>8}  {:>8}  {:>6}  {:>9}  {}\n", n.rank, n.host,
               Cell(n.gbps, "{:.3f}"), Cell(n.ttfb_p50_ms, "{:.2f}"), Cell(n.ttfb_p99_ms, "{:.2f}"),
               n.errors, n.throttled, n.status);
}

void PrintRankMessages(const std::vector<RankReport>& reports) {
  for (const RankReport& r : reports)
    if (r.active && !r.message.empty())
      fmt::print(stderr, "rank {} ({}): {}: {}\n", r.rank, r.host, r.status, r.message);
}

nlohmann::json NodesJson(const std::vector<NodeRow>& nodes) {
  nlohmann::json a = nlohmann::json::array();
  for (const NodeRow& n : nodes)
    a.push_back({{"rank", n.rank},
                 {"host", n.host},
                 {"status", n.status},
                 {"gbps", n.gbps},
                 {"common_window_bytes", n.common_bytes},
                 {"ttfb_p50_ms", n.ttfb_p50_ms},
                 {"ttfb_p99_ms", n.ttfb_p99_ms},
                 {"errors", n.errors},
                 {"throttled", n.throttled}});
  return a;
}

void PrintClusterThroughput(const ClusterThroughput& c) {
  if (c.window_s > 0)
    fmt::print("  aggregate {:.3f} Gbit/s: {} over the common window of {:.2f} s\n",
               c.aggregate_gbps, FormatBytes(c.common_bytes), c.window_s);
  else
    fmt::print("  no aggregate: {}\n", c.error);
  PrintNodeTable(c.nodes);
  if (c.slowest >= 0) {
    const NodeRow& lo = c.nodes[static_cast<size_t>(c.slowest)];
    const NodeRow& hi = c.nodes[static_cast<size_t>(c.fastest)];
    fmt::print("  slowest: rank {} ({}) {:.3f} Gbit/s; fastest: rank {} ({}) {:.3f} Gbit/s\n",
               lo.rank, lo.host, lo.gbps, hi.rank, hi.host, hi.gbps);
  }
}

void PrintSmallFilesText(const ClusterSmallFiles& c, int ranks) {
  fmt::print("cluster small files: {} node{}, {} requests, {:.0f} requests/s together\n", ranks,
             ranks == 1 ? "" : "s", c.requests, c.requests_per_s);
  if (c.fit)
    fmt::print(
        "  all nodes' points together ({}): overhead {:.2f} ms per request, bandwidth {:.3f} "
        "Gbit/s, break-even {} (r2 {:.3f})\n",
        c.fit->points, c.fit->overhead_ms, c.fit->bandwidth_gbps,
        FormatBytes(c.fit->breakeven_bytes), c.fit->r_squared);
  else
    fmt::print("  no cluster fit: {}\n", c.error);
  fmt::print("  {:>4}  {:<20}  {:>11}  {:>10}  {:>10}  {:>8}  {:>10}  {:>6}  {:>9}  {}\n", "rank",
             "host", "overhead ms", "Gbit/s", "break-even", "requests", "requests/s", "errors",
             "throttled", "status");
  for (const SmallFileNodeRow& n : c.nodes)
    fmt::print("  {:>4}  {:<20}  {}  {:>8}  {:>10.0f}  {:>6}  {:>9}  {}\n", n.rank, n.host,
               FitCells(n.fit), n.requests, n.requests_per_s, n.errors, n.throttled, n.status);
  if (c.slowest >= 0) {
    const SmallFileNodeRow& lo = c.nodes[static_cast<size_t>(c.slowest)];
    const SmallFileNodeRow& hi = c.nodes[static_cast<size_t>(c.fastest)];
    fmt::print("  slowest: rank {} ({}) {:.2f} ms per request; fastest: rank {} ({}) {:.2f} ms\n",
               lo.rank, lo.host, lo.fit->overhead_ms, hi.rank, hi.host, hi.fit->overhead_ms);
  }
}

nlohmann::json SmallFilesClusterJson(const ClusterSmallFiles& c) {
  nlohmann::json nodes = nlohmann::json::array();
  for (const SmallFileNodeRow& n : c.nodes) {
    nlohmann::json row = {
        {"rank", n.rank},     {"host", n.host},           {"status", n.status},
        {"sizes", n.sizes},   {"requests", n.requests},   {"requests_per_s", n.requests_per_s},
        {"errors", n.errors}, {"throttled", n.throttled}, {"fit", FitJson(n.fit)}};
    nodes.push_back(std::move(row));
  }
  nlohmann::json points = nlohmann::json::array();
  for (const SeriesPoint& p : c.pooled) points.push_back({{"bytes", p.x}, {"ms", p.y}});
  return {{"fit", FitJson(c.fit)},
          {"error", c.error},
          {"requests", c.requests},
          {"span_s", c.span_s},
          {"requests_per_s", c.requests_per_s},
          {"slowest_rank", c.slowest >= 0 ? c.nodes[size_t(c.slowest)].rank : -1},
          {"fastest_rank", c.fastest >= 0 ? c.nodes[size_t(c.fastest)].rank : -1},
          {"points", points},
          {"nodes", nodes}};
}

nlohmann::json ThroughputClusterJson(const std::vector<ClusterThroughput>& steps,
                                     const Ramp* ramp) {
  const ClusterThroughput& all = steps.back();
  nlohmann::json j = {{"aggregate_gbps", all.aggregate_gbps},
                      {"window_s", all.window_s},
                      {"window_start_epoch_s", all.window_start_epoch_s},
                      {"common_window_bytes", all.common_bytes},
                      {"error", all.error},
                      {"nodes", NodesJson(all.nodes)}};
  if (!ramp) return j;
  nlohmann::json rows = nlohmann::json::array();
  for (size_t i = 0; i < ramp->measured_gbps.size() && i < steps.size(); ++i)
    rows.push_back({{"nodes", i + 1},
                    {"aggregate_gbps", ramp->measured_gbps[i]},
                    {"predicted_gbps", ramp->predicted_gbps[i]},
                    {"window_s", steps[i].window_s},
                    {"ranks", NodesJson(steps[i].nodes)}});
  j["ramp"] = rows;
  return j;
}

void PrintRamp(const Ramp& ramp, int n, double step_s) {
  const auto& m = ramp.measured_gbps;
  const auto& p = ramp.predicted_gbps;
  fmt::print("ramp (each step {:.1f} s):\n  {:>5}  {:>16}  {:>9}\n", step_s, "nodes",
             "aggregate Gbit/s", "predicted");
  for (size_t i = 0; i < m.size(); ++i)
    fmt::print("  {:>5}  {:>16.3f}  {:>9.3f}\n", i + 1, m[i], p[i]);
  fmt::print("  knee: {} node{} ({:.3f} Gbit/s){}; predicted {} node{} ({:.3f} Gbit/s)\n",
             ramp.knee, ramp.knee == 1 ? "" : "s", m[size_t(ramp.knee - 1)],
             ramp.knee == n ? ", or further: it still grew at the last step" : "",
             ramp.predicted_knee, ramp.predicted_knee == 1 ? "" : "s",
             p[size_t(ramp.predicted_knee - 1)]);
  fmt::print("  prediction from {}\n", ramp.prediction_basis);
}

void PrintClusterLatency(const ClusterLatency& c, const FactSet& facts, int n) {
  auto fact = [&](const char* key) {
    const Fact* x = facts.Find(key);
    return x ? FormatFactValue(*x) : std::string("-");
  };
  fmt::print("cluster latency: {} node{}, {} samples of time to first byte, merged\n", n,
             n == 1 ? "" : "s", c.ttfb.count());
  fmt::print("  all ranks together  p50 {}  p90 {}  p99 {}  p99.9 {}\n",
             fact("probe.cluster.ttfb_p50_ms"), fact("probe.cluster.ttfb_p90_ms"),
             fact("probe.cluster.ttfb_p99_ms"), fact("probe.cluster.ttfb_p999_ms"));
  PrintNodeTable(c.nodes);
  if (c.slowest >= 0) {
    const NodeRow& lo = c.nodes[static_cast<size_t>(c.slowest)];
    const NodeRow& hi = c.nodes[static_cast<size_t>(c.fastest)];
    fmt::print("  slowest: rank {} ({}) p50 {:.2f} ms; fastest: rank {} ({}) p50 {:.2f} ms\n",
               lo.rank, lo.host, lo.ttfb_p50_ms, hi.rank, hi.host, hi.ttfb_p50_ms);
  }
}

}  // namespace feedcheck::cli
