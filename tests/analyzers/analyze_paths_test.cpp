#include "analyzers/analyze_paths.h"

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "analyzers/correlation.h"
#include "test_util.h"

using namespace feedcheck;
using namespace feedcheck::analyzers;
using namespace feedcheck::analyzers::test;

namespace {
std::string DemoJob() { return DataDir() + "/joblogs/job-demo"; }
}  // namespace

TEST_CASE("the demo job folder tells its story", "[analyzers][paths]") {
  AnalyzeRequest req;
  req.paths = {DemoJob()};
  AnalysisResult r = AnalyzePaths(req);
  REQUIRE(r.anything_read);
  CHECK(r.sources.size() == 4);
  const Evidence& ev = r.evidence;
  // data-capability.log wins the mode, the download took 892.41 s
  CHECK(*ev.facts.Text("runtime.mode") == "download");
  CHECK(ev.facts.Find("runtime.mode")->provenance.file.find("data-capability.log") !=
        std::string::npos);
  CHECK(Num(ev, "runtime.download_s") == Approx(892.41021));
  CHECK(Num(ev, "runtime.parallelization_degree") == 4);
  CHECK(Num(ev, "runtime.http_errors.503") > 100);
  CHECK(*ev.facts.Text("runtime.setting.AZUREML_DATASET_HTTP_RETRY_COUNT") == "10");
  // the account was at its 200 Gbit/s limit and throttled during the download
  CHECK(Num(ev, "metrics.egress_gbps_peak") > 199);
  CHECK(Num(ev, "metrics.throttled.ClientAccountBandwidthThrottlingError") > 0);
  // the log's 503s are the runtime's multi-line events: read whole, naming no limit
  CHECK(Num(ev, "runtime.throttled.server_busy") == 368);
  CHECK_FALSE(ev.facts.Has("runtime.throttled.egress"));
  // GPUs of both nodes idle during the download, busy after
  CHECK(Num(ev, "gpu.count") == 8);
  CHECK(Num(ev, "gpu.util_during_download") < 1);
  CHECK(Num(ev, "gpu.util_after_download") > 80);
  CHECK(Num(ev, "gpu.first_busy_s") > 892);
  CHECK(Num(ev, "gpu.first_busy_s") < 960);
  // the rotated files were read oldest first
  const SourceStats* rslex = nullptr;
  for (const auto& s : r.sources)
    if (s.format == "rslex") rslex = &s;
  REQUIRE(rslex);
  REQUIRE(rslex->files.size() == 2);
  CHECK(rslex->files[0].find("rslex.log.2024-05-01-09") != std::string::npos);
  CHECK(rslex->malformed == 0);  // not one continuation line is malformed
  // one joined timeline, sorted, with every lane: the reads lane from the rslex spans closed
  std::set<std::string> lanes;
  for (const auto& iv : ev.timeline) lanes.insert(iv.lane);
  CHECK(lanes == std::set<std::string>({"data-runtime", "gpu", "reads", "storage"}));
  CHECK(std::is_sorted(ev.timeline.begin(), ev.timeline.end(), [](const auto& a, const auto& b) {
    return a.start_epoch_s < b.start_epoch_s;
  }));
  REQUIRE(ev.FindSeries("gpu.util"));
  REQUIRE(ev.FindSeries("metrics.egress_gbps"));
  REQUIRE(ev.FindSeries("metrics.requests_per_s"));
  REQUIRE(ev.FindSeries("metrics.throttled_per_s"));
}

TEST_CASE("nothing readable: missing paths and unknown files are listed", "[analyzers][paths]") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "feedcheck_paths_unknown";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "notes.txt") << "hello world\nnothing to see\n";
  AnalyzeRequest req;
  req.paths = {(dir / "notes.txt").string(), "/nonexistent/feedcheck"};
  AnalysisResult r = AnalyzePaths(req);
  CHECK_FALSE(r.anything_read);
  CHECK(r.skipped.size() == 2);
  CHECK(r.evidence.diagnostics.total() == 1);  // the explicit unknown file gets a warning
  // --format forces it: now it is read as an rslex log, every line malformed
  req.forced_format = InputFormat::kRslex;
  req.paths = {(dir / "notes.txt").string()};
  r = AnalyzePaths(req);
  CHECK(r.anything_read);
  REQUIRE(r.sources.size() == 1);
  CHECK(r.sources[0].malformed == 2);
  fs::remove_all(dir);
}

