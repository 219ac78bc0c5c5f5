// The post-mortem with profiler traces: a trace found in a job folder is read once, put on its
// node, and its "Waited for data" section names each rank's wait and why; the section survives a
// saved report read back; a GPU trace gives the GPU's idle share.
#include "app/postmortem_traces.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "analyzers/input_file.h"
#include "app/postmortem_workflow.h"
#include "app_test_support.h"
#include "reports/report_json.h"

using namespace feedcheck;
using namespace feedcheck::app;
using namespace feedcheck::app::testing;
namespace fs = std::filesystem;

namespace {

const char* kGpuTrace = "ns_resolution_trace__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz";

// A two-node job folder: node-0's outputs/ hold the GPU sample; both nodes' data runtime
// logged reads of `read_ms` each (a node is its folder when there are two or more).
std::string JobWithTrace(const std::string& name, double read_ms,
                         const char* trace_node = "node-0") {
  fs::path job = fs::temp_directory_path() / fmt::format("fc-traces-{}-{}", name, getpid());
  fs::remove_all(job);
  fs::create_directories(job / trace_node / "outputs" / "profiler");
  fs::copy_file(SourcePath(std::string("tests/data/traces/") + kGpuTrace),
                job / trace_node / "outputs" / "profiler" / kGpuTrace);
  for (const char* node : {"node-0", "node-1"}) {
    fs::create_directories(job / node / "system_logs" / "data_capability");
    std::ofstream log(job / node / "system_logs" / "data_capability" / "rslex.log.2024-04-04-01");
    for (int i = 0; i < 20; ++i)
      log << fmt::format(
          "2024-04-04T01:51:{:02d}.000000Z  INFO mount:fuse_read:read_file: rslex::prefetching: "
          "close time.busy={:.2f}ms time.idle=0.10ms parallelization_degree=4\n",
          i, read_ms);
  }
  return job.string();
}

// The job's post-mortem, never failing on its verdict.
Outcome PostmortemOf(const std::string& job) {
  PostmortemRequest r;
  r.job_dir = job;
  r.fail_on = "never";
  Outcome o = RunPostmortem(r);
  REQUIRE(o.has_report);
  return o;
}

// The "Waited for data" section of a report that read one rank's trace.
nlohmann::json OneRankSection(const Outcome& o) {
  nlohmann::json j = SectionJson(o.report, kDataWaitSection);
  REQUIRE(j.is_object());
  REQUIRE(j["ranks"].size() == 1);
  return j;
}

}  // namespace

TEST_CASE("postmortem traces: a GPU trace in the job folder, read once, on its node",
          "[postmortem][traces]") {
  const double read_ms = GENERATE(0.5, 300.0);
  const std::string job = JobWithTrace(read_ms < 50 ? "fast" : "slow", read_ms);
  std::map<std::string, int> opens;
  analyzers::SetInputOpenObserver([&](const std::string& path) { ++opens[path]; });
  PostmortemRequest r;
  r.job_dir = job;
  r.fail_on = "never";
  Outcome o = RunPostmortem(r);
  analyzers::SetInputOpenObserver(nullptr);
  REQUIRE(o.has_report);
  for (const auto& [path, n] : opens) {
    INFO(path);
    CHECK(n == 1);
  }
  nlohmann::json j = SectionJson(o.report, kDataWaitSection);
  REQUIRE(j.is_object());
  REQUIRE(j["ranks"].size() == 1);
  const auto& rank = j["ranks"][0];
  CHECK(rank["rank"] == "0");
  CHECK(rank["node"] == "node-0");
  CHECK(rank["steps"].get<int>() > 0);
  // The sample's loop was fed from memory: no DataLoader wait, so not input, whatever storage.
  CHECK(rank["loader_wait_fraction"].get<double>() == 0);
  CHECK(rank["cause"] == "not_input");
  const double idle = rank["gpu_idle_fraction"].get<double>();
  CHECK(idle > 0);
  CHECK(idle < 1);
  CHECK(o.report.evidence.facts.Number("trace.gpu_idle_fraction.0") == Approx(idle));
  CHECK(o.report.evidence.facts.Text("trace.node.0") == "node-0");
  CHECK(o.report.evidence.facts.Number("trace.node_loader_wait_fraction.node-0") == Approx(0));
  // Storage as the read log beside it says.
  CHECK(j["storage"] == (read_ms < 50 ? "fast" : "slow_or_refusing"));
  CHECK(ResultText(o.report, "data_wait_cause") == "not_input");
  // The steps are on the wall clock, on the node's timeline.
  size_t bars = 0;
  for (const auto& t : o.report.evidence.timeline) bars += t.lane == "training loop";
  CHECK(bars == 0);  // no step waited
  const Series* s = o.report.evidence.FindSeries("trace.step_wait.0", "node-0");
  REQUIRE(s);
  CHECK(s->points.size() == rank["steps"].get<size_t>());
  for (const auto& p : s->points) CHECK(p.x > 1.7e9);

  // Saved and read back: the section is laid out again from its JSON.
  Report back;
  DiagnosticList diags;
  REQUIRE(ReportFromJson(ReportToJson(o.report), "saved.json", &back, &diags));
  RestoreDataWait(&back);
  auto section = std::find_if(back.sections.begin(), back.sections.end(),
                              [](const ReportSection& x) { return x.key == kDataWaitSection; });
  REQUIRE(section != back.sections.end());
  REQUIRE(section->tables.size() == 1);
  CHECK(section->tables[0].rows.size() == 1);
  CHECK(section->lines.size() == 3);
  fs::remove_all(job);
}

