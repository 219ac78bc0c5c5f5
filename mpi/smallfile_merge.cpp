#include "mpi/smallfile_merge.h"

#include <algorithm>
#include <cmath>

#include "core/linear_fit.h"

namespace feedcheck {
namespace {

Provenance NodeProvenance(const std::string& source, const SmallFileNodeRow& row) {
  Provenance p{FactOrigin::kMeasured, source};
  p.host = row.host;
  p.rank = row.rank;
  return p;
}

void AddFitFacts(const SmallFileFit& fit, const std::string& prefix, const std::string& suffix,
                 const Provenance& p, FactSet* f) {
  f->Set(NumberFact(prefix + "overhead_ms" + suffix, fit.overhead_ms, Unit::kMilliseconds, p));
  f->Set(NumberFact(prefix + "bandwidth_gbps" + suffix, fit.bandwidth_gbps, Unit::kGbps, p));
  f->Set(NumberFact(prefix + "breakeven_bytes" + suffix, fit.breakeven_bytes, Unit::kBytes, p));
}

Series FitSeries(const SmallFileFit& fit, double min_bytes, double max_bytes) {
  Series s{"probe.smallfile.fit",
           "overhead + size / bandwidth, all nodes' points together",
           "object size",
           Unit::kBytes,
           "ms per request",
           Unit::kMilliseconds,
           {}};
  double bytes_per_ms = fit.bandwidth_gbps * 1e9 / 8 / 1e3;
  double lo = std::log2(min_bytes), hi = std::log2(max_bytes);
  int steps = std::max(2, static_cast<int>((hi - lo) * 4) + 1);
  for (int i = 0; i <= steps; ++i) {
    double x = std::exp2(lo + (hi - lo) * i / steps);
    s.points.push_back({x, fit.overhead_ms + x / bytes_per_ms});
  }
  return s;
}

}  // namespace

std::optional<SmallFileFit> FitSmallFiles(const std::vector<SeriesPoint>& ms_by_bytes) {
  std::vector<double> xs, ys, ws;
  for (const SeriesPoint& p : ms_by_bytes) {
    if (!(p.y > 0) || !(p.x > 0)) continue;  // a zero time carries no information
    double s = p.y / 1e3;
    xs.push_back(p.x);
    ys.push_back(s);
    ws.push_back(1.0 / (s * s));
  }
  auto line = FitLine(xs, ys, ws);
  if (!line || !(line->slope > 0)) return std::nullopt;
  SmallFileFit fit;
  double overhead_s = std::max(0.0, line->intercept);
  double bytes_per_s = 1.0 / line->slope;
  fit.overhead_ms = overhead_s * 1e3;
  fit.bandwidth_gbps = bytes_per_s * 8 / 1e9;
  fit.breakeven_bytes = overhead_s * bytes_per_s;
  fit.r_squared = line->r_squared;
  fit.points = line->points;
  return fit;
}

ClusterSmallFiles MergeSmallFiles(const std::vector<RankReport>& reports) {
  ClusterSmallFiles c;
  std::vector<const RankReport*> active = ActiveRanks(reports);
  for (const RankReport* r : active) {
    SmallFileNodeRow row;
    row.rank = r->rank;
    row.host = r->host;
    row.status = r->status;
    row.fit = FitSmallFiles(r->smallfile_ms);
    row.sizes = r->smallfile_ms.size();
    row.requests = r->requests;
    row.requests_per_s = r->elapsed_s > 0 ? r->requests / r->elapsed_s : 0;
    row.errors = r->errors;
    row.throttled = r->throttled;
    c.nodes.push_back(std::move(row));
    c.pooled.insert(c.pooled.end(), r->smallfile_ms.begin(), r->smallfile_ms.end());
    c.requests += r->requests;
    c.span_s = std::max(c.span_s, r->elapsed_s);
  }
  std::stable_sort(c.pooled.begin(), c.pooled.end(),
                   [](const SeriesPoint& a, const SeriesPoint& b) { return a.x < b.x; });
  if (c.span_s > 0) c.requests_per_s = c.requests / c.span_s;
  c.fit = FitSmallFiles(c.pooled);
  if (active.empty())
    c.error = "no rank measured";
  else if (!c.fit)
    c.error = c.pooled.empty() ? "no rank read any object"
                               : "fewer than two sizes, or time did not grow with size";
  for (size_t i = 0; i < c.nodes.size(); ++i) {
    if (!c.nodes[i].fit) continue;
    double o = c.nodes[i].fit->overhead_ms;
    int n = static_cast<int>(i);
    if (c.slowest < 0 || o > c.nodes[static_cast<size_t>(c.slowest)].fit->overhead_ms)
      c.slowest = n;
    if (c.fastest < 0 || o < c.nodes[static_cast<size_t>(c.fastest)].fit->overhead_ms)
      c.fastest = n;
  }
  return c;
}

void AddSmallFileFacts(const ClusterSmallFiles& c, const std::string& source, FactSet* f) {
  double errors = 0, throttled = 0;
  for (const SmallFileNodeRow& n : c.nodes) {
    Provenance p = NodeProvenance(source, n);
    std::string r = "." + std::to_string(n.rank);
    if (n.fit) AddFitFacts(*n.fit, "probe.cluster.node_smallfile_", r, p, f);
    f->Set(
        NumberFact("probe.cluster.node_requests_per_s" + r, n.requests_per_s, Unit::kPerSecond, p));
    f->Set(NumberFact("probe.cluster.node_errors" + r, n.errors, Unit::kCount, p));
    f->Set(NumberFact("probe.cluster.node_throttled" + r, n.throttled, Unit::kCount, p));
    errors += n.errors;
    throttled += n.throttled;
  }
  Provenance p{FactOrigin::kMeasured, source};
  f->Set(NumberFact("probe.cluster.nodes", static_cast<double>(c.nodes.size()), Unit::kCount, p));
  f->Set(NumberFact("probe.cluster.errors", errors, Unit::kCount, p));
  f->Set(NumberFact("probe.cluster.throttled", throttled, Unit::kCount, p));
  f->Set(NumberFact("probe.cluster.requests", c.requests, Unit::kCount, p));
  if (c.span_s > 0)
    f->Set(NumberFact("probe.cluster.requests_per_s", c.requests_per_s, Unit::kPerSecond, p));
  if (c.fit) {
    Provenance all{
        FactOrigin::kMeasured,
        source + ", one fit over all " + std::to_string(c.pooled.size()) + " points of every node"};
    AddFitFacts(*c.fit, "probe.cluster.smallfile_", "", all, f);
    f->Set(NumberFact("probe.cluster.smallfile_fit_r2", c.fit->r_squared, Unit::kFraction, all));
  }
  if (c.slowest >= 0) {
    const SmallFileNodeRow& s = c.nodes[static_cast<size_t>(c.slowest)];
    const SmallFileNodeRow& q = c.nodes[static_cast<size_t>(c.fastest)];
    f->Set(NumberFact("probe.cluster.slowest_node_smallfile_overhead_ms", s.fit->overhead_ms,
                      Unit::kMilliseconds, NodeProvenance(source, s)));
    f->Set(NumberFact("probe.cluster.fastest_node_smallfile_overhead_ms", q.fit->overhead_ms,
                      Unit::kMilliseconds, NodeProvenance(source, q)));
  }
}

void AddSmallFileSeries(const ClusterSmallFiles& c, Evidence* ev) {
  if (c.pooled.empty()) return;
  Series measured{"probe.smallfile.time_by_size",
                  "time per request (median per size), every node",
                  "object size",
                  Unit::kBytes,
                  "ms per request",
                  Unit::kMilliseconds,
                  c.pooled};
  if (c.fit && c.fit->bandwidth_gbps > 0 && c.pooled.front().x > 0)
    ev->series.push_back(FitSeries(*c.fit, c.pooled.front().x, c.pooled.back().x));
  ev->series.push_back(std::move(measured));
}

}  // namespace feedcheck
