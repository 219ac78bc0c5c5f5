// Rank 0's small-file arithmetic: the cluster fit is the fit of every node's points pooled
// (not an average of per-node fits), the request rate is all requests over the common span,
// and facts name the rank and host of per-node figures.
#include "mpi/smallfile_merge.h"

#include <catch2/catch.hpp>

#include "core/linear_fit.h"

using namespace feedcheck;

namespace {

// A rank whose requests take overhead_ms + size / gbps at each of `sizes`.
RankReport Node(int rank, double overhead_ms, double gbps, const std::vector<double>& sizes,
                double requests = 100, double elapsed_s = 10) {
  RankReport r;
  r.rank = rank;
  r.host = "node" + std::to_string(rank);
  r.status = "ok";
  for (double b : sizes) r.smallfile_ms.push_back({b, overhead_ms + b * 8 / (gbps * 1e9) * 1e3});
  r.requests = requests;
  r.elapsed_s = elapsed_s;
  return r;
}

const std::vector<double> kAll = {4096, 65536, 1 << 20, 4 << 20, 16 << 20, 64 << 20};

}  // namespace

TEST_CASE("an exact overhead + size / bandwidth curve is recovered") {
  auto fit = FitSmallFiles(Node(0, 2.0, 1.0, kAll).smallfile_ms);
  REQUIRE(fit);
  CHECK(fit->overhead_ms == Approx(2.0).epsilon(1e-9));
  CHECK(fit->bandwidth_gbps == Approx(1.0).epsilon(1e-9));
  CHECK(fit->breakeven_bytes == Approx(0.002 * 125e6).epsilon(1e-9));  // 250 kB
  CHECK(fit->r_squared == Approx(1.0));
  CHECK(fit->points == kAll.size());
}

TEST_CASE("the cluster fit is the fit of all nodes' points pooled, not a mean of node fits") {
  // Different overheads, bandwidths and numbers of sizes: a mean of per-node fits would weigh
  // node 2's two points like node 0's six.
  std::vector<RankReport> reports = {Node(0, 1.0, 2.0, kAll), Node(1, 3.0, 1.0, kAll),
                                     Node(2, 20.0, 0.5, {4096, 64 << 20})};
  // Through the wire format the ranks use.
  for (RankReport& r : reports) {
    std::string error;
    auto back = RankReport::FromJson(nlohmann::json::parse(r.ToJson().dump()), &error);
    REQUIRE(back);
    CHECK(back->smallfile_ms.size() == r.smallfile_ms.size());
    r = *back;
  }
  ClusterSmallFiles c = MergeSmallFiles(reports);
  REQUIRE(c.fit);
  REQUIRE(c.pooled.size() == 14);
  // Independently: weighted least squares over the 14 points, weights 1 / time^2.
  std::vector<double> xs, ys, ws;
  for (const RankReport& r : reports)
    for (const SeriesPoint& p : r.smallfile_ms) {
      xs.push_back(p.x);
      ys.push_back(p.y / 1e3);
      ws.push_back(1e6 / (p.y * p.y));
    }
  auto line = FitLine(xs, ys, ws);
  REQUIRE(line);
  CHECK(c.fit->overhead_ms == Approx(std::max(0.0, line->intercept) * 1e3).epsilon(1e-9));
  CHECK(c.fit->bandwidth_gbps == Approx(8 / line->slope / 1e9).epsilon(1e-9));
  CHECK(c.fit->points == 14);
  // ... which is not the mean of the three nodes' own fits.
  double mean_overhead = 0;
  for (const SmallFileNodeRow& n : c.nodes) {
    REQUIRE(n.fit);
    mean_overhead += n.fit->overhead_ms / 3;
  }
  CHECK(mean_overhead == Approx(8.0));
  CHECK(std::abs(c.fit->overhead_ms - mean_overhead) > 1.0);
  // Per node: each recovers its own curve; slowest = highest overhead.
  CHECK(c.nodes[0].fit->overhead_ms == Approx(1.0));
  CHECK(c.nodes[2].fit->bandwidth_gbps == Approx(0.5));
  CHECK(c.nodes[size_t(c.slowest)].rank == 2);
  CHECK(c.nodes[size_t(c.fastest)].rank == 0);
  // Pooled points are sorted by size for the chart.
  for (size_t i = 1; i < c.pooled.size(); ++i) CHECK(c.pooled[i - 1].x <= c.pooled[i].x);
}

