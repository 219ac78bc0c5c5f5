// feedcheck-mpi's Report from ranks' reports, without MPI: the headline "result" values agree
// with the merged figures, every rank is a table row (every step's ranks with --ramp), the
// JSON is the one report shape (schema_version, result, tables, evidence) and reads back as
// `feedcheck report` reads it, and each reporter renders it.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/mpi_cluster_report.h"
#include "app/mpi_cluster_result.h"
#include "reports/report_json.h"
#include "reports/reporter.h"
#include "tests/mpi/steady_rank.h"

using namespace feedcheck;
using nlohmann::json;

namespace {

using feedcheck::testing::Steady;

app::RankProbe Probe() {
  app::RankProbe s;
  s.command = "throughput";
  std::string why;
  REQUIRE(ParseTarget("http://127.0.0.1:9/data/x.bin", {}, &s.env.target, &why));
  s.env.budget.duration_s = 4;
  s.throughput.block_bytes = 4 << 20;
  s.node.nic_gbps = 0.5;
  s.node.nic_from_flag = true;
  s.have_account = true;
  s.account.target.egress_gbps = 1.0;
  s.account.egress_from_flag = true;
  return s;
}

const ResultValue* Find(const Report& r, const std::string& key) {
  for (const ResultValue& v : r.result)
    if (v.key == key) return &v;
  return nullptr;
}

double NumberOf(const Report& r, const std::string& key) {
  const ResultValue* v = Find(r, key);
  REQUIRE(v);
  REQUIRE(std::holds_alternative<double>(v->value));
  return std::get<double>(v->value);
}

const ReportTable* Table(const Report& r, const std::string& title_start) {
  for (const ReportTable& t : r.tables)
    if (t.title.rfind(title_start, 0) == 0) return &t;
  return nullptr;
}

std::string Render(const Report& r, const char* format) {
  std::ostringstream out;
  MakeReporter(format)->Render(r, out);
  return out.str();
}

// Three ranks ramped 1, 2, 3 nodes: 0.48, then 0.95 and 0.96 Gbit/s together.
Report RampReport() {
  app::MpiProbeRequest f;
  f.command = "throughput";
  f.concurrency = 4;
  f.ramp = true;
  app::RankProbe s = Probe();
  std::vector<std::vector<RankReport>> steps = {
      {Steady(0, 0.48, 100, 104)},
      {Steady(0, 0.475, 200, 204), Steady(1, 0.475, 200, 204)},
      {Steady(0, 0.32, 300, 304), Steady(1, 0.31, 300.1, 304), Steady(2, 0.33, 300, 303.9)}};
  std::vector<ClusterThroughput> merged;
  for (const auto& step : steps) merged.push_back(MergeThroughput(step));
  app::ClusterThroughputResult result = app::AssembleThroughput(f, s, 3, merged, steps.back());
  return app::ThroughputClusterReport(f, s, 3, merged, result);
}

}  // namespace

TEST_CASE("throughput: headline values are the merged figures; rows per rank and step") {
  Report r = RampReport();
  const FactSet& facts = r.evidence.facts;
  CHECK(NumberOf(r, "ranks") == 3);
  CHECK(NumberOf(r, "aggregate_gbps") == Approx(*facts.Number("probe.cluster.aggregate_gbps")));
  CHECK(NumberOf(r, "window_s") == Approx(*facts.Number("probe.cluster.window_s")));
  // The common window is [300.1, 303.9]: 3.8 s.
  CHECK(NumberOf(r, "window_s") == Approx(3.8).epsilon(1e-6));
  CHECK(NumberOf(r, "node_gbps_min") == Approx(0.31));
  CHECK(NumberOf(r, "node_gbps_median") == Approx(0.32));
  CHECK(NumberOf(r, "node_gbps_max") == Approx(0.33));
  CHECK(NumberOf(r, "slowest_rank") == 1);
  CHECK(NumberOf(r, "fastest_rank") == 2);
  CHECK(NumberOf(r, "knee_nodes") == 2);
  CHECK(NumberOf(r, "knee_nodes") == *facts.Number("probe.cluster.knee_nodes"));
  CHECK(NumberOf(r, "predicted_knee_nodes") == 2);
  CHECK(NumberOf(r, "predicted_plateau_gbps") == Approx(1.0));
  // 0.95 Gbit/s at two nodes is within 10% of the 1 Gbit/s account.
  CHECK(NumberOf(r, "nodes_to_egress_limit") == 2);

  const ReportTable* nodes = Table(r, "Nodes");
  REQUIRE(nodes);
  REQUIRE(nodes->rows.size() == 3);
  for (size_t k = 0; k < 3; ++k) {
    CHECK(nodes->rows[k][0].value == double(k));
    CHECK(nodes->rows[k][1].text == "node" + std::to_string(k));
  }
  const ReportTable* ramp = Table(r, "Ramp (");
  REQUIRE(ramp);
  CHECK(ramp->rows.size() == 3);
  CHECK(ramp->rows[1][1].value == Approx(0.95).epsilon(0.01));
  const ReportTable* by_rank = Table(r, "Ramp by rank");
  REQUIRE(by_rank);
  CHECK(by_rank->rows.size() == 1 + 2 + 3);
  CHECK_FALSE(by_rank->folded);           // three nodes' six rows fit a screen
  CHECK(by_rank->rows[5][0].value == 3);  // nodes
  CHECK(by_rank->rows[5][1].value == 2);  // rank
  CHECK(by_rank->rows[5][3].value == Approx(0.33));
  CHECK(r.verdict_detail.find("knee: 2 nodes") != std::string::npos);
}

