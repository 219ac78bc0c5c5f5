// Rank 0's arithmetic with the real histogram: merged percentiles equal the percentiles of
// all samples recorded together; the aggregate is bytes in the common window / its length;
// the ramp knee rule on measured and predicted series.
#include "mpi/cluster_merge.h"

#include <catch2/catch.hpp>
#include <random>

#include "tests/mpi/steady_rank.h"

using namespace feedcheck;

namespace {

RankReport WithSamples(int rank, std::mt19937* rng, double median_s, double sigma, int n,
                       LatencyHistogram* all) {
  RankReport r;
  r.rank = rank;
  r.host = "node" + std::to_string(rank);
  r.status = "ok";
  std::lognormal_distribution<double> d(std::log(median_s), sigma);
  for (int i = 0; i < n; ++i) {
    double v = d(*rng);
    r.ttfb.RecordSeconds(v);
    all->RecordSeconds(v);
  }
  return r;
}

using feedcheck::testing::Steady;

}  // namespace

TEST_CASE("merged percentiles equal the percentiles of all samples together") {
  std::mt19937 rng(42);
  LatencyHistogram all;
  // Three very different nodes: averaging their percentiles would be far off.
  std::vector<RankReport> reports = {WithSamples(0, &rng, 0.002, 0.3, 5000, &all),
                                     WithSamples(1, &rng, 0.020, 0.5, 3000, &all),
                                     WithSamples(2, &rng, 0.200, 0.2, 200, &all)};
  // Through the wire format ranks use.
  for (RankReport& r : reports) {
    std::string error;
    auto back = RankReport::FromJson(nlohmann::json::parse(r.ToJson().dump()), &error);
    REQUIRE(back);
    r = *back;
  }
  ClusterLatency c = MergeLatency(reports);
  REQUIRE(c.ttfb.count() == all.count());
  for (double q : {0.01, 0.5, 0.9, 0.99, 0.999, 1.0})
    CHECK(c.ttfb.PercentileSeconds(q) == all.PercentileSeconds(q));
  CHECK(c.ttfb.counts() == all.counts());
  // The mean of per-node p99s is not the cluster p99: the test would notice averaging.
  double mean_p99 = 0;
  for (const RankReport& r : reports) mean_p99 += r.ttfb.PercentileSeconds(0.99) / 3;
  CHECK(std::abs(mean_p99 - all.PercentileSeconds(0.99)) > 0.01);
  REQUIRE(c.slowest >= 0);
  CHECK(c.nodes[size_t(c.slowest)].rank == 2);
  CHECK(c.nodes[size_t(c.fastest)].rank == 0);
  FactSet f;
  AddLatencyFacts(c, "test", &f);
  CHECK(f.Number("probe.cluster.ttfb_p99_ms").value() == Approx(all.PercentileSeconds(0.99) * 1e3));
  REQUIRE(f.Find("probe.cluster.node_ttfb_p50_ms.1"));
  CHECK(f.Find("probe.cluster.node_ttfb_p50_ms.1")->provenance.rank == 1);
  CHECK(f.Find("probe.cluster.node_ttfb_p50_ms.1")->provenance.host == "node1");
}

TEST_CASE("aggregate is the bytes in the common window over its length") {
  // Rank 1 starts 1 s late and rank 2 ends 1 s early: the common window is [101, 109].
  std::vector<RankReport> reports = {Steady(0, 1.0, 100, 110), Steady(1, 2.0, 101, 111),
                                     Steady(2, 0.5, 100, 109)};
  ClusterThroughput c = MergeThroughput(reports);
  REQUIRE(c.error.empty());
  CHECK(c.window_s == Approx(8.0));
  CHECK(c.aggregate_gbps == Approx(3.5).epsilon(1e-6));
  CHECK(c.nodes.at(1).common_bytes == Approx(8.0 * 2e9 / 8));
  CHECK(c.nodes[size_t(c.slowest)].rank == 2);
  CHECK(c.nodes[size_t(c.fastest)].rank == 1);
  FactSet f;
  AddThroughputFacts(c, "test", &f);
  CHECK(f.Number("probe.cluster.aggregate_gbps").value() == Approx(3.5));
  CHECK(f.Find("probe.cluster.slowest_node_gbps")->provenance.rank == 2);
  CHECK(f.Number("probe.cluster.nodes").value() == 3);
}

TEST_CASE("a rank that sat the step out is not part of it; disjoint windows give no aggregate") {
  std::vector<RankReport> reports = {Steady(0, 1.0, 100, 110), Steady(1, 1.0, 100, 110)};
  reports[1].active = false;
  ClusterThroughput c = MergeThroughput(reports);
  CHECK(c.nodes.size() == 1);
  CHECK(c.aggregate_gbps == Approx(1.0));
  ClusterThroughput d = MergeThroughput({Steady(0, 1.0, 100, 110), Steady(1, 1.0, 120, 130)});
  CHECK(d.window_s == 0);
  CHECK_FALSE(d.error.empty());
  ClusterThroughput e = MergeThroughput({Steady(0, 1.0, 100, 110), RankReport{}});
  CHECK_FALSE(e.error.empty());  // a rank whose probe failed before measuring
}

TEST_CASE("BytesAt interpolates and clamps") {
  std::vector<SeriesPoint> t = {{10, 0}, {11, 100}, {13, 300}};
  CHECK(BytesAt(t, 9) == 0);
  CHECK(BytesAt(t, 10.5) == Approx(50));
  CHECK(BytesAt(t, 12) == Approx(200));
  CHECK(BytesAt(t, 20) == 300);
  CHECK(BytesAt({}, 1) == 0);
}

TEST_CASE("a thinned timeline is bounded and keeps its ends") {
  RankReport r = Steady(0, 1.0, 100, 400);  // 15,000 points
  std::vector<SeriesPoint> thin = ThinTimeline(r.timeline, 2000);
  CHECK(thin.size() <= 2000);
  CHECK(thin.front().x == r.timeline.front().x);
  CHECK(thin.back().x == r.timeline.back().x);
  CHECK(BytesAt(thin, 250) == Approx(BytesAt(r.timeline, 250)).epsilon(1e-3));
  CHECK(ThinTimeline(r.timeline, 1).size() == r.timeline.size());
}

TEST_CASE("ramp knee: the node count after which the aggregate stops growing") {
  CHECK(RampKnee({0.48, 0.95, 0.96}) == 2);
  CHECK(RampKnee({0.48, 0.95, 1.40}) == 3);  // still growing: the last count
  CHECK(RampKnee({1.0, 1.02, 1.5}) == 1);
  CHECK(RampKnee({}) == 0);
  CHECK(PredictRamp(3, 0.5, 1.0) == std::vector<double>{0.5, 1.0, 1.0});
  CHECK(RampKnee(PredictRamp(3, 0.5, 1.0)) == 2);
  CHECK(RampKnee(PredictRamp(8, 24, 120)) == 5);  // five 24 Gbit/s nodes fill 120 Gbit/s
  CHECK(PredictRamp(2, 24, 0) == std::vector<double>{24, 48});
}

TEST_CASE("an unreadable rank report is refused with a reason") {
  std::string error;
  CHECK_FALSE(RankReport::FromJson(nlohmann::json{{"rank", "x"}}, &error));
  CHECK_FALSE(error.empty());
}