TEST_CASE("format detection by content", "[analyzers][detect]") {
  CHECK(DetectFormat("2023-05-18T14:08:25.388670Z  INFO rslex::x: close\n", "whatever") ==
        InputFormat::kRslex);
  CHECK(DetectFormat("INFO 2023-05-18 17:14:47,790 sdk_logger.py:44 [28] - ActivityStarted, "
                     "download\n",
                     "x.log") == InputFormat::kDataCapability);
  CHECK(DetectFormat("{\"value\": [{\"name\": {\"value\": \"Egress\"}, \"timeseries\": []}]}",
                     "m.json") == InputFormat::kAzureMonitorJson);
  CHECK(DetectFormat("{\"time\":\"x\",\"operationName\":\"GetBlob\",\"durationMs\":3}\n", "a") ==
        InputFormat::kStorageBlobLogs);
  CHECK(DetectFormat("TimeGenerated,OperationName,DurationMs,ServerLatencyMs\n", "a.csv") ==
        InputFormat::kStorageBlobLogs);
  CHECK(DetectFormat("timestamp, index, utilization.gpu [%]\n", "g.csv") ==
        InputFormat::kNvidiaSmiCsv);
  CHECK(DetectFormat("2024/03/15 13:57:59.791, 0, 87 %\n2024/03/15 13:58:00.791, 0, 88 %\n", "g") ==
        InputFormat::kNvidiaSmiCsv);
  CHECK(DetectFormat("# HELP DCGM_FI_DEV_GPU_UTIL x\nDCGM_FI_DEV_GPU_UTIL{gpu=\"0\"} 1\n", "d") ==
        InputFormat::kDcgmText);
  // nvidia-smi dmon, with and without -o DT
  CHECK(DetectFormat("#Date       Time        gpu   pwr gtemp mtemp    sm   mem\n"
                     "#YYYYMMDD   HH:MM:SS    Idx     W     C     C     %     %\n"
                     " 20210102   19:12:31      0    37    19     -     0     0\n",
                     "gpu.log") == InputFormat::kNvidiaSmiCsv);
  CHECK(
      DetectFormat("# gpu    sm   mem   enc   dec\n# Idx     %     %     %     %\n    0    87    45"
                   "     0     0\n",
                   "dmon.txt") == InputFormat::kNvidiaSmiCsv);
  CHECK(DetectFormat("# gpus smart\n", "x") == InputFormat::kUnknown);
  CHECK(DetectFormat("Time,Egress (Sum)\n2024-05-01T10:00:00Z,1\n", "m.csv") ==
        InputFormat::kMetricsCsv);
  CHECK(DetectFormat("", "rslex.log.2024-05-01-09") == InputFormat::kRslex);
  CHECK(DetectFormat("", "x") == InputFormat::kUnknown);
  CHECK(DetectFormat(std::string("\x7f"
                                 "ELF\x02\x01\x01\0\0\0",
                                 10),
                     "a.out") == InputFormat::kUnknown);
  CHECK(*FormatFromName("nvidia-smi") == InputFormat::kNvidiaSmiCsv);
  CHECK_FALSE(FormatFromName("nope"));
}

TEST_CASE("correlation: GPU utilisation inside and after download windows",
          "[analyzers][correlation]") {
  Evidence ev;
  ev.timeline.push_back({"data-runtime", "download", 100, 200, "Success", "dc.log:3"});
  Series gpu{"gpu.util", "", "", Unit::kSeconds, "", Unit::kPercent, {}};
  for (int t = 50; t <= 300; t += 10) gpu.points.push_back({double(t), t < 210 ? 5.0 : 95.0});
  ev.series.push_back(gpu);
  CorrelationInputs in;
  in.first_gpu_sample_epoch_s = 50;
  in.first_gpu_busy_epoch_s = 210;
  auto keys = Correlate(in, &ev);
  CHECK(Num(ev, "gpu.util_during_download") == Approx(5));
  CHECK(Num(ev, "gpu.util_after_download") == Approx(95));
  CHECK(Num(ev, "gpu.first_busy_s") == Approx(160));  // from the first GPU sample (50 < 100)
  CHECK(std::find(keys.begin(), keys.end(), "gpu.first_busy_s") != keys.end());
  CHECK(*MeanWithin(gpu, 0, 60) == Approx(5));
  CHECK_FALSE(MeanWithin(gpu, 1000, 2000));
}

