#include "analyzers/gpu_identity.h"

#include <fmt/format.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "analyzers/analyze_paths.h"
#include "analyzers/gpu_util.h"
#include "core/diagnostic_codes.h"
#include "test_util.h"

using namespace feedcheck;
using namespace feedcheck::analyzers;
using namespace feedcheck::analyzers::test;

namespace {

constexpr double kStart = 1714557600;  // 2024-05-01T10:00:00Z

// The busy pattern both sources see: idle for `idle_min` minutes, then busy.
double UtilAt(double t, int idle_min) { return t < kStart + idle_min * 60 ? 2 : 91; }

// An nvidia-smi CSV of `gpus` GPUs sampled every `every_s` seconds for `minutes`.
std::string SmiCsv(int gpus, int minutes, int every_s, int idle_min) {
  std::string out = "timestamp, index, utilization.gpu [%]\n";
  for (int s = 0; s < minutes * 60; s += every_s)
    for (int g = 0; g < gpus; ++g)
      out += fmt::format("2024/05/01 10:{:02}:{:02}.000, {}, {} %\n", s / 60, s % 60, g,
                         UtilAt(kStart + s, idle_min));
  return out;
}

// Azure ML's GpuUtilization points of `node`: one a minute from `from_min` to `to_min`.
void AddMetric(std::vector<GpuMetricPoint>* out, const std::string& node, int gpus, int from_min,
               int to_min, int idle_min) {
  for (int m = from_min; m < to_min; ++m)
    for (int g = 0; g < gpus; ++g) {
      GpuMetricPoint p;
      p.node = node;
      p.device = std::to_string(g);
      p.epoch_s = kStart + m * 60;
      p.util_percent = UtilAt(p.epoch_s, idle_min);
      p.interval_s = 60;
      p.file = "metrics/workspace-gpu.json";
      out->push_back(p);
    }
}

void Feed(GpuUtilAnalyzer& a, const std::string& node, const std::string& csv) {
  a.SetNextFile(GpuFileFormat::kNvidiaSmiCsv, node);
  LineReader r = LineReader::FromBuffer(csv);
  std::string error;
  FeedLines(r, node.empty() ? "nvidia-smi.csv" : "nvidia-smi-" + node + ".csv", a, &error);
}

size_t CountCode(const Evidence& ev, const char* code, DiagnosticSeverity severity) {
  size_t n = 0;
  for (const auto& d : ev.diagnostics.kept())
    if (d.code == code && d.severity == severity) ++n;
  return n;
}

}  // namespace

TEST_CASE("GPU keys: node and index (or UUID) are the identity", "[analyzers][gpu]") {
  CHECK(ParseGpuKey("gpu3").node.empty());
  CHECK(ParseGpuKey("gpu3").device == "3");
  CHECK(ParseGpuKey("tvmps_a_d/gpu07").device == "7");
  CHECK(ParseGpuKey("tvmps_a_d/gpu07").node == "tvmps_a_d");
  CHECK(ParseGpuKey("n/gpuGPU-1a2b").device == "GPU-1a2b");
  CHECK_FALSE(ParseGpuKey("n/gpuGPU-1a2b").indexed());
  CHECK(ParseGpuKey("n/gpu0i1").device == "0i1");
  const std::string key = GENERATE(as<std::string>{}, "gpu0", "node-1/gpu12", "h/gpuGPU-ff");
  CHECK(GpuKey(ParseGpuKey(key)) == key);
}

TEST_CASE("metric nodes pair with the files' nodes only when certain", "[analyzers][gpu]") {
  SECTION("one unnamed node and one metric node: the same") {
    auto p = PairMetricNodes({""}, {"tvmps_a_d"});
    CHECK(p.same_node.at("tvmps_a_d").empty());
    CHECK(p.set_aside.empty());
  }
  SECTION("the same names pair; a node only the metric shows is its own") {
    auto p = PairMetricNodes({"tvmps_a_d"}, {"tvmps_a_d", "tvmps_b_d"});
    CHECK(p.same_node.at("tvmps_a_d") == "tvmps_a_d");
    CHECK(p.metric_only.count("tvmps_b_d") == 1);
  }
  SECTION("several under other names: set aside, never added") {
    auto p = PairMetricNodes({"node-0", "node-1"}, {"tvmps_a_d", "tvmps_b_d"});
    CHECK(p.same_node.empty());
    CHECK(p.set_aside.size() == 2);
  }
  SECTION("no files: every metric node is counted") {
    auto p = PairMetricNodes({}, {"a", "b"});
    CHECK(p.metric_only.size() == 2);
  }
}

