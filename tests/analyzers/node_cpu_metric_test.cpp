// Azure ML's workspace CPU metric (CpuUtilization) in the two forms the post-mortem reads: the
// REST "Metrics - List" response and `az monitor metrics list -o json`, per NodeId. Values that
// are not a utilisation are diagnostics naming the file and the field, never a crash.
#include "analyzers/node_cpu_metric.h"

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "analyzers/azure_monitor_metrics.h"
#include "analyzers/text_util.h"
#include "core/diagnostic_codes.h"
#include "tests/analyzers/test_util.h"

using namespace feedcheck;
using namespace feedcheck::analyzers;

namespace {

// One node's series in the REST form (name.value, ISO 8601 interval, only the asked aggregation)
// or az's (name with localizedValue, H:MM:SS interval, every aggregation printed, null for none).
std::string NodeSeries(bool az, const std::string& node, const std::vector<std::string>& values) {
  std::string data;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) data += ",";
    if (az)
      data += fmt::format(R"({{"average": {}, "count": null, "maximum": null, "minimum": null, )"
                          R"("timeStamp": "2026-11-28T20:{:02d}:00+00:00", "total": null}})",
                          values[i], i);
    else
      data += fmt::format(R"({{"timeStamp": "2026-11-28T20:{:02d}:00Z", "average": {}}})", i,
                          values[i]);
  }
  std::string dim = az ? R"({"name": {"localizedValue": "nodeid", "value": "nodeid"}, )"
                       : R"({"name": {"value": "NodeId", "localizedValue": "NodeId"}, )";
  return fmt::format(R"({{"metadatavalues": [{}"value": "{}"}}], "data": [{}]}})", dim, node, data);
}

std::string Document(bool az, const std::string& metric, const std::vector<std::string>& series) {
  std::string name =
      az ? fmt::format(R"({{"localizedValue": "CPU Utilization", "value": "{}"}})", metric)
         : fmt::format(R"({{"value": "{}", "localizedValue": "{}"}})", metric, metric);
  return fmt::format(
      R"({{"cost": 0, "interval": "{}", "namespace": "Microsoft.MachineLearningServices/workspaces",)"
      R"( "value": [{{"id": "/subscriptions/s/resourceGroups/g/providers/Microsoft.MachineLearningServices/workspaces/w/providers/Microsoft.Insights/metrics/{}",)"
      R"( "name": {}, "unit": "{}", "timeseries": [{}]}}]}})",
      az ? "0:01:00" : "PT1M", metric, name, az ? "Count" : "Percent", fmt::join(series, ","));
}

std::vector<std::string> Texts(const std::vector<double>& v) {
  std::vector<std::string> out;
  for (double x : v) out.push_back(fmt::format("{}", x));
  return out;
}

double Mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

}  // namespace

TEST_CASE("CPU metric: both forms give each node's mean and the nodes' together",
          "[analyzers][metrics][cpu]") {
  const bool az = GENERATE(false, true);
  const char* metric = GENERATE("CpuUtilization", "CpuUtilizationPercentage", "cpuutilization");
  std::mt19937 rng(static_cast<unsigned>(Catch::rngSeed()) + (az ? 1 : 0));
  std::uniform_real_distribution<double> pct(0, 100);
  std::vector<double> a, b;
  for (int i = 0; i < 7; ++i) a.push_back(std::round(pct(rng) * 100) / 100);
  for (int i = 0; i < 4; ++i) b.push_back(std::round(pct(rng) * 100) / 100);
  const std::string doc = Document(
      az, metric, {NodeSeries(az, "tvmps_0a_d", Texts(a)), NodeSeries(az, "tvmps_1b_d", Texts(b))});
  CAPTURE(az, metric, doc);
  StorageMetrics storage;
  DiagnosticList diags;
  std::vector<CpuMetricPoint> points;
  REQUIRE(
      ParseAzureMonitorJson(doc, "cpu.json", &storage, &diags, nullptr, nullptr, nullptr, &points));
  CHECK(diags.total() == 0);
  REQUIRE(points.size() == a.size() + b.size());
  CHECK(points.front().node == "tvmps_0a_d");
  CHECK(points.front().interval_s == 60);
  CHECK(points[1].epoch_s - points[0].epoch_s == 60);
  Evidence ev;
  AddNodeCpuFacts(points, &ev);
  CHECK(test::Num(ev, "cpu.node_util_mean." + KeySegment("tvmps_0a_d")) == Approx(Mean(a)));
  CHECK(test::Num(ev, "cpu.node_util_mean." + KeySegment("tvmps_1b_d")) == Approx(Mean(b)));
  std::vector<double> all = a;
  all.insert(all.end(), b.begin(), b.end());
  CHECK(test::Num(ev, "cpu.util_mean") == Approx(Mean(all)));
  CHECK(test::Num(ev, "cpu.samples") == static_cast<double>(all.size()));
  const Fact* f = ev.facts.Find("cpu.util_mean");
  REQUIRE(f);
  CHECK(f->unit == Unit::kPercent);
  CHECK(f->provenance.file == "cpu.json");
  // The CPU metric is not the GPU's, nor a storage metric.
  CHECK(storage.empty());
}