TEST_CASE("feedcheck analyze: summary, --json and exit codes", "[analyzers][cli]") {
  std::string bin = std::string(FEEDCHECK_BINARY_DIR) + "/feedcheck";
  std::string out = std::string(FEEDCHECK_BINARY_DIR) + "/analyze_cli_test.out";
  auto run = [&](const std::string& args) {
    int status = std::system((bin + " " + args + " >" + out + " 2>&1").c_str());
    std::ifstream in(out);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return std::make_pair(WEXITSTATUS(status), text);
  };
  auto [code, text] = run("analyze " + DemoJob());
  CHECK(code == 0);
  CHECK(text.find("Sources") != std::string::npos);  // the table of what each analyzer read
  // Named from the folder given, so a long checkout path does not push it past the width.
  CHECK(text.find("rslex: system_logs/data_capability/rslex.log.2024-05-01-09") !=
        std::string::npos);
  CHECK(text.find("warning[A201]") == std::string::npos);  // real-form logs read whole
  CHECK(text.find("gpu.util_during_download") != std::string::npos);
  auto [jcode, json] = run("--json analyze " + DemoJob());
  CHECK(jcode == 0);
  CHECK(json.find("\"schema_version\"") != std::string::npos);
  CHECK(json.find("\"kind\": \"feedcheck-report\"") != std::string::npos);
  CHECK(json.find("\"runtime.download_s\"") != std::string::npos);
  auto [missing, _] = run("analyze /nonexistent/feedcheck");
  CHECK(missing == 3);
  auto [usage, __] = run("analyze --format nope " + DemoJob());
  CHECK(usage == 2);
  std::remove(out.c_str());
}

TEST_CASE("rotated data-capability.log files: folder by folder, oldest first",
          "[analyzers][paths]") {
  namespace fs = std::filesystem;
  fs::path root = fs::temp_directory_path() / "feedcheck-dc-order";
  fs::remove_all(root);
  auto write = [&](const std::string& rel, const std::string& text) {
    fs::path p = root / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
  };
  auto line = [](const char* when) {
    return fmt::format("INFO {} sdk_logger.py:44 [28] - ActivityStarted, download\n", when);
  };
  // Named in the order a directory listing gives; Python's rotation makes .log.2 the oldest.
  std::string a_live = write("node-a/data-capability.log", line("2026-02-11 09:00:00,000"));
  std::string a_1 = write("node-a/data-capability.log.1", line("2026-02-11 08:00:00,000"));
  std::string a_2 = write("node-a/data-capability.log.2", line("2026-02-11 07:00:00,000"));
  std::string b_live = write("node-b/data-capability.log", line("2026-02-11 06:00:00,000"));
  // No timestamp to go by: the rotation suffix decides.
  std::string c_live = write("node-c/data-capability.log", "\n");
  std::string c_1 = write("node-c/data-capability.log.1", "\n");
  std::vector<std::string> ordered =
      OrderDataCapabilityFiles({a_live, a_1, a_2, b_live, c_live, c_1});
  CHECK(ordered == std::vector<std::string>{a_2, a_1, a_live, b_live, c_1, c_live});
  fs::remove_all(root);
}

