// `fetch` through the real Azure CLI (Debian 12's azure-cli 2.45, /usr/bin/az), offline: its
// HTTP is answered on loopback by tests/data/az-standin/arm_server.py from the REST bodies
// Microsoft documents (the folder's README names them), the CLI logged in to a cloud registered
// on that server (real-az-setup.py). `az ml` (no Debian package) goes to the stand-in's
// azure-ai-ml shapes. Skipped, with a warning, where /usr/bin/az is not installed.
#include <signal.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "app/fetch_workflow.h"
#include "app/postmortem_report.h"
#include "app_test_support.h"
#include "core/diagnostic_codes.h"
#include "reports/report_text.h"

using namespace feedcheck;
using namespace feedcheck::app;
using feedcheck::app::testing::HasDiagnostic;
namespace fs = std::filesystem;

namespace {

const std::string kRealAzStandIn = std::string(FEEDCHECK_SOURCE_DIR) + "/tests/data/az-standin";
const std::string kRealAzBundled =
    std::string(FEEDCHECK_SOURCE_DIR) + "/tests/data/joblogs/egress-throttled-download";

bool HaveRealAz() {
  std::error_code ec;
  return fs::exists("/usr/bin/az", ec) && fs::exists("/usr/bin/openssl", ec);
}

fs::path Fresh(const std::string& name) {
  fs::path dir =
      fs::temp_directory_path() / ("feedcheck-real-az-" + std::to_string(getpid())) / name;
  fs::remove_all(dir);
  return dir;
}

// The loopback server and a logged-in real az, first on PATH through real/az; stopped at the
// end of the case.
class RealAz {
 public:
  explicit RealAz(const std::string& name, std::vector<std::string> setup_flags = {}) {
    work_ = Fresh(name);
    std::vector<std::string> argv = {"python3", kRealAzStandIn + "/real-az-setup.py",
                                     work_.string()};
    argv.insert(argv.end(), setup_flags.begin(), setup_flags.end());
    ProcessResult r = RunProcess(argv, 600);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    pid_ = std::atoi(r.out.c_str());
    REQUIRE(pid_ > 1);
    old_path_ = std::getenv("PATH") ? std::getenv("PATH") : "";
    setenv("PATH", (kRealAzStandIn + "/real:" + old_path_).c_str(), 1);
    setenv("FEEDCHECK_REAL_AZ_DIR", work_.c_str(), 1);
    setenv("FEEDCHECK_AZ_JOB_DIR", kRealAzBundled.c_str(), 1);
  }
  ~RealAz() {
    if (pid_ > 1) kill(pid_, SIGTERM);
    setenv("PATH", old_path_.c_str(), 1);
    unsetenv("FEEDCHECK_REAL_AZ_DIR");
    unsetenv("FEEDCHECK_AZ_JOB_DIR");
    unsetenv("FEEDCHECK_REAL_AZ_ML");
    unsetenv("FEEDCHECK_AZ_GPU_METRICS");
    unsetenv("FEEDCHECK_AZ_CPU_METRICS");
  }
  const fs::path& work() const { return work_; }