TEST_CASE("CPU metric: through the analyzer, an unsplit series is its folder's node",
          "[analyzers][metrics][cpu]") {
  const double value = GENERATE(3.0, 50.0, 97.5, 100.0);
  const std::string doc =
      fmt::format(R"({{"interval": "PT1M", "value": [{{"name": {{"value": "CpuUtilization"}},)"
                  R"( "timeseries": [{{"metadatavalues": [], "data": [)"
                  R"({{"timeStamp": "2026-11-28T20:00:00Z", "average": {}}},)"
                  R"({{"timeStamp": "2026-11-28T20:01:00Z"}}]}}]}}]}})",
                  value);
  AzureMonitorMetricsAnalyzer a;
  a.SetNode("node-2");
  Evidence ev = test::Run(a, doc, "node-2/metrics/cpu.json");
  CHECK(test::Num(ev, "cpu.node_util_mean.node-2") == Approx(value));
  CHECK(test::Num(ev, "cpu.util_mean") == Approx(value));
  CHECK(test::Num(ev, "cpu.samples") == 1);  // the bucket without an average is no data
  CHECK(a.cpu_points().size() == 1);
}

TEST_CASE("CPU metric: a value that is not a utilisation names the file and the field",
          "[analyzers][metrics][cpu]") {
  const bool az = GENERATE(false, true);
  const std::string bad =
      GENERATE(as<std::string>{}, R"("high")", "-5", "250", "true", R"({"v": 1})", "[1]", "1e308");
  const std::string doc =
      Document(az, "CpuUtilization", {NodeSeries(az, "tvmps_0a_d", {"40", bad, "60"})});
  CAPTURE(az, bad);
  StorageMetrics storage;
  DiagnosticList diags;
  std::vector<CpuMetricPoint> points;
  REQUIRE(ParseAzureMonitorJson(doc, "metrics/cpu.json", &storage, &diags, nullptr, nullptr,
                                nullptr, &points));
  // The bad point is left out, said once at its path; its neighbours are kept.
  REQUIRE(points.size() == 2);
  CHECK(points[0].util_percent == 40);
  CHECK(points[1].util_percent == 60);
  REQUIRE(diags.total() == 1);
  const Diagnostic& d = diags.kept().front();
  CHECK(d.code == codes::kMetricsField);
  CHECK(d.location.file == "metrics/cpu.json");
  CHECK(d.context == "/value/0/timeseries/0/data/1/average");
  CHECK(d.message.find("CpuUtilization") != std::string::npos);
}

TEST_CASE("CPU metric: a bad timeStamp is said at its point, the rest kept",
          "[analyzers][metrics][cpu]") {
  std::string doc = Document(false, "CpuUtilization", {NodeSeries(false, "n", {"10", "20", "30"})});
  const std::string stamp = "2026-11-28T20:01:00Z";
  doc.replace(doc.find(stamp), stamp.size(), "yesterday");
  StorageMetrics storage;
  DiagnosticList diags;
  std::vector<CpuMetricPoint> points;
  REQUIRE(
      ParseAzureMonitorJson(doc, "cpu.json", &storage, &diags, nullptr, nullptr, nullptr, &points));
  CHECK(points.size() == 2);
  REQUIRE(diags.total() == 1);
  CHECK(diags.kept().front().message.find("yesterday") != std::string::npos);
  CHECK(diags.kept().front().context == "/value/0/timeseries/0/data/1");
}