TEST_CASE("throughput: the JSON is the report shape and reads back as feedcheck report does") {
  Report r = RampReport();
  json j = ReportToJson(r);
  CHECK(j.at("schema_version") == kReportSchemaVersion);
  CHECK_FALSE(j.contains("probe"));  // the old evidence shape's objects are gone
  CHECK_FALSE(j.contains("cluster"));
  CHECK(j.at("result").at("aggregate_gbps").get<double>() == Approx(NumberOf(r, "aggregate_gbps")));
  CHECK(j.at("result").at("knee_nodes") == 2);
  REQUIRE(j.at("tables").is_array());
  CHECK(j.at("tables").size() == 3);

  Report back;
  DiagnosticList d;
  REQUIRE(ReportFromJson(json::parse(j.dump()), "cluster.json", &back, &d));
  CHECK(d.total() == 0);
  CHECK(back.tables.size() == r.tables.size());
  REQUIRE(Table(back, "Ramp by rank"));
  CHECK(Table(back, "Ramp by rank")->rows.size() == 6);
  CHECK(back.evidence.facts.Number("probe.cluster.knee_nodes") == 2);
  CHECK(back.evidence.FindSeries("probe.cluster.ramp"));
  std::string md = Render(back, "md");
  CHECK(md.find("Ramp by rank") != std::string::npos);
  CHECK(md.find("node2") != std::string::npos);
  CHECK(Render(back, "term").find("Throughput per node: 0.31 to 0.33 Gbit/s") != std::string::npos);
  CHECK(Render(back, "html").find("node2") != std::string::npos);
}

TEST_CASE("a ramp of six nodes folds its 21 rows by rank on the terminal, not in JSON") {
  app::MpiProbeRequest f;
  f.command = "throughput";
  f.ramp = true;
  app::RankProbe s = Probe();
  std::vector<std::vector<RankReport>> steps;
  std::vector<ClusterThroughput> merged;
  for (int active = 1; active <= 6; ++active) {
    std::vector<RankReport> step;
    for (int k = 0; k < active; ++k)
      step.push_back(Steady(k, 0.4, 100.0 * active, 100.0 * active + 2));
    merged.push_back(MergeThroughput(step));
    steps.push_back(std::move(step));
  }
  app::ClusterThroughputResult result = app::AssembleThroughput(f, s, 6, merged, steps.back());
  Report r = app::ThroughputClusterReport(f, s, 6, merged, result);
  const ReportTable* by_rank = Table(r, "Ramp by rank");
  REQUIRE(by_rank);
  CHECK(by_rank->rows.size() == 21);
  CHECK(by_rank->folded);
  CHECK(Render(r, "term").find("Ramp by rank: 21 rows; -v lists them") != std::string::npos);
  CHECK(ReportToJson(r).at("tables").at(2).at("rows").size() == 21);
}