 private:
  fs::path work_;
  pid_t pid_ = 0;
  std::string old_path_;
};

FetchRequest RealAzFetch(const fs::path& out_dir) {
  FetchRequest r;
  r.job = "egress-throttled-download";
  r.workspace = {"ws-ml", "rg-ml", "", ""};
  r.out_dir = out_dir.string();
  r.command_timeout_s = 300;
  return r;
}

Outcome PostmortemOfFetched(const std::string& dir) {
  FleetRequest r;
  r.each.job_dir = dir;
  r.each.fail_on = "never";
  r.workers = 1;
  return RunPostmortemCommand(r);
}

std::string ReadFetched(const fs::path& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE("real az: fetch then post-mortem equals the direct post-mortem, every GPU once",
          "[app][fetch][real-az]") {
  if (!HaveRealAz()) {
    WARN("skipped: /usr/bin/az (apt-get install azure-cli) or openssl is not installed");
    return;
  }
  const std::string gpu = kRealAzStandIn + "/monitor-gpu-3x8.json";
  const std::string cpu = kRealAzStandIn + "/monitor-cpu-3.json";
  RealAz az("equal", {"--gpu", gpu, "--cpu", cpu});
  const fs::path dir = Fresh("equal-out");
  Outcome fetched = RunFetch(RealAzFetch(dir), RunProcess);
  INFO(
      (fetched.diagnostics.kept().empty() ? std::string() : fetched.diagnostics.kept()[0].message));
  REQUIRE(fetched.status == ExitStatus::kOk);
  // What the real client wrote: its own shapes.
  const auto egress = nlohmann::json::parse(ReadFetched(dir / "metrics/stmlcorpus01-egress.json"));
  CHECK(egress["interval"] == "0:01:00");
  CHECK(egress["value"][0]["resourceGroup"] == "rg-ml");
  CHECK(egress["value"][0]["timeseries"][0]["data"][0]["timeStamp"].get<std::string>().find(
            "+00:00") != std::string::npos);
  // All 24 GPU series: the server cuts at $top as the service does, and fetch asked for them.
  CHECK(AzMetricsMostSeries(ReadFetched(dir / "metrics/workspace-gpu.json")) == 24);
  // The nodes' CPU through the real client too, read by the post-mortem.
  CHECK(AzMetricsMostSeries(ReadFetched(dir / "metrics/workspace-cpu.json")) == 3);
  const std::string requests = ReadFetched(az.work() / "requests.log");
  CHECK(requests.find("top=") != std::string::npos);

  Outcome a = PostmortemOfFetched(dir.string()), b = PostmortemOfFetched(kRealAzBundled);
  REQUIRE(a.has_report);
  REQUIRE(b.has_report);
  CHECK(a.report.verdict == "account egress, confirmed");
  CHECK(a.report.verdict == b.report.verdict);
  CHECK(a.report.verdict_detail == b.report.verdict_detail);
  CHECK(DiagnosisOf(a.report).cause == DiagnosisOf(b.report).cause);
  CHECK(DiagnosisOf(a.report).gpu.lost_gpu_s == Approx(DiagnosisOf(b.report).gpu.lost_gpu_s));
  CHECK(a.report.evidence.facts.Number("gpu.count").value_or(0) ==
        b.report.evidence.facts.Number("gpu.count").value_or(-1));
  CHECK(a.report.evidence.facts.Number("cpu.samples").value_or(0) > 0);
  CHECK(a.report.evidence.facts.Has("cpu.node_util_mean.tvmps_7c1d0e9a20_d"));
  REQUIRE(a.report.result.size() == b.report.result.size());
  for (size_t i = 0; i < a.report.result.size(); ++i) {
    CHECK(a.report.result[i].key == b.report.result[i].key);
    CHECK(ResultValueText(a.report.result[i]) == ResultValueText(b.report.result[i]));
  }
}

TEST_CASE("real az: the stand-in prints what the real client prints", "[app][fetch][real-az]") {
  if (!HaveRealAz()) {
    WARN("skipped: /usr/bin/az (apt-get install azure-cli) or openssl is not installed");
    return;
  }
  const std::string gpu = kRealAzStandIn + "/monitor-gpu-3x8.json";
  const std::string cpu = kRealAzStandIn + "/monitor-cpu-3.json";
  RealAz az("same", {"--gpu", gpu, "--cpu", cpu});
  setenv("FEEDCHECK_AZ_GPU_METRICS", gpu.c_str(), 1);
  setenv("FEEDCHECK_AZ_CPU_METRICS", cpu.c_str(), 1);
  const std::string account =
      "/subscriptions/0000/resourceGroups/rg-ml/providers/Microsoft.Storage/storageAccounts/"
      "stmlcorpus01";
  const std::string workspace =
      "/subscriptions/0000/resourceGroups/rg-ml/providers/Microsoft.MachineLearningServices/"
      "workspaces/ws-ml";
  const std::string from = "2025-03-11T07:55:00Z", to = "2025-03-11T09:07:00Z";
  std::vector<std::vector<std::string>> commands = {
      AzStorageAccountShowArgv("stmlcorpus01", {}),
      AzMetricsArgv(account, {"Egress", "Ingress", "SuccessE2ELatency", "SuccessServerLatency"},
                    from, to, "", {"Total", "Average"})};
  // A split cut at --top as the service cuts it: fewer series than there are, all, more.
  for (int top : {2, 10, 100}) {
    commands.push_back(
        AzMetricsArgv(account, {"Transactions"}, from, to, "ResponseType", {"Total"}, top));
    commands.push_back(AzGpuMetricsArgv(workspace, "egress-throttled-download", from, to, top));
    commands.push_back(AzCpuMetricsArgv(workspace, "egress-throttled-download", from, to, top));
  }
  for (const auto& argv : commands) {
    INFO(AzCommandText(argv));
    std::vector<std::string> real = argv, standin = argv;
    real[0] = kRealAzStandIn + "/real/az";
    standin[0] = kRealAzStandIn + "/az";
    ProcessResult r = RunProcess(real, 300), s = RunProcess(standin, 60);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    REQUIRE(s.exit_code == 0);
    CHECK(nlohmann::json::parse(r.out) == nlohmann::json::parse(s.out));
  }
}

TEST_CASE("real az: its own errors, mapped by meaning", "[app][fetch][real-az]") {
  if (!HaveRealAz()) {
    WARN("skipped: /usr/bin/az (apt-get install azure-cli) or openssl is not installed");
    return;
  }
  // The subscription lists no such account: az says "Storage account 'X' not found." (exit 2);
  // fetch goes on with the logs and says what to pass.
  RealAz az("errors", {"--no-accounts"});
  const fs::path dir = Fresh("elsewhere-out");
  Outcome o = RunFetch(RealAzFetch(dir), RunProcess);
  CHECK(o.status == ExitStatus::kOk);
  CHECK(HasDiagnostic(o.diagnostics, codes::kAzAccountElsewhere, "--storage-subscription"));
  CHECK(fs::exists(dir / "artifacts/system_logs/data_capability/data-capability.log"));
  // Without the ml extension (the real CLI has none): the next command to run.
  setenv("FEEDCHECK_REAL_AZ_ML", "real", 1);
  Outcome m = RunFetch(RealAzFetch(Fresh("no-ml-out")), RunProcess);
  CHECK(m.status == ExitStatus::kInputError);
  CHECK(HasDiagnostic(m.diagnostics, codes::kAzNoMlExtension, "az extension add -n ml"));
}