TEST_CASE("CPU metric: cut or scrambled documents never crash and keep memory bounded",
          "[analyzers][metrics][cpu]") {
  const std::string doc = Document(
      true, "CpuUtilization", {NodeSeries(true, "a", {"10", "20"}), NodeSeries(true, "b", {"99"})});
  std::mt19937 rng(static_cast<unsigned>(Catch::rngSeed()));
  for (int round = 0; round < 300; ++round) {
    std::string s = doc;
    if (round % 2 == 0) {
      s.resize(rng() % s.size());  // cut short
    } else {
      for (int k = 0; k < 4; ++k) s[rng() % s.size()] = static_cast<char>(rng() % 256);
    }
    StorageMetrics storage;
    DiagnosticList diags;
    std::vector<CpuMetricPoint> points;
    const bool ok =
        ParseAzureMonitorJson(s, "cpu.json", &storage, &diags, nullptr, nullptr, nullptr, &points);
    // Whatever was read is a utilisation; what was not is said.
    for (const auto& p : points) CHECK((p.util_percent >= 0 && p.util_percent <= 100));
    if (!ok) CHECK(diags.total() > 0);
    CHECK(points.size() <= 3);
  }
}

TEST_CASE("CPU metric: the value as a utilisation", "[analyzers][metrics][cpu]") {
  std::string why;
  CHECK(CpuPercentOf(0, &why) == 0.0);
  CHECK(CpuPercentOf(85, &why) == 85.0);
  CHECK(CpuPercentOf(100.3, &why) == 100.0);  // the metric's rounding
  CHECK_FALSE(CpuPercentOf(-0.1, &why));
  CHECK(why.find("-0.1") != std::string::npos);
  CHECK_FALSE(CpuPercentOf(101, &why));
  CHECK_FALSE(CpuPercentOf(std::nan(""), &why));
  CHECK(IsCpuMetricName("CPUUTILIZATION"));
  CHECK_FALSE(IsCpuMetricName("CpuUtilizationMillicores"));  // needs the capacity to be a share
  CHECK_FALSE(IsCpuMetricName("GpuUtilization"));
}

TEST_CASE("CPU metric: each named node's minutes become its series, in time order",
          "[analyzers][metrics][cpu]") {
  // Points as two files would give them: out of order, one node's minutes interleaved with the
  // other's, and one point with no node (a folder that named none), which joins no series.
  std::mt19937 rng(GENERATE(1u, 7u, 42u));
  std::uniform_real_distribution<double> util(0, 100);
  const double t0 = 1'790'000'000;
  std::vector<CpuMetricPoint> points;
  std::vector<double> a(30), b(30);
  for (size_t i = 0; i < a.size(); ++i) {
    a[i] = util(rng);
    b[i] = util(rng);
  }
  for (size_t i = a.size(); i-- > 0;) {
    points.push_back({"node-0", t0 + 60.0 * static_cast<double>(i), a[i], 60, "cpu.json"});
    points.push_back({"node-1", t0 + 60.0 * static_cast<double>(i), b[i], 60, "cpu.json"});
  }
  points.push_back({"", t0, 50, 60, "cpu.json"});
  Evidence ev;
  AddNodeCpuFacts(points, &ev);
  for (const auto& [node, values] : {std::pair{"node-0", a}, std::pair{"node-1", b}}) {
    const Series* s = ev.FindSeries("cpu.util_percent", node);
    REQUIRE(s);
    CHECK(s->y_unit == Unit::kPercent);
    REQUIRE(s->points.size() == values.size());
    for (size_t i = 0; i < values.size(); ++i) {
      CHECK(s->points[i].x == t0 + 60.0 * static_cast<double>(i));  // the minute's start
      CHECK(s->points[i].y == Approx(values[i]));
    }
  }
  size_t series = 0;
  for (const auto& s : ev.series) series += s.key == "cpu.util_percent";
  CHECK(series == 2);
}

TEST_CASE("CPU metric: a node's series stays bounded however long the metric runs",
          "[analyzers][metrics][cpu]") {
  // Five weeks of minutes: the series merges neighbours and keeps each bucket's mean.
  std::vector<CpuMetricPoint> points;
  const size_t minutes = 5 * 7 * 24 * 60;
  for (size_t i = 0; i < minutes; ++i)
    points.push_back({"node-0", 60.0 * static_cast<double>(i), i % 2 ? 90.0 : 10.0, 60, "c.json"});
  Evidence ev;
  AddNodeCpuFacts(points, &ev);
  const Series* s = ev.FindSeries("cpu.util_percent", "node-0");
  REQUIRE(s);
  CHECK(s->points.size() <= 4096);
  CHECK(s->points.size() >= 1024);
  for (const auto& p : s->points) CHECK(p.y == Approx(50));
}