TEST_CASE("one node's nvidia-smi CSV and the workspace metric: each GPU counted once",
          "[analyzers][gpu]") {
  const int gpus = GENERATE(1, 4, 8);
  const int idle_min = GENERATE(0, 10, 25);
  const int every_s = GENERATE(5, 30);
  const std::string csv = SmiCsv(gpus, 30, every_s, idle_min);

  GpuUtilAnalyzer alone;
  Feed(alone, "", csv);
  Evidence files_only;
  alone.Finish(&files_only);

  GpuUtilAnalyzer both;
  Feed(both, "", csv);
  std::vector<GpuMetricPoint> metric;
  AddMetric(&metric, "tvmps_0f2c_d", gpus, 0, 30, idle_min);
  both.AddMetricSamples(metric);
  Evidence merged;
  both.Finish(&merged);

  CHECK(Num(merged, "gpu.count") == gpus);
  CHECK(Num(merged, "gpu.lost_gpu_s") == Approx(Num(files_only, "gpu.lost_gpu_s")));
  CHECK(Num(merged, "gpu.sampled_gpu_s") == Approx(Num(files_only, "gpu.sampled_gpu_s")));
  CHECK(CountCode(merged, codes::kGpuSourcesMerged, DiagnosticSeverity::kNote) == 1);
}

TEST_CASE("the metric fills only the time the files do not cover", "[analyzers][gpu]") {
  const int gpus = GENERATE(2, 8);
  const int extra_min = GENERATE(1, 5, 10);
  GpuUtilAnalyzer a;
  Feed(a, "tvmps_a_d", SmiCsv(gpus, 20, 10, 100));  // 20 minutes, idle throughout
  std::vector<GpuMetricPoint> metric;
  AddMetric(&metric, "tvmps_a_d", gpus, 0, 20 + extra_min, 100);
  a.AddMetricSamples(metric);
  Evidence ev;
  a.Finish(&ev);
  CHECK(Num(ev, "gpu.count") == gpus);
  // The files' 20 minutes and the metric's minutes after them, each GPU once.
  CHECK(Num(ev, "gpu.sampled_gpu_s") == Approx(gpus * (20 + extra_min) * 60.0));
}

TEST_CASE("several nodes: same names merge, other names are set aside, new nodes count",
          "[analyzers][gpu]") {
  const int gpus = GENERATE(4, 8);
  const std::string csv = SmiCsv(gpus, 10, 10, 5);
  SECTION("named as the metric names them") {
    GpuUtilAnalyzer a;
    Feed(a, "tvmps_a_d", csv);
    Feed(a, "tvmps_b_d", csv);
    std::vector<GpuMetricPoint> metric;
    AddMetric(&metric, "tvmps_a_d", gpus, 0, 10, 5);
    AddMetric(&metric, "tvmps_b_d", gpus, 0, 10, 5);
    a.AddMetricSamples(metric);
    Evidence ev;
    a.Finish(&ev);
    CHECK(Num(ev, "gpu.count") == 2 * gpus);
    CHECK(CountCode(ev, codes::kGpuSourcesMerged, DiagnosticSeverity::kWarning) == 0);
  }
  SECTION("named otherwise: the metric set aside, with a warning") {
    GpuUtilAnalyzer a;
    Feed(a, "node-0", csv);
    Feed(a, "node-1", csv);
    std::vector<GpuMetricPoint> metric;
    AddMetric(&metric, "tvmps_a_d", gpus, 0, 10, 5);
    AddMetric(&metric, "tvmps_b_d", gpus, 0, 10, 5);
    a.AddMetricSamples(metric);
    Evidence ev;
    a.Finish(&ev);
    CHECK(Num(ev, "gpu.count") == 2 * gpus);
    CHECK(CountCode(ev, codes::kGpuSourcesMerged, DiagnosticSeverity::kWarning) == 1);
  }
  SECTION("a node only the metric shows adds its GPUs") {
    GpuUtilAnalyzer a;
    Feed(a, "tvmps_a_d", csv);
    std::vector<GpuMetricPoint> metric;
    AddMetric(&metric, "tvmps_a_d", gpus, 0, 10, 5);
    AddMetric(&metric, "tvmps_b_d", gpus, 0, 10, 5);
    a.AddMetricSamples(metric);
    Evidence ev;
    a.Finish(&ev);
    CHECK(Num(ev, "gpu.count") == 2 * gpus);
  }
}