TEST_CASE("throughput without a common window: no aggregate, the reason, exit 4") {
  app::MpiProbeRequest f;
  f.command = "throughput";
  app::RankProbe s = Probe();
  std::vector<RankReport> step = {Steady(0, 0.5, 100, 101), Steady(1, 0.5, 102, 103)};
  std::vector<ClusterThroughput> merged = {MergeThroughput(step)};
  app::ClusterThroughputResult result = app::AssembleThroughput(f, s, 2, merged, step);
  CHECK(result.exit_status == 4);
  Report r = app::ThroughputClusterReport(f, s, 2, merged, result);
  CHECK_FALSE(Find(r, "aggregate_gbps"));
  REQUIRE(Find(r, "error"));
  CHECK_FALSE(std::get<std::string>(Find(r, "error")->value).empty());
  CHECK_FALSE(Find(r, "knee_nodes"));
}

TEST_CASE("latency: all samples merged; the histogram kept as a series") {
  std::vector<RankReport> reports;
  for (int k = 0; k < 3; ++k) {
    RankReport r;
    r.rank = k;
    r.host = "node" + std::to_string(k);
    r.status = "ok";
    for (int i = 1; i <= 60; ++i) r.ttfb.RecordSeconds(0.001 * (k + 1) * i / 60.0);
    reports.push_back(r);
  }
  app::RankProbe s = Probe();
  s.command = "latency";
  app::ClusterLatencyResult result = app::AssembleLatency(s, 3, reports);
  Report r = app::LatencyClusterReport(s, 3, result);
  CHECK(NumberOf(r, "samples") == 180);
  CHECK(NumberOf(r, "ttfb_p99_ms") ==
        Approx(*r.evidence.facts.Number("probe.cluster.ttfb_p99_ms")));
  CHECK(NumberOf(r, "ttfb_max_ms") == Approx(3.0).epsilon(0.001));
  CHECK(NumberOf(r, "node_ttfb_p50_ms_min") < NumberOf(r, "node_ttfb_p50_ms_max"));
  CHECK(NumberOf(r, "slowest_rank") == 2);
  const Series* h = r.evidence.FindSeries("probe.cluster.ttfb_histogram");
  REQUIRE(h);
  double counted = 0;
  for (const SeriesPoint& p : h->points) counted += p.y;
  CHECK(counted == 180);
  REQUIRE(Table(r, "Nodes"));
  CHECK(Table(r, "Nodes")->rows.size() == 3);
}

TEST_CASE("small files: the pooled fit as result, each node's own fit as a row") {
  std::vector<RankReport> reports;
  for (int k = 0; k < 2; ++k) {
    RankReport r;
    r.rank = k;
    r.host = "node" + std::to_string(k);
    r.status = "ok";
    double overhead_ms = 2.0 + k;
    for (double b : {4096.0, 1048576.0, 16777216.0})
      r.smallfile_ms.push_back({b, overhead_ms + b * 8 / 1e9 * 1e3});
    r.requests = 30;
    r.elapsed_s = 3;
    reports.push_back(r);
  }
  app::RankProbe s = Probe();
  s.command = "smallfiles";
  s.smallfiles.concurrency = 2;
  app::ClusterSmallFilesResult result = app::AssembleSmallFiles(s, 2, reports);
  Report r = app::SmallFilesClusterReport(s, 2, result);
  CHECK(NumberOf(r, "overhead_ms") ==
        Approx(*r.evidence.facts.Number("probe.cluster.smallfile_overhead_ms")));
  CHECK(NumberOf(r, "fit_points") == 6);
  CHECK(NumberOf(r, "requests") == 60);
  CHECK(NumberOf(r, "requests_per_s") == Approx(20));
  CHECK(NumberOf(r, "node_overhead_ms_min") == Approx(2.0).epsilon(1e-6));
  CHECK(NumberOf(r, "node_overhead_ms_max") == Approx(3.0).epsilon(1e-6));
  CHECK(NumberOf(r, "slowest_rank") == 1);
  const ReportTable* nodes = Table(r, "Nodes");
  REQUIRE(nodes);
  REQUIRE(nodes->rows.size() == 2);
  CHECK(nodes->rows[1][2].value == Approx(3.0).epsilon(1e-6));  // overhead_ms
  CHECK(nodes->rows[1][7].value == 3);                          // sizes
}

TEST_CASE("nodes to the egress limit: the first step within 10% of it, else none") {
  CHECK(app::NodesToEgressLimit({0.5, 0.95, 0.96}, 1.0) == 2);
  CHECK(app::NodesToEgressLimit({0.5, 0.85, 0.89}, 1.0) == 0);
  CHECK(app::NodesToEgressLimit({0.5, 0.95}, 0) == 0);
}