TEST_CASE("aggregate request rate is all requests over the span to the last rank's end") {
  std::vector<RankReport> reports = {Node(0, 1, 1, kAll, 300, 6), Node(1, 1, 1, kAll, 100, 10),
                                     Node(2, 1, 1, kAll, 200, 8)};
  ClusterSmallFiles c = MergeSmallFiles(reports);
  CHECK(c.requests == 600);
  CHECK(c.span_s == 10);
  CHECK(c.requests_per_s == Approx(60));
  CHECK(c.nodes[0].requests_per_s == Approx(50));
  FactSet f;
  AddSmallFileFacts(c, "test", &f);
  CHECK(f.Number("probe.cluster.requests_per_s").value() == Approx(60));
  CHECK(f.Number("probe.cluster.requests").value() == 600);
  CHECK(f.Number("probe.cluster.nodes").value() == 3);
}

TEST_CASE("small-file facts carry rank and host; a node without a fit is in the table only") {
  RankReport failed;
  failed.rank = 1;
  failed.host = "node1";
  failed.status = "failed";
  failed.errors = 16;
  failed.throttled = 4;
  std::vector<RankReport> reports = {Node(0, 2.0, 1.0, kAll), failed, Node(2, 5.0, 1.0, kAll)};
  ClusterSmallFiles c = MergeSmallFiles(reports);
  REQUIRE(c.nodes.size() == 3);
  CHECK_FALSE(c.nodes[1].fit);
  CHECK(c.nodes[size_t(c.slowest)].rank == 2);
  CHECK(c.nodes[size_t(c.fastest)].rank == 0);
  FactSet f;
  AddSmallFileFacts(c, "test", &f);
  const Fact* o = f.Find("probe.cluster.node_smallfile_overhead_ms.2");
  REQUIRE(o);
  CHECK(o->provenance.rank == 2);
  CHECK(o->provenance.host == "node2");
  CHECK(std::get<double>(o->value) == Approx(5.0));
  CHECK_FALSE(f.Find("probe.cluster.node_smallfile_overhead_ms.1"));
  CHECK(f.Number("probe.cluster.node_errors.1").value() == 16);
  CHECK(f.Number("probe.cluster.throttled").value() == 4);
  CHECK(f.Find("probe.cluster.slowest_node_smallfile_overhead_ms")->provenance.rank == 2);
  CHECK(f.Has("probe.cluster.smallfile_overhead_ms"));
  CHECK(f.Has("probe.cluster.smallfile_breakeven_bytes"));
  Evidence ev;
  AddSmallFileSeries(c, &ev);
  REQUIRE(ev.FindSeries("probe.smallfile.fit"));
  REQUIRE(ev.FindSeries("probe.smallfile.time_by_size"));
  CHECK(ev.FindSeries("probe.smallfile.time_by_size")->points.size() == 12);
}

TEST_CASE("no points or no growth with size: no cluster fit, with a reason") {
  RankReport empty;
  empty.status = "failed";
  ClusterSmallFiles none = MergeSmallFiles({empty});
  CHECK_FALSE(none.fit);
  CHECK_FALSE(none.error.empty());
  RankReport flat = Node(0, 2.0, 1.0, {});
  flat.smallfile_ms = {{4096, 3.0}, {1 << 20, 2.0}};  // faster for bigger objects
  ClusterSmallFiles c = MergeSmallFiles({flat});
  CHECK_FALSE(c.fit);
  CHECK_FALSE(c.error.empty());
  CHECK(c.slowest == -1);
  FactSet f;
  AddSmallFileFacts(c, "test", &f);
  CHECK_FALSE(f.Has("probe.cluster.smallfile_overhead_ms"));
  CHECK(MergeSmallFiles({}).error == "no rank measured");
}

TEST_CASE("a throughput rank report without small-file fields still parses") {
  nlohmann::json j = Node(0, 1, 1, kAll).ToJson();
  j.erase("smallfile_ms");
  j.erase("requests");
  j.erase("elapsed_s");
  std::string error;
  auto r = RankReport::FromJson(j, &error);
  REQUIRE(r);
  CHECK(r->smallfile_ms.empty());
  nlohmann::json bad = Node(0, 1, 1, kAll).ToJson();
  bad["smallfile_ms"] = "x";
  CHECK_FALSE(RankReport::FromJson(bad, &error));
}