// The REST body of Azure ML's GpuUtilization for one node: each GPU's minute averages of the
// same pattern the CSV samples.
std::string WorkspaceMetric(const std::string& node, int gpus, int minutes, int idle_min) {
  nlohmann::json series = nlohmann::json::array();
  for (int g = 0; g < gpus; ++g) {
    nlohmann::json data = nlohmann::json::array();
    for (int m = 0; m < minutes; ++m)
      data.push_back({{"timeStamp", fmt::format("2024-05-01T10:{:02}:00Z", m)},
                      {"average", UtilAt(kStart + m * 60, idle_min)}});
    series.push_back(
        {{"metadatavalues",
          {{{"name", {{"value", "nodeid"}, {"localizedValue", "NodeId"}}}, {"value", node}},
           {{"name", {{"value", "deviceid"}, {"localizedValue", "DeviceId"}}},
            {"value", std::to_string(g)}}}},
         {"data", data}});
  }
  nlohmann::json body = {
      {"cost", 0},
      {"timespan", "2024-05-01T10:00:00Z/2024-05-01T11:00:00Z"},
      {"interval", "PT1M"},
      {"namespace", "Microsoft.MachineLearningServices/workspaces"},
      {"resourceregion", "eastus"},
      {"value",
       {{{"id",
          "/subscriptions/0000/resourceGroups/rg/providers/"
          "Microsoft.MachineLearningServices/workspaces/ws/providers/Microsoft.Insights/"
          "metrics/GpuUtilization"},
         {"type", "Microsoft.Insights/metrics"},
         {"name", {{"value", "GpuUtilization"}, {"localizedValue", "GpuUtilization"}}},
         {"unit", "Count"},
         {"errorCode", "Success"},
         {"timeseries", series}}}}};
  return body.dump(1);
}

TEST_CASE("a one-node job folder with its nvidia-smi CSV and the workspace metric: 8 GPUs once",
          "[analyzers][gpu]") {
  namespace fs = std::filesystem;
  const int idle_min = GENERATE(5, 20);
  const fs::path root = fs::temp_directory_path() /
                        ("feedcheck-gpu-identity-" + std::to_string(getpid())) /
                        std::to_string(idle_min);
  fs::remove_all(root);
  fs::create_directories(root / "csv-only/gpu");
  fs::create_directories(root / "both/gpu");
  fs::create_directories(root / "both/metrics");
  const std::string csv = SmiCsv(8, 30, 5, idle_min);
  std::ofstream(root / "csv-only/gpu/nvidia-smi.csv") << csv;
  std::ofstream(root / "both/gpu/nvidia-smi.csv") << csv;
  std::ofstream(root / "both/metrics/workspace-gpu.json")
      << WorkspaceMetric("tvmps_0f2c9a77e1_d", 8, 30, idle_min);
  AnalyzeRequest only, both;
  only.paths = {(root / "csv-only").string()};
  both.paths = {(root / "both").string()};
  AnalysisResult a = AnalyzePaths(only), b = AnalyzePaths(both);
  CHECK(Num(b.evidence, "gpu.count") == 8);
  CHECK(Num(b.evidence, "gpu.lost_gpu_s") == Approx(Num(a.evidence, "gpu.lost_gpu_s")));
  CHECK(Num(b.evidence, "gpu.lost_gpu_s") == Approx(8 * idle_min * 60.0).epsilon(0.02));
  CHECK(CountCode(b.evidence, codes::kGpuSourcesMerged, DiagnosticSeverity::kNote) == 1);
  fs::remove_all(root);
}

TEST_CASE("a split metric of exactly the default top (10 series) is a warning, never silent",
          "[analyzers][gpu]") {
  namespace fs = std::filesystem;
  const int series = GENERATE(8, 9, 10, 11, 16);
  const fs::path root = fs::temp_directory_path() /
                        ("feedcheck-gpu-cap-" + std::to_string(getpid())) / std::to_string(series);
  fs::remove_all(root);
  fs::create_directories(root / "metrics");
  std::ofstream(root / "metrics/workspace-gpu.json")
      << WorkspaceMetric("tvmps_0f2c9a77e1_d", series, 10, 5);
  AnalyzeRequest req;
  req.paths = {root.string()};
  AnalysisResult r = AnalyzePaths(req);
  CHECK(Num(r.evidence, "gpu.count") == series);
  CHECK(CountCode(r.evidence, codes::kMetricsSeriesAtCap, DiagnosticSeverity::kWarning) ==
        (series == 10 ? 1u : 0u));
  fs::remove_all(root);
}
