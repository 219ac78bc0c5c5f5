// The post-mortem reads a job once: every input file of a job folder is opened exactly once
// (sniffed and read through the same descriptor), and what each node's own files showed comes
// from that read. Refusals are charged per node: the idle GPU time of a node is charged to a
// throttling cause only while that node itself was refused.
#include <fmt/chrono.h>
#include <fmt/format.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "analyzers/input_file.h"
#include "app/postmortem_report.h"
#include "app/postmortem_workflow.h"
#include "app_test_support.h"

using namespace feedcheck;
using namespace feedcheck::app;
using namespace feedcheck::app::testing;
namespace fs = std::filesystem;

namespace {

// Counts every open of an input file while it lives.
class OpenCounter {
 public:
  OpenCounter() {
    analyzers::SetInputOpenObserver([this](const std::string& path) { ++opens_[path]; });
  }
  ~OpenCounter() { analyzers::SetInputOpenObserver(nullptr); }
  const std::map<std::string, int>& opens() const { return opens_; }

 private:
  std::map<std::string, int> opens_;
};

// A fresh folder under the system's temporary folder, removed with the object.
struct TempJob {
  fs::path dir;
  TempJob() {
    dir = fs::temp_directory_path() /
          fmt::format("feedcheck-one-read-{}-{}", ::getpid(), reinterpret_cast<uintptr_t>(this));
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~TempJob() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  void Write(const std::string& rel, const std::string& text) const {
    fs::create_directories((dir / rel).parent_path());
    std::ofstream(dir / rel) << text;
  }
};

constexpr double kT0 = 1777852800;  // 2026-05-04T00:00:00Z

std::string Iso(double t) {
  auto s = static_cast<std::time_t>(t);
  return fmt::format("{:%Y-%m-%dT%H:%M:%S}.{:06d}Z", fmt::gmtime(s),
                     static_cast<int>((t - static_cast<double>(s)) * 1e6));
}

// One node of a mounted job over an hour: a read span closing every 10 s, 503s every 2 s in
// [refused_from_s, refused_to_s) after the start (none when equal), and 8 GPUs sampled every
// 5 s, idle in [idle_from_s, idle_to_s).
void WriteNode(const TempJob& job, const std::string& node, double refused_from_s,
               double refused_to_s, double idle_from_s, double idle_to_s) {
  const std::string logs = node + "/system_logs/data_capability/";
  auto py = [](double t) {
    auto s = static_cast<std::time_t>(t);
    return fmt::format("{:%Y-%m-%d %H:%M:%S},100", fmt::gmtime(s));
  };
  job.Write(logs + "data-capability.log",
            fmt::format("INFO {} sdk_logger.py:44 [28] - ActivityStarted, mount\n"
                        "INFO {} sdk_logger.py:44 [28] - ActivityCompleted: Activity=mount, "
                        "HowEnded=Success, Duration=800.00 [ms]\n",
                        py(kT0 + 10), py(kT0 + 10)));
  std::string rslex;
  for (double s = 12; s < 3600; s += 2) {
    if (static_cast<int>(s) % 10 == 2)
      rslex += fmt::format(
          "{}  INFO mount:fuse_read:read_file: rslex::prefetching: close time.busy=1.20ms "
          "time.idle=180µs parallelization_degree=4\n",
          Iso(kT0 + s));
    if (s >= refused_from_s && s < refused_to_s)
      rslex += fmt::format(
          "{}  WARN rslex_http_stream::http_client::response: [AsyncResponse::success()] "
          "non-successful response\nStatus: 503 Service Unavailable\nHeaders: {{\n"
          "    \"content-length\": \"212\",\n    \"x-ms-error-code\": \"ServerBusy\",\n"
          "}} code=503\n",
          Iso(kT0 + s + 0.0002));
  }
  job.Write(logs + "rslex.log", rslex);
  std::string smi = "timestamp, index, name, utilization.gpu [%], memory.used [MiB]\n";
  for (double s = 0; s < 3600; s += 5) {
    auto t = static_cast<std::time_t>(kT0 + s);
    int util = s >= idle_from_s && s < idle_to_s ? 1 : 93;
    for (int g = 0; g < 8; ++g)
      smi += fmt::format("{:%Y/%m/%d %H:%M:%S}.000, {}, NVIDIA A100-SXM4-80GB, {} %, 40000 MiB\n",
                         fmt::gmtime(t), g, util);
  }
  job.Write(node + "/gpu/nvidia-smi.csv", smi);
}

PostmortemRequest TwoNodeRequest(const TempJob& job) {
  PostmortemRequest r;
  r.job_dir = job.dir.string();
  r.fail_on = "never";
  r.cluster.sku = "Standard_ND96asr_v4";
  r.cluster.nodes = 2;
  r.cluster.region = "eastus";
  return r;
}

double FactOr(const Report& r, const std::string& key, double fallback) {
  const Fact* f = r.evidence.facts.Find(key);
  return f && f->is_number() ? f->number() : fallback;
}

// What the node's ledger charged to storage's refusals (a limit named or not).
double RefusedGpuS(const NodeRow& n) {
  double sum = 0;
  for (const auto& s : n.states)
    if (s.state == "account_egress" || s.state == "account_ingress" ||
        s.state == "account_requests" || s.state == "blob_target" || s.state == "throttled_unknown")
      sum += s.gpu_s;
  return sum;
}

std::optional<NodeRow> Row(const Report& r, const std::string& node) {
  for (const auto& n : DiagnosisOf(r).nodes)
    if (n.node == node) return n;
  return std::nullopt;
}

}  // namespace

TEST_CASE("the post-mortem opens each input file of a job exactly once",
          "[app][postmortem][one-read]") {
  std::ifstream in(kJobCorpus + "/corpus.json");
  REQUIRE(in.good());
  const nlohmann::json labels = nlohmann::json::parse(in);
  int multi_node = 0;
  for (const auto& label : labels["jobs"]) {
    const std::string name = label["name"];
    INFO("job " << name);
    OpenCounter counter;
    Outcome out = RunPostmortem(CorpusRequest(name, label["args"].get<std::vector<std::string>>()));
    REQUIRE(out.has_report);
    if (DiagnosisOf(out.report).nodes.size() >= 2) ++multi_node;
    // Every regular file of the folder was opened, and none twice.
    std::set<std::string> files;
    for (const auto& e : fs::recursive_directory_iterator(kJobCorpus + "/" + name))
      if (e.is_regular_file() && !e.is_symlink()) files.insert(e.path().string());
    for (const auto& f : files) {
      INFO("file " << f);
      auto it = counter.opens().find(f);
      REQUIRE(it != counter.opens().end());
      CHECK(it->second == 1);
    }
    for (const auto& [path, n] : counter.opens()) {
      INFO("opened " << path);
      CHECK(n == 1);
    }
  }
  // The corpus has multi-node jobs: their node table came from the same read.
  CHECK(multi_node >= 3);
}

TEST_CASE("a 16-node job folder is opened once per file, node table included",
          "[app][postmortem][one-read]") {
  TempJob job;
  for (int n = 0; n < 16; ++n) WriteNode(job, fmt::format("node-{}", n), 0, 0, 600, 660);
  OpenCounter counter;
  PostmortemRequest request = TwoNodeRequest(job);
  request.cluster.nodes = 16;
  Outcome out = RunPostmortem(request);
  REQUIRE(out.has_report);
  CHECK(DiagnosisOf(out.report).nodes.size() == 16);
  CHECK(counter.opens().size() == 16 * 3);
  for (const auto& [path, n] : counter.opens()) {
    INFO(path);
    CHECK(n == 1);
  }
}

TEST_CASE("refusals are charged to the node that met them, not to a busy or unrefused node",
          "[app][postmortem][nodes]") {
  SECTION("node A refused while idle, node B busy: B is charged nothing") {
    TempJob job;
    WriteNode(job, "node-a", 600, 1200, 600, 1200);
    WriteNode(job, "node-b", 0, 0, 0, 0);
    Outcome out = RunPostmortem(TwoNodeRequest(job));
    REQUIRE(out.has_report);
    const Report& r = out.report;
    INFO(r.verdict << ": " << DiagnosisOf(r).fix);
    // A's 8 GPUs idle for 600 s, all of it while A was refused.
    CHECK(FactOr(r, "gpu.lost_gpu_s", -1) == Approx(4800).margin(60));
    CHECK(FactOr(r, "gpu.lost_throttled_gpu_s", -1) == Approx(4800).margin(60));
    const std::optional<NodeRow> a = Row(r, "node-a");
    const std::optional<NodeRow> b = Row(r, "node-b");
    REQUIRE(a.has_value());
    REQUIRE(b.has_value());
    CHECK(a->throttled > 0);
    CHECK(RefusedGpuS(*a) == Approx(4800).margin(60));
    CHECK(a->gpu_lost_gpu_s == Approx(4800).margin(60));
    CHECK(b->throttled == 0);
    CHECK(RefusedGpuS(*b) == 0);
    CHECK(b->gpu_lost_gpu_s == 0);
  }
  SECTION("node B idle at the same minutes but never refused: its idle time is not throttling's") {
    TempJob job;
    WriteNode(job, "node-a", 600, 1200, 600, 1200);
    WriteNode(job, "node-b", 0, 0, 600, 1200);
    Outcome out = RunPostmortem(TwoNodeRequest(job));
    REQUIRE(out.has_report);
    const Report& r = out.report;
    INFO(r.verdict << ": " << DiagnosisOf(r).fix);
    // Both nodes lost 4,800 GPU-s in the same minutes; only A's fell while A was refused (a
    // job-wide reading of the refusals would charge all 9,600).
    CHECK(FactOr(r, "gpu.lost_gpu_s", -1) == Approx(9600).margin(120));
    CHECK(FactOr(r, "gpu.lost_throttled_gpu_s", -1) == Approx(4800).margin(60));
    const std::optional<NodeRow> b = Row(r, "node-b");
    REQUIRE(b.has_value());
    CHECK(RefusedGpuS(*b) == 0);
    CHECK(b->gpu_lost_gpu_s == Approx(4800).margin(60));
    CHECK(RefusedGpuS(*Row(r, "node-a")) == Approx(4800).margin(60));
    // The cause's share is never more than the refused node's idle time.
    if (DiagnosisOf(r).cause == "throttled, limit unknown")
      CHECK(DiagnosisOf(r).attributed_gpu_s <= 4800 + 60);
  }
}