TEST_CASE(
    "postmortem traces: a trace in a node folder its data runtime left no log in is "
    "that node's",
    "[postmortem][traces]") {
  // node-0 and node-1 logged their reads; node-2 wrote only its trace.
  const std::string job = JobWithTrace("nolog", 0.5, "node-2");
  const Outcome o = PostmortemOf(job);
  nlohmann::json j = OneRankSection(o);
  CHECK(j["ranks"][0]["node"] == "node-2");
  CHECK(o.report.evidence.facts.Text("trace.node.0") == "node-2");
  CHECK(o.report.evidence.FindSeries("trace.step_wait.0", "node-2"));
  fs::remove_all(job);
}

TEST_CASE("postmortem traces: --trace reads a trace kept outside the job folder",
          "[postmortem][traces]") {
  const std::string job = JobWithTrace("flag", 0.5);
  const std::string outside = job + "-trace.pt.trace.json.gz";
  fs::rename(fs::path(job) / "node-0" / "outputs" / "profiler" / kGpuTrace, outside);
  PostmortemRequest r;
  r.job_dir = job;
  r.fail_on = "never";
  Outcome without = RunPostmortem(r);
  CHECK(SectionJson(without.report, kDataWaitSection).is_null());
  r.traces = {outside};
  Outcome with = RunPostmortem(r);
  nlohmann::json j = SectionJson(with.report, kDataWaitSection);
  REQUIRE(j.is_object());
  CHECK(j["ranks"].size() == 1);
  CHECK(j["ranks"][0]["file"] == outside);
  fs::remove_all(job);
  fs::remove(outside);
}

namespace {

// A one-node job folder: a legacy trace whose steps wait `wait_share`, beside it (when asked)
// the data runtime's reads of `read_ms` each and Azure ML's CpuUtilization of `cpu_percent` for
// a NodeId the folder does not show (as Azure ML names nodes).
std::string OneNodeJob(const std::string& name, double wait_share, double read_ms,
                       double cpu_percent) {
  fs::path job = fs::temp_directory_path() / fmt::format("fc-cpu-{}-{}", name, getpid());
  fs::remove_all(job);
  fs::create_directories(job / "outputs" / "profiler");
  std::string trace = "[";
  for (int i = 0; i < 6; ++i) {
    const double ts = 100 + 300000.0 * i, wait = 300000 * wait_share;
    trace += fmt::format(
        "{}{{\"name\": \"ProfilerStep#{}\", \"ph\": \"X\", \"ts\": {}, \"dur\": 300000, "
        "\"tid\": 1, \"pid\": \"CPU functions\", \"args\": {{}}}}, {{\"name\": "
        "\"enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__\", \"ph\": \"X\", "
        "\"ts\": {}, \"dur\": {}, \"tid\": 1, \"pid\": \"CPU functions\", \"args\": {{}}}}",
        i == 0 ? "" : ", ", i + 2, ts, ts + 1, wait);
  }
  std::ofstream(job / "outputs" / "profiler" / "node-1_4242.1795897392633.pt.trace.json")
      << trace << "]";
  if (read_ms >= 0) {
    fs::create_directories(job / "system_logs" / "data_capability");
    std::ofstream log(job / "system_logs" / "data_capability" / "rslex.log.2026-11-28-20");
    for (int i = 0; i < 24; ++i)
      log << fmt::format(
          "2026-11-28T20:23:{:02d}.000000Z  INFO mount:fuse_read:read_file: rslex::prefetching: "
          "close time.busy=0.10ms time.idle={:.3f}ms parallelization_degree=1\n",
          i, read_ms);
  }
  if (cpu_percent >= 0) {
    fs::create_directories(job / "metrics");
    std::ofstream(job / "metrics" / "workspace-cpu.json") << fmt::format(
        R"({{"interval": "PT1M", "namespace": "Microsoft.MachineLearningServices/workspaces",)"
        R"( "value": [{{"name": {{"value": "CpuUtilization"}}, "unit": "Percent", "timeseries":)"
        R"( [{{"metadatavalues": [{{"name": {{"value": "NodeId"}}, "value": "tvmps_9f_d"}}],)"
        R"( "data": [{{"timeStamp": "2026-11-28T20:23:00Z", "average": {}}}]}}]}}]}})",
        cpu_percent);
  }
  return job.string();
}

}  // namespace

