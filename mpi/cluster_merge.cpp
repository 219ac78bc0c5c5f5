#include "mpi/cluster_merge.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/diagnostic_codes.h"
#include "core/json_input.h"

namespace feedcheck {
namespace {

using nlohmann::json;

json HistogramJson(const LatencyHistogram& h) { return h.ToJson(); }

bool ReadHistogram(const json& j, const char* key, LatencyHistogram* out, std::string* error) {
  if (!j.is_object()) return true;
  auto it = j.find(key);
  if (it == j.end()) return true;
  std::string why;
  auto h = LatencyHistogram::FromJson(*it, &why);
  if (!h) {
    *error = fmt::format("{}: {}", key, why);
    return false;
  }
  *out = std::move(*h);
  return true;
}

double Ms(const LatencyHistogram& h, double q) { return h.PercentileSeconds(q) * 1e3; }

ClusterNodeRow RowOf(const RankReport& r) {
  ClusterNodeRow row;
  row.rank = r.rank;
  row.host = r.host;
  row.status = r.status;
  row.gbps = r.gbps;
  row.errors = r.errors;
  row.throttled = r.throttled;
  if (r.ttfb.count()) {
    row.ttfb_p50_ms = Ms(r.ttfb, 0.5);
    row.ttfb_p99_ms = Ms(r.ttfb, 0.99);
  }
  return row;
}

Provenance NodeProvenance(const std::string& source, const ClusterNodeRow& row) {
  Provenance p{FactOrigin::kMeasured, source};
  p.host = row.host;
  p.rank = row.rank;
  return p;
}

void AddNodeFacts(const std::vector<ClusterNodeRow>& nodes, bool throughput,
                  const std::string& source, FactSet* f) {
  double errors = 0, throttled = 0;
  for (const ClusterNodeRow& n : nodes) {
    Provenance p = NodeProvenance(source, n);
    std::string r = std::to_string(n.rank);
    if (throughput) {
      f->Set(NumberFact("probe.cluster.node_gbps." + r, n.gbps, Unit::kGbps, p));
    } else {
      f->Set(
          NumberFact("probe.cluster.node_ttfb_p50_ms." + r, n.ttfb_p50_ms, Unit::kMilliseconds, p));
      f->Set(
          NumberFact("probe.cluster.node_ttfb_p99_ms." + r, n.ttfb_p99_ms, Unit::kMilliseconds, p));
    }
    f->Set(NumberFact("probe.cluster.node_errors." + r, n.errors, Unit::kCount, p));
    f->Set(NumberFact("probe.cluster.node_throttled." + r, n.throttled, Unit::kCount, p));
    errors += n.errors;
    throttled += n.throttled;
  }
  Provenance p{FactOrigin::kMeasured, source};
  f->Set(NumberFact("probe.cluster.nodes", static_cast<double>(nodes.size()), Unit::kCount, p));
  f->Set(NumberFact("probe.cluster.errors", errors, Unit::kCount, p));
  f->Set(NumberFact("probe.cluster.throttled", throttled, Unit::kCount, p));
}

}  // namespace

json RankReport::ToJson() const {
  json j = {{"rank", rank},
            {"host", host},
            {"active", active},
            {"status", status},
            {"message", message},
            {"gbps", gbps},
            {"window_start_epoch_s", window_start_epoch_s},
            {"window_end_epoch_s", window_end_epoch_s},
            {"errors", errors},
            {"throttled", throttled},
            {"retries", retries}};
  json t = json::array();
  for (const SeriesPoint& p : timeline) t.push_back({p.x, p.y});
  j["timeline"] = std::move(t);
  if (ttfb.count()) j["ttfb"] = HistogramJson(ttfb);
  if (total.count()) j["total"] = HistogramJson(total);
  if (connect.count()) j["connect"] = HistogramJson(connect);
  if (!smallfile_ms.empty() || requests > 0) {
    json sf = json::array();
    for (const SeriesPoint& p : smallfile_ms) sf.push_back({p.x, p.y});
    j["smallfile_ms"] = std::move(sf);
    j["requests"] = requests;
    j["elapsed_s"] = elapsed_s;
  }
  return j;
}

std::optional<RankReport> RankReport::FromJson(const json& document, std::string* error) {
  // Read the checked way (core/json_input): a missing field, a wrong type or a number out of
  // range names the field, never throws.
  DiagnosticList diags;
  const JsonSource source{"rank report", codes::kRankReportUnreadable, &diags};
  const JsonField j = JsonField::Root(document, source);
  bool ok = true;
  auto need = [&](const char* key) {
    const JsonField f = j[key];
    if (!f.present() && ok) {
      f.Complain("missing");
      ok = false;
    }
    return f;
  };
  auto number = [&](const char* key) {
    auto v = need(key).Number();
    ok = ok && v.has_value();
    return v.value_or(0);
  };
  auto text = [&](const char* key) {
    auto v = need(key).String();
    ok = ok && v.has_value();
    return v.value_or("");
  };
  auto points = [&](const JsonField& list, std::vector<SeriesPoint>* out) {
    if (list.present() && !list.is_array()) {
      if (ok) list.Complain("expected an array of [x, y] pairs");
      ok = false;
      return;
    }
    for (const JsonField& p : list.Elements()) {
      auto x = p[0].Number(), y = p[1].Number();
      if (!p.is_array() || p.size() != 2 || !x || !y) {
        if (ok) p.Complain("expected a pair of finite numbers");
        ok = false;
        return;
      }
      out->push_back({*x, *y});
    }
  };
  RankReport r;
  if (auto rank = need("rank").Whole(0, kMaxWholeInt))
    r.rank = static_cast<int>(*rank);
  else
    ok = false;
  r.host = text("host");
  if (auto active = need("active").Bool())
    r.active = *active;
  else
    ok = false;
  r.status = text("status");
  r.message = text("message");
  r.gbps = number("gbps");
  r.window_start_epoch_s = number("window_start_epoch_s");
  r.window_end_epoch_s = number("window_end_epoch_s");
  r.errors = number("errors");
  r.throttled = number("throttled");
  r.retries = number("retries");
  points(need("timeline"), &r.timeline);
  if (j["smallfile_ms"].raw() != nullptr) {
    points(j["smallfile_ms"], &r.smallfile_ms);
    r.requests = number("requests");
    r.elapsed_s = number("elapsed_s");
  }
  if (!ok) {
    if (error)
      *error =
          diags.kept().empty() ? "not a rank report" : "rank report: " + diags.kept()[0].message;
    return std::nullopt;
  }
  if (!ReadHistogram(document, "ttfb", &r.ttfb, error) ||
      !ReadHistogram(document, "total", &r.total, error) ||
      !ReadHistogram(document, "connect", &r.connect, error))
    return std::nullopt;
  return r;
}

double BytesAt(const std::vector<SeriesPoint>& timeline, double epoch_s) {
  if (timeline.empty()) return 0;
  if (epoch_s <= timeline.front().x) return timeline.front().y;
  if (epoch_s >= timeline.back().x) return timeline.back().y;
  auto it = std::lower_bound(timeline.begin(), timeline.end(), epoch_s,
                             [](const SeriesPoint& p, double t) { return p.x < t; });
  const SeriesPoint& b = *it;
  const SeriesPoint& a = *(it - 1);
  if (b.x <= a.x) return b.y;
  return a.y + (b.y - a.y) * (epoch_s - a.x) / (b.x - a.x);
}

std::vector<SeriesPoint> ThinTimeline(const std::vector<SeriesPoint>& timeline, size_t max_points) {
  if (max_points < 2 || timeline.size() <= max_points) return timeline;
  std::vector<SeriesPoint> out;
  size_t stride = (timeline.size() + max_points - 3) / (max_points - 2);
  for (size_t i = 0; i + 1 < timeline.size(); i += stride) out.push_back(timeline[i]);
  out.push_back(timeline.back());
  return out;
}

std::vector<const RankReport*> ActiveRanks(const std::vector<RankReport>& reports) {
  std::vector<const RankReport*> active;
  for (const RankReport& r : reports)
    if (r.active) active.push_back(&r);
  std::sort(active.begin(), active.end(),
            [](const RankReport* a, const RankReport* b) { return a->rank < b->rank; });
  return active;
}

ClusterThroughput MergeThroughput(const std::vector<RankReport>& reports) {
  ClusterThroughput c;
  std::vector<const RankReport*> active = ActiveRanks(reports);
  if (active.empty()) {
    c.error = "no rank measured";
    return c;
  }
  bool have_windows = true;
  c.window_start_epoch_s = -INFINITY;
  c.window_end_epoch_s = INFINITY;
  for (const RankReport* r : active) {
    if (r->timeline.size() < 2 || r->window_end_epoch_s <= r->window_start_epoch_s)
      have_windows = false;
    c.window_start_epoch_s = std::max(c.window_start_epoch_s, r->window_start_epoch_s);
    c.window_end_epoch_s = std::min(c.window_end_epoch_s, r->window_end_epoch_s);
  }
  for (const RankReport* r : active) c.nodes.push_back(RowOf(*r));
  if (!have_windows) {
    c.error = "a rank measured no window (its probe failed before measuring)";
  } else if (c.window_end_epoch_s <= c.window_start_epoch_s) {
    c.error = "the ranks' windows do not overlap (did they start together?)";
  } else {
    c.window_s = c.window_end_epoch_s - c.window_start_epoch_s;
    for (size_t i = 0; i < active.size(); ++i) {
      const auto& t = active[i]->timeline;
      double bytes = BytesAt(t, c.window_end_epoch_s) - BytesAt(t, c.window_start_epoch_s);
      c.nodes[i].common_bytes = bytes;
      c.common_bytes += bytes;
    }
    c.aggregate_gbps = c.common_bytes * 8 / c.window_s / 1e9;
  }
  for (size_t i = 0; i < c.nodes.size(); ++i) {
    int n = static_cast<int>(i);
    if (c.slowest < 0 || c.nodes[i].gbps < c.nodes[static_cast<size_t>(c.slowest)].gbps)
      c.slowest = n;
    if (c.fastest < 0 || c.nodes[i].gbps > c.nodes[static_cast<size_t>(c.fastest)].gbps)
      c.fastest = n;
  }
  return c;
}

ClusterLatency MergeLatency(const std::vector<RankReport>& reports) {
  ClusterLatency c;
  std::vector<const RankReport*> active = ActiveRanks(reports);
  for (const RankReport* r : active) {
    c.ttfb.Merge(r->ttfb);
    c.total.Merge(r->total);
    c.connect.Merge(r->connect);
    c.nodes.push_back(RowOf(*r));
  }
  for (size_t i = 0; i < c.nodes.size(); ++i) {
    if (active[i]->ttfb.count() == 0) continue;
    int n = static_cast<int>(i);
    if (c.slowest < 0 ||
        c.nodes[i].ttfb_p50_ms > c.nodes[static_cast<size_t>(c.slowest)].ttfb_p50_ms)
      c.slowest = n;
    if (c.fastest < 0 ||
        c.nodes[i].ttfb_p50_ms < c.nodes[static_cast<size_t>(c.fastest)].ttfb_p50_ms)
      c.fastest = n;
  }
  return c;
}

int RampKnee(const std::vector<double>& aggregate_gbps, double min_gain_fraction) {
  if (aggregate_gbps.empty()) return 0;
  double one_node = aggregate_gbps.front();
  for (size_t i = 1; i < aggregate_gbps.size(); ++i) {
    if (aggregate_gbps[i] - aggregate_gbps[i - 1] < min_gain_fraction * one_node)
      return static_cast<int>(i);  // i nodes: the step before the one that did not grow
  }
  return static_cast<int>(aggregate_gbps.size());
}

void AddThroughputFacts(const ClusterThroughput& c, const std::string& source, FactSet* f) {
  AddNodeFacts(c.nodes, true, source, f);
  Provenance p{FactOrigin::kMeasured, source};
  if (c.window_s > 0) {
    f->Set(NumberFact("probe.cluster.aggregate_gbps", c.aggregate_gbps, Unit::kGbps, p));
    f->Set(NumberFact("probe.cluster.window_s", c.window_s, Unit::kSeconds, p));
  }
  if (c.slowest >= 0) {
    const ClusterNodeRow& s = c.nodes[static_cast<size_t>(c.slowest)];
    const ClusterNodeRow& q = c.nodes[static_cast<size_t>(c.fastest)];
    f->Set(NumberFact("probe.cluster.slowest_node_gbps", s.gbps, Unit::kGbps,
                      NodeProvenance(source, s)));
    f->Set(NumberFact("probe.cluster.fastest_node_gbps", q.gbps, Unit::kGbps,
                      NodeProvenance(source, q)));
  }
}

void AddLatencyFacts(const ClusterLatency& c, const std::string& source, FactSet* f) {
  AddNodeFacts(c.nodes, false, source, f);
  Provenance p{FactOrigin::kMeasured, source};
  if (c.ttfb.count()) {
    f->Set(NumberFact("probe.cluster.ttfb_p50_ms", Ms(c.ttfb, 0.5), Unit::kMilliseconds, p));
    f->Set(NumberFact("probe.cluster.ttfb_p90_ms", Ms(c.ttfb, 0.9), Unit::kMilliseconds, p));
    f->Set(NumberFact("probe.cluster.ttfb_p99_ms", Ms(c.ttfb, 0.99), Unit::kMilliseconds, p));
    f->Set(NumberFact("probe.cluster.ttfb_p999_ms", Ms(c.ttfb, 0.999), Unit::kMilliseconds, p));
  }
  if (c.slowest >= 0) {
    const ClusterNodeRow& s = c.nodes[static_cast<size_t>(c.slowest)];
    f->Set(NumberFact("probe.cluster.slowest_node_ttfb_p50_ms", s.ttfb_p50_ms, Unit::kMilliseconds,
                      NodeProvenance(source, s)));
  }
}

}  // namespace feedcheck