namespace {
// A scratch folder removed with the object.
struct ScratchDir {
  std::filesystem::path dir;
  explicit ScratchDir(const std::string& name) {
    dir = std::filesystem::temp_directory_path() / fmt::format("{}-{}", name, ::getpid());
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  void Write(const std::string& rel, const std::string& text) const {
    std::filesystem::create_directories((dir / rel).parent_path());
    std::ofstream(dir / rel) << text;
  }
};
}  // namespace

TEST_CASE("one read of a job folder tags what each node's files showed",
          "[analyzers][paths][nodes]") {
  // Azure ML's nested layout: job/system_logs/data_capability/<node>/...
  ScratchDir job("feedcheck-nodes");
  const std::string close =
      "  INFO mount:fuse_read:read_file: rslex::prefetching: close time.busy=1.20ms "
      "time.idle=180µs\n";
  const std::string refused =
      "  WARN rslex_http_stream::http_client::response: [AsyncResponse::success()] "
      "non-successful response\nStatus: 503 Service Unavailable\nHeaders: {\n"
      "    \"x-ms-error-code\": \"ServerBusy\",\n} code=503\n";
  job.Write("system_logs/data_capability/tvmps_a/rslex.log",
            "2026-05-04T00:00:01.000000Z" + close + "2026-05-04T00:00:02.000000Z" + refused);
  job.Write("system_logs/data_capability/tvmps_b/rslex.log", "2026-05-04T00:00:01.000000Z" + close);
  std::map<std::string, int> opens;
  SetInputOpenObserver([&](const std::string& p) { ++opens[p]; });
  AnalyzeRequest req;
  req.paths = {job.dir.string()};
  AnalysisResult r = AnalyzePaths(req);
  SetInputOpenObserver(nullptr);
  CHECK(opens.size() == 2);
  for (const auto& [path, n] : opens) CHECK(n == 1);
  REQUIRE(r.nodes.size() == 2);
  CHECK(r.nodes[0].node == "tvmps_a");
  CHECK(r.nodes[1].node == "tvmps_b");
  CHECK(Num(r.nodes[0].evidence, "runtime.non_success_responses") == 1);
  CHECK(Num(r.nodes[0].evidence, "runtime.throttled.server_busy") == 1);
  CHECK(Num(r.nodes[1].evidence, "runtime.non_success_responses") == 0);
  CHECK_FALSE(r.nodes[1].evidence.facts.Find("runtime.throttled.server_busy"));
  // The refusal interval is tagged with the node that met it, and only that node has one.
  bool tagged = false;
  for (const auto& iv : r.nodes[0].evidence.timeline)
    tagged = tagged || (iv.lane == "storage" && iv.node == "tvmps_a");
  CHECK(tagged);
  for (const auto& iv : r.nodes[1].evidence.timeline) CHECK(iv.lane != "storage");
  // The job's own counts are the sum.
  CHECK(Num(r.evidence, "runtime.non_success_responses") == 1);
  // Each node's reads (its span closes) are its own lane, tagged with it.
  for (const auto& n : r.nodes) {
    size_t reads = 0;
    for (const auto& iv : n.evidence.timeline)
      if (iv.lane == "reads") {
        ++reads;
        CHECK(iv.node == n.node);
      }
    CHECK(reads == 1);
  }
}

TEST_CASE("each node's read silences stand out from its own closes' pace, not the job's",
          "[analyzers][paths][nodes][read_gaps]") {
  // Two nodes reading every 30 s, in two hourly files each; node a stops reading for 5 minutes
  // (a validation), node b never does. Read together, their closes leave no silence.
  ScratchDir job("feedcheck-silences");
  const std::string close =
      "Z  INFO mount:fuse_read:read_file: rslex::prefetching: close time.busy=1.20ms "
      "time.idle=180µs\n";
  for (const std::string node : {"tvmps_a", "tvmps_b"}) {
    std::string hours[2];
    for (int k = 0; k < 200; ++k) {
      const int t = k * 30 + (node == "tvmps_a" && k >= 100 ? 300 : 0);
      hours[t / 3600] +=
          fmt::format("2026-05-04T{:02d}:{:02d}:{:02d}.000000", t / 3600, t / 60 % 60, t % 60) +
          close;
    }
    job.Write("system_logs/data_capability/" + node + "/rslex.log.2026-05-04-00", hours[0]);
    job.Write("system_logs/data_capability/" + node + "/rslex.log.2026-05-04-01", hours[1]);
  }
  AnalyzeRequest req;
  req.paths = {job.dir.string()};
  AnalysisResult r = AnalyzePaths(req);
  REQUIRE(r.nodes.size() == 2);
  const double t0 = 1777852800;  // 2026-05-04T00:00:00Z
  for (const auto& n : r.nodes) {
    std::vector<const TimelineInterval*> silences;
    for (const auto& iv : n.evidence.timeline)
      if (iv.lane == "read silences") silences.push_back(&iv);
    REQUIRE(n.evidence.facts.Find("runtime.read_gap_fence_s"));
    const double fence = Num(n.evidence, "runtime.read_gap_fence_s");
    CHECK(fence > 30);
    CHECK(fence < 330);
    if (n.node == "tvmps_a") {
      REQUIRE(silences.size() == 1);
      CHECK(silences[0]->node == "tvmps_a");
      CHECK(silences[0]->start_epoch_s == t0 + 99 * 30);
      CHECK(silences[0]->end_epoch_s == t0 + 100 * 30 + 300);
    } else {
      CHECK(silences.empty());
    }
  }
  // The job's closes interleave the two nodes: no fence of the job's, no silence.
  CHECK_FALSE(r.evidence.facts.Find("runtime.read_gap_fence_s"));
  for (const auto& iv : r.evidence.timeline) CHECK(iv.lane != "read silences");
}

TEST_CASE("a folder of more files than descriptors held opens the rest again, never more",
          "[analyzers][paths][nodes]") {
  ScratchDir job("feedcheck-many");
  const int files = 600;  // past the 512 descriptors held between sniff and read
  for (int i = 0; i < files; ++i)
    job.Write(fmt::format("logs-{:03d}/rslex.log", i),
              "2026-05-04T00:00:01.000000Z  INFO rslex::x: hello\n");
  std::map<std::string, int> opens;
  SetInputOpenObserver([&](const std::string& p) { ++opens[p]; });
  AnalyzeRequest req;
  req.paths = {job.dir.string()};
  AnalysisResult r = AnalyzePaths(req);
  SetInputOpenObserver(nullptr);
  CHECK(r.anything_read);
  CHECK(r.skipped.empty());
  REQUIRE(opens.size() == static_cast<size_t>(files));
  int once = 0, twice = 0;
  for (const auto& [path, n] : opens) {
    CHECK(n <= 2);
    (n == 1 ? once : twice) += 1;
  }
  CHECK(once == 512);
  CHECK(twice == files - 512);
}

TEST_CASE("a node that left no logs is told by its GPU files' folder",
          "[analyzers][paths][nodes]") {
  // node-0 left its rslex log and GPU samples; node-1 only its GPU samples (its logs were
  // lost). The GPU files' folders tell the nodes apart where the logs' folders alone cannot.
  const bool second_log = GENERATE(false, true);
  ScratchDir job("feedcheck-gpu-nodes");
  const std::string close =
      "  INFO mount:fuse_read:read_file: rslex::prefetching: close time.busy=1.20ms "
      "time.idle=180µs\n";
  auto smi = [](int util) {
    std::string s = "timestamp, index, name, utilization.gpu [%], memory.used [MiB]\n";
    for (int i = 0; i < 6; ++i)
      s += fmt::format("2026/05/04 00:0{}:00.000, 0, NVIDIA A100 80GB, {} %, 1000 MiB\n", i, util);
    return s;
  };
  job.Write("node-0/system_logs/data_capability/rslex.log", "2026-05-04T00:00:01.000000Z" + close);
  if (second_log)
    job.Write("node-1/system_logs/data_capability/rslex.log",
              "2026-05-04T00:00:01.000000Z" + close);
  job.Write("node-0/gpu/nvidia-smi.csv", smi(90));
  job.Write("node-1/gpu/nvidia-smi.csv", smi(0));
  AnalyzeRequest req;
  req.paths = {job.dir.string()};
  AnalysisResult r = AnalyzePaths(req);
  INFO((second_log ? "both nodes left logs" : "node-1 left none"));
  REQUIRE(r.nodes.size() == 2);
  CHECK(r.nodes[0].node == "node-0");
  CHECK(r.nodes[1].node == "node-1");
  // Each node's GPU time is its own: node-1 idled, node-0 did not.
  CHECK(Num(r.nodes[1].evidence, "gpu.lost_gpu_s") > 0);
  CHECK(Num(r.nodes[0].evidence, "gpu.lost_gpu_s") == 0);
  // Only a node that left a log has reads of its own.
  size_t reads = 0;
  for (const auto& iv : r.nodes[1].evidence.timeline) reads += iv.lane == "reads" ? 1 : 0;
  CHECK(reads == (second_log ? 1u : 0u));
}

TEST_CASE("a node without logs beside nodes with them is told by its GPU files",
          "[analyzers][paths][nodes]") {
  // node-0 and node-1 left their data-capability logs and GPU samples; node-2 only its GPU
  // samples, where the others hold theirs. A job-wide file elsewhere (metrics/) is no node.
  ScratchDir job("feedcheck-gpu-unlogged-node");
  auto smi = [](int util) {
    std::string s = "timestamp, index, name, utilization.gpu [%], memory.used [MiB]\n";
    for (int i = 0; i < 6; ++i)
      s += fmt::format("2026/05/04 00:0{}:00.000, 0, NVIDIA A100 80GB, {} %, 1000 MiB\n", i, util);
    return s;
  };
  for (const char* node : {"node-0", "node-1"}) {
    job.Write(fmt::format("{}/system_logs/data_capability/data-capability.log", node),
              "INFO 2026-05-04 00:00:00,000 sdk_logger.py:44 [28] - ActivityStarted, mount\n");
    job.Write(fmt::format("{}/gpu/nvidia-smi.csv", node), smi(90));
  }
  job.Write("node-2/gpu/nvidia-smi.csv", smi(0));
  job.Write("metrics/nvidia-smi.csv", smi(50));
  AnalyzeRequest req;
  req.paths = {job.dir.string()};
  AnalysisResult r = AnalyzePaths(req);
  REQUIRE(r.nodes.size() == 3);
  CHECK(r.nodes[0].node == "node-0");
  CHECK(r.nodes[1].node == "node-1");
  CHECK(r.nodes[2].node == "node-2");
  // node-2's GPU time is its own: it idled, the others did not.
  CHECK(Num(r.nodes[2].evidence, "gpu.lost_gpu_s") > 0);
  CHECK(Num(r.nodes[0].evidence, "gpu.lost_gpu_s") == 0);
}

TEST_CASE("folders of GPU samples beside the job's one log are not nodes",
          "[analyzers][paths][nodes]") {
  // One node's rslex log at the job's root and its GPU samples from two collectors in two
  // folders: the folders are not nodes, so no node table splits the one node in two.
  ScratchDir job("feedcheck-gpu-collectors");
  job.Write("system_logs/data_capability/rslex.log",
            "2026-05-04T00:00:01.000000Z  INFO mount:fuse_read:read_file: rslex::prefetching: "
            "close time.busy=1.20ms time.idle=180\xc2\xb5s\n");
  const std::string smi =
      "timestamp, index, name, utilization.gpu [%], memory.used [MiB]\n"
      "2026/05/04 00:00:00.000, 0, NVIDIA A100 80GB, 90 %, 1000 MiB\n"
      "2026/05/04 00:01:00.000, 0, NVIDIA A100 80GB, 90 %, 1000 MiB\n";
  job.Write("collector-a/nvidia-smi.csv", smi);
  job.Write("collector-b/nvidia-smi.csv", smi);
  AnalyzeRequest req;
  req.paths = {job.dir.string()};
  AnalysisResult r = AnalyzePaths(req);
  CHECK(r.nodes.empty());
}

namespace {
// UTF-8 text as UTF-16LE with a byte order mark, as Windows PowerShell 5.1's `>` saves it.
std::string Utf16LeOf(const std::string& utf8) {
  std::string out = "\xFF\xFE";
  auto unit = [&](uint32_t u) {
    out.push_back(static_cast<char>(u & 0xFF));
    out.push_back(static_cast<char>(u >> 8));
  };
  for (size_t i = 0; i < utf8.size();) {
    const auto b = static_cast<unsigned char>(utf8[i]);
    const int n = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
    uint32_t cp = n == 1 ? b : n == 2 ? b & 0x1F : n == 3 ? b & 0x0F : b & 0x07;
    for (int k = 1; k < n && i + k < utf8.size(); ++k)
      cp = (cp << 6) | (static_cast<unsigned char>(utf8[i + k]) & 0x3F);
    i += static_cast<size_t>(n);
    if (cp >= 0x10000) {
      unit(0xD800 + ((cp - 0x10000) >> 10));
      unit(0xDC00 + ((cp - 0x10000) & 0x3FF));
    } else {
      unit(cp);
    }
  }
  return out;
}
}  // namespace

TEST_CASE("a job folder saved as UTF-16 reads as the same job", "[analyzers][paths][encoding]") {
  ScratchDir copy("feedcheck-utf16-job");
  size_t files = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(DemoJob())) {
    if (!e.is_regular_file()) continue;
    std::ifstream in(e.path(), std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    copy.Write(std::filesystem::relative(e.path(), DemoJob()).string(), Utf16LeOf(text));
    ++files;
  }
  REQUIRE(files >= 5);
  AnalyzeRequest utf8_req, utf16_req;
  utf8_req.paths = {DemoJob()};
  utf16_req.paths = {copy.dir.string()};
  const AnalysisResult a = AnalyzePaths(utf8_req), b = AnalyzePaths(utf16_req);
  CHECK(b.skipped.empty());
  CHECK(b.sources.size() == a.sources.size());
  CHECK(b.evidence.facts.size() == a.evidence.facts.size());
  for (const auto& [key, fact] : a.evidence.facts) {
    INFO(key);
    const Fact* other = b.evidence.facts.Find(key);
    REQUIRE(other);
    if (fact.is_number()) CHECK(other->number() == Approx(fact.number()));
    // a text fact may name its file, whose folder differs
    if (fact.is_text() && fact.text().find(DemoJob()) == std::string::npos)
      CHECK(other->text() == fact.text());
  }
  CHECK(b.evidence.timeline.size() == a.evidence.timeline.size());
}

TEST_CASE("a node's GPU samples logged by nvidia-smi dmon read as its CSV does",
          "[analyzers][paths][gpu]") {
  // The demo's node-0 CSV ("2024/05/01 09:51:30.000, 0, NVIDIA A100-SXM4-80GB, 0 %, 3 MiB")
  // rewritten as `nvidia-smi dmon -s u -o DT` would have logged it.
  ScratchDir copy("feedcheck-dmon-job");
  std::filesystem::copy(DemoJob(), copy.dir, std::filesystem::copy_options::recursive);
  const auto csv_path = copy.dir / "gpu" / "nvidia-smi-node-0.csv";
  std::ifstream csv(csv_path);
  std::string line, dmon;
  std::getline(csv, line);  // the header
  for (int n = 0; std::getline(csv, line); ++n) {
    if (n % 40 == 0)
      dmon +=
          "#Date       Time        gpu    sm   mem   enc   dec\n"
          "#YYYYMMDD   HH:MM:SS    Idx     %     %     %     %\n";
    std::vector<std::string> cells;
    for (size_t at = 0, comma; at != std::string::npos;
         at = comma == std::string::npos ? comma : comma + 2) {
      comma = line.find(", ", at);
      cells.push_back(line.substr(at, comma == std::string::npos ? comma : comma - at));
    }
    REQUIRE(cells.size() == 5);
    const std::string date = cells[0].substr(0, 4) + cells[0].substr(5, 2) + cells[0].substr(8, 2);
    std::string util = cells[3].substr(0, cells[3].find(' '));
    if (util.empty() || !std::isdigit(static_cast<unsigned char>(util[0]))) util = "-";
    dmon += fmt::format(" {}   {}   {:>4}  {:>4}     0     0     0\n", date, cells[0].substr(11, 8),
                        cells[1], util);
  }
  csv.close();
  std::filesystem::remove(csv_path);
  copy.Write("gpu/dmon-node-0.log", dmon);
  AnalyzeRequest req, demo;
  req.paths = {copy.dir.string()};
  demo.paths = {DemoJob()};
  const AnalysisResult a = AnalyzePaths(demo), b = AnalyzePaths(req);
  CHECK(b.skipped.empty());
  CHECK(Num(b.evidence, "gpu.count") == Num(a.evidence, "gpu.count"));
  CHECK(Num(b.evidence, "gpu.samples") == Num(a.evidence, "gpu.samples"));
  CHECK(Num(a.evidence, "gpu.lost_gpu_s") > 0);
  CHECK(Num(b.evidence, "gpu.lost_gpu_s") == Approx(Num(a.evidence, "gpu.lost_gpu_s")));
  CHECK(Num(b.evidence, "gpu.util_mean") == Approx(Num(a.evidence, "gpu.util_mean")));
}