TEST_CASE("postmortem traces: the node's CPU settles why the loop waited",
          "[postmortem][traces][cpu]") {
  const double read_ms = GENERATE(-1.0, 0.2, 66.0);     // -1: no read log
  const double cpu = GENERATE(-1.0, 17.0, 84.0, 97.0);  // -1: no CPU metric
  const std::string job = OneNodeJob("cpu", 0.84, read_ms, cpu);
  const Outcome o = PostmortemOf(job);
  nlohmann::json j = OneRankSection(o);
  const auto& rank = j["ranks"][0];
  CAPTURE(read_ms, cpu, j.dump());
  const bool busy = cpu >= 85;
  const std::string expected = read_ms >= 50                       ? "storage"
                               : read_ms >= 0 && (cpu < 0 || busy) ? "input_pipeline"
                               : read_ms < 0 && busy               ? "input_pipeline"
                                                                   : "cause_not_shown";
  CHECK(rank["cause"] == expected);
  CHECK(j["cause"] == expected);
  if (cpu >= 0) {
    // Read from the metric beside the trace, said with the verdict's evidence.
    CHECK(o.report.evidence.facts.Number("cpu.util_mean") == Approx(cpu));
    CHECK(rank["cpu_percent"].get<double>() == Approx(cpu));
    CHECK(j["evidence"].get<std::string>().find(busy ? "%, busy (" : "%, not busy (") !=
          std::string::npos);
  } else {
    CHECK_FALSE(rank.contains("cpu_percent"));
    CHECK(j["evidence"].get<std::string>().find("CPU: not recorded") != std::string::npos);
  }
  if (expected == "input_pipeline") {
    CHECK(j["verdict"].get<std::string>().find("num_workers") != std::string::npos);
    CHECK(j["verdict"].get<std::string>().find("decode") != std::string::npos);
  }
  // The steps' wait on the timeline, beside GPU utilisation: placed by the file's stamp.
  const Series* wait = o.report.evidence.FindSeries("trace.data_wait_percent");
  REQUIRE(wait);
  CHECK(wait->points.size() == 6);
  for (const auto& p : wait->points) CHECK(p.y == Approx(84).margin(0.5));
  CHECK(wait->title.find("6 steps: #2-#7") != std::string::npos);
  CHECK(j["timeline"] == wait->title);
  fs::remove_all(job);
}

TEST_CASE("postmortem traces: in a multi-node job the CPU is a node's own, never guessed",
          "[postmortem][traces][cpu]") {
  const bool in_node_folder = GENERATE(true, false);
  const std::string job = JobWithTrace(in_node_folder ? "cpu-own" : "cpu-root", 0.5);
  // node-0's own folder: an unsplit series is node-0's. The job's root: a series for an Azure ML
  // NodeId the folders do not show, which may be either node.
  const fs::path where = in_node_folder ? fs::path(job) / "node-0" / "metrics" / "cpu.json"
                                        : fs::path(job) / "metrics" / "cpu.json";
  fs::create_directories(where.parent_path());
  std::ofstream(where) << fmt::format(
      R"({{"interval": "PT1M", "value": [{{"name": {{"value": "CpuUtilization"}}, "timeseries":)"
      R"( [{{"metadatavalues": [{}], "data": [{{"timeStamp": "2024-04-04T01:51:00Z",)"
      R"( "average": 93}}]}}]}}]}})",
      in_node_folder ? "" : R"({"name": {"value": "NodeId"}, "value": "tvmps_1c_d"})");
  const Outcome o = PostmortemOf(job);
  nlohmann::json j = OneRankSection(o);
  CHECK(j["ranks"][0]["node"] == "node-0");
  CHECK(o.report.evidence.facts.Number("cpu.util_mean") == Approx(93));
  if (in_node_folder) {
    CHECK(o.report.evidence.facts.Number("cpu.node_util_mean.node-0") == Approx(93));
    CHECK(j["ranks"][0]["cpu_percent"].get<double>() == Approx(93));
    CHECK(j["evidence"].get<std::string>().find("the node's CPU: 93%, busy") != std::string::npos);
  } else {
    CHECK_FALSE(j["ranks"][0].contains("cpu_percent"));
    CHECK(j["evidence"].get<std::string>().find("CPU: not recorded") != std::string::npos);
  }
  fs::remove_all(job);
}
