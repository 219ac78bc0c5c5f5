// `fetch` against a stand-in `az` (tests/data/az-standin/az, first on PATH) that prints the
// documented output shapes and fails the ways az fails; the process runner is the real one.
#include "app/fetch_workflow.h"

#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "app/fetch_fleet.h"
#include "app/fleet_report.h"
#include "app/postmortem_report.h"
#include "app_test_support.h"
#include "core/diagnostic_codes.h"
#include "reports/report_text.h"

using namespace feedcheck;
using namespace feedcheck::app;
using feedcheck::app::testing::HasDiagnostic;
namespace fs = std::filesystem;

namespace {

const std::string kStandIn = std::string(FEEDCHECK_SOURCE_DIR) + "/tests/data/az-standin";
const std::string kBundled =
    std::string(FEEDCHECK_SOURCE_DIR) + "/tests/data/joblogs/egress-throttled-download";
const std::string kJob = "egress-throttled-download";

// The stand-in first on PATH, its settings in the environment, undone at the end of the case.
class StandInAz {
 public:
  explicit StandInAz(const std::string& fail = "", const std::string& fail_on = "") {
    old_path_ = std::getenv("PATH") ? std::getenv("PATH") : "";
    setenv("PATH", (kStandIn + ":" + old_path_).c_str(), 1);
    setenv("FEEDCHECK_AZ_JOB_DIR", kBundled.c_str(), 1);
    if (!fail.empty()) setenv("FEEDCHECK_AZ_FAIL", fail.c_str(), 1);
    if (!fail_on.empty()) setenv("FEEDCHECK_AZ_FAIL_ON", fail_on.c_str(), 1);
  }
  ~StandInAz() {
    setenv("PATH", old_path_.c_str(), 1);
    unsetenv("FEEDCHECK_AZ_JOB_DIR");
    unsetenv("FEEDCHECK_AZ_FAIL");
    unsetenv("FEEDCHECK_AZ_FAIL_ON");
  }

 private:
  std::string old_path_;
};

std::string FreshDir(const std::string& name) {
  fs::path dir =
      fs::temp_directory_path() / ("feedcheck-fetch-test-" + std::to_string(getpid())) / name;
  fs::remove_all(dir);
  return dir.string();
}

FetchRequest Request(const std::string& out_dir) {
  FetchRequest r;
  r.job = kJob;
  r.workspace = {"ws-ml", "rg-ml", ""};
  r.out_dir = out_dir;
  r.command_timeout_s = 60;
  return r;
}

Outcome Postmortem(const std::string& dir) {
  FleetRequest r;
  r.each.job_dir = dir;
  r.each.fail_on = "never";
  r.workers = 1;
  return RunPostmortemCommand(r);
}

std::string ReadText(const fs::path& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The fetch's note that starts with `start` ("Azure ML CpuUtilization"), "" when none does.
std::string NoteOf(const Report& report, const std::string& start) {
  for (const auto& t : report.tables)
    for (const auto& n : t.notes)
      if (n.rfind(start, 0) == 0) return n;
  return "";
}

bool Mentions(const DiagnosticList& d, const std::string& text) {
  for (const auto& x : d.kept())
    if (x.message.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("fetch of the stand-in job: its post-mortem equals the bundled folder's",
          "[app][fetch]") {
  StandInAz az;
  const std::string dir = FreshDir("equal");
  Outcome fetched = RunFetch(Request(dir), RunProcess);
  INFO(
      (fetched.diagnostics.kept().empty() ? std::string() : fetched.diagnostics.kept()[0].message));
  REQUIRE(fetched.status == ExitStatus::kOk);
  // az ml job download --all's layout: the job's files in artifacts/, each named output in
  // named-outputs/NAME/; the job's definition as az printed it in job.json; the account's
  // metrics in metrics/.
  CHECK(fs::exists(fs::path(dir) / "artifacts/system_logs/data_capability/data-capability.log"));
  CHECK(fs::exists(fs::path(dir) / "artifacts/user_logs/std_log.txt"));
  CHECK(fs::is_directory(fs::path(dir) / "named-outputs/checkpoints"));
  CHECK(fs::exists(fs::path(dir) / "job.json"));
  CHECK(ReadText(fs::path(dir) / "job.json").find("STANDINSECRETSIG") == std::string::npos);
  CHECK(fs::exists(fs::path(dir) / "metrics/stmlcorpus01-egress.json"));
  CHECK(fs::exists(fs::path(dir) / "metrics/stmlcorpus01-transactions.json"));
  CHECK_FALSE(fs::exists(fs::path(dir) / "metrics/egress.json"));  // not the bundled file

  // The data asset input (azureml:imagenet-train:3) resolved to its datastore's account.
  bool asset_shown = false;
  for (const auto& row : fetched.report.tables.back().rows)
    asset_shown = asset_shown || row[0].text.find(
                                     "az ml data show --name imagenet-train "
                                     "--version 3") == 0;
  CHECK(asset_shown);

  Outcome a = Postmortem(dir), b = Postmortem(kBundled);
  REQUIRE(a.has_report);
  REQUIRE(b.has_report);
  // Every real job's std_log.txt, and what the job wrote, are not logs: never "not read".
  CHECK_FALSE(Mentions(a.diagnostics, "format not recognised"));
  CHECK_FALSE(HasDiagnostic(a.diagnostics, codes::kNotRead, ""));
  // The job's definition read from job.json: the variable it sets, as job.yml gives it.
  CHECK(a.report.evidence.facts.Text("runtime.setting.AZUREML_DATASET_HTTP_RETRY_COUNT")
            .value_or("") == "7");
  CHECK(b.report.evidence.facts.Text("runtime.setting.AZUREML_DATASET_HTTP_RETRY_COUNT")
            .value_or("") == "7");
  CHECK(a.report.verdict == "account egress, confirmed");
  CHECK(a.report.verdict == b.report.verdict);
  CHECK(a.report.verdict_detail == b.report.verdict_detail);
  CHECK(DiagnosisOf(a.report).cause == DiagnosisOf(b.report).cause);
  CHECK(DiagnosisOf(a.report).confidence == DiagnosisOf(b.report).confidence);
  CHECK(DiagnosisOf(a.report).attributed_gpu_s == Approx(DiagnosisOf(b.report).attributed_gpu_s));
  CHECK(DiagnosisOf(a.report).gpu.lost_gpu_s == Approx(DiagnosisOf(b.report).gpu.lost_gpu_s));
  REQUIRE(a.report.result.size() == b.report.result.size());
  for (size_t i = 0; i < a.report.result.size(); ++i) {
    CHECK(a.report.result[i].key == b.report.result[i].key);
    CHECK(ResultValueText(a.report.result[i]) == ResultValueText(b.report.result[i]));
  }
  REQUIRE(a.report.findings.size() == b.report.findings.size());
  for (size_t i = 0; i < a.report.findings.size(); ++i) {
    CHECK(a.report.findings[i].rule_id == b.report.findings[i].rule_id);
    CHECK(a.report.findings[i].severity == b.report.findings[i].severity);
    CHECK(a.report.findings[i].secondary == b.report.findings[i].secondary);
  }
  // What the fetch reported: the account, and a SAS in an input's path redacted.
  const std::string all = fetched.report.tables[0].rows[0][1].text;
  CHECK(all.find("STANDINSECRETSIG") == std::string::npos);
  CHECK(fetched.report.verdict_detail.find("feedcheck postmortem " + dir +
                                           " --sku STANDARD_ND96ASR_V4") != std::string::npos);

  // A second fetch into the same folder is refused: a fetch never overwrites.
  Outcome again = RunFetch(Request(dir), RunProcess);
  CHECK(again.status == ExitStatus::kUsage);
  CHECK(HasDiagnostic(again.diagnostics, codes::kBadFlag, "never overwrites"));
}

TEST_CASE("fetch: Azure ML's GpuUtilization for the job, where the workspace has it",
          "[app][fetch]") {
  StandInAz az;
  // By default the workspace kept no GPU series for the job: nothing written, said so.
  const std::string none = FreshDir("gpu-none");
  Outcome o = RunFetch(Request(none), RunProcess);
  REQUIRE(o.status == ExitStatus::kOk);
  CHECK_FALSE(fs::exists(fs::path(none) / "metrics/workspace-gpu.json"));
  CHECK(NoteOf(o.report, "Azure ML GpuUtilization").find("no GpuUtilization samples") !=
        std::string::npos);
  // With samples: written where postmortem reads the workspace metric, every series of the
  // job's 24 GPUs (az's default --top would have kept 10).
  const std::string gpu = kStandIn + "/monitor-gpu-3x8.json";
  setenv("FEEDCHECK_AZ_GPU_METRICS", gpu.c_str(), 1);
  const std::string with = FreshDir("gpu-with");
  Outcome w = RunFetch(Request(with), RunProcess);
  unsetenv("FEEDCHECK_AZ_GPU_METRICS");
  REQUIRE(w.status == ExitStatus::kOk);
  REQUIRE(fs::exists(fs::path(with) / "metrics/workspace-gpu.json"));
  CHECK(AzMetricsMostSeries(ReadText(fs::path(with) / "metrics/workspace-gpu.json")) == 24);
  CHECK_FALSE(HasDiagnostic(w.diagnostics, codes::kAzSeriesCapped, ""));
  // Its nodes are the nvidia-smi files' nodes under other names: each GPU counted once.
  Outcome pm_with = Postmortem(with), pm_bundled = Postmortem(kBundled);
  REQUIRE(pm_with.has_report);
  CHECK(pm_with.report.evidence.facts.Number("gpu.count").value_or(0) == 24);
  CHECK(DiagnosisOf(pm_with.report).gpu.lost_gpu_s ==
        Approx(DiagnosisOf(pm_bundled.report).gpu.lost_gpu_s));
  CHECK(HasDiagnostic(pm_with.report.evidence.diagnostics, codes::kGpuSourcesMerged, "set aside"));
  // A workspace that refuses the metric: a warning, the fetch goes on.
  StandInAz refuses("forbidden", "GpuUtilization");
  Outcome f = RunFetch(Request(FreshDir("gpu-refused")), RunProcess);
  CHECK(f.status == ExitStatus::kOk);
  CHECK(HasDiagnostic(f.diagnostics, codes::kAzForbidden, "GpuUtilization"));
  CHECK(AzMetricsHaveData("{\"value\":[{\"timeseries\":[{\"data\":[{\"average\":3}]}]}]}"));
  CHECK_FALSE(AzMetricsHaveData("{\"value\":[{\"timeseries\":[]}]}"));
  CHECK_FALSE(AzMetricsHaveData("[]"));
}

TEST_CASE("postmortem --job: fetch, then the post-mortem of what was fetched", "[app][fetch]") {
  StandInAz az;
  FleetRequest pm;
  pm.each.fail_on = "never";
  Outcome o = RunFetchAndPostmortem(Request(FreshDir("then")), pm, RunProcess);
  REQUIRE(o.has_report);
  CHECK(o.report.title == "Post-mortem");
  CHECK(o.report.verdict == "account egress, confirmed");
  // The compute's VM size (az ml compute show) sized the nodes and priced the GPU time.
  CHECK(o.report.evidence.facts.Text("node.sku").value_or("") == "STANDARD_ND96ASR_V4");
  bool priced = false;
  for (const auto& t : o.report.tables)
    if (t.title == "GPU time in money (an estimate)" && !t.rows.empty())
      priced = t.notes.back().find("An estimate from Standard_ND96asr_v4: 27.197") == 0;
  CHECK(priced);
  bool said = false;
  for (const auto& w : o.report.context.warnings) said = said || w.find("fetched from") == 0;
  CHECK(said);
}

TEST_CASE("fetch says which az command failed and why", "[app][fetch]") {
  struct Case {
    const char* mode;
    const char* code;
    const char* says;
  };
  for (const Case& c :
       {Case{"not-logged-in", codes::kAzNotLoggedIn, "Please run 'az login'"},
        Case{"forbidden", codes::kAzForbidden, "AuthorizationFailed"},
        Case{"not-found", codes::kAzNotFound, "ResourceNotFound"},
        Case{"no-ml-extension", codes::kAzNoMlExtension, "run `az extension add -n ml`"}}) {
    INFO(c.mode);
    StandInAz az(c.mode);
    Outcome o = RunFetch(Request(FreshDir(c.mode)), RunProcess);
    CHECK(o.status == ExitStatus::kInputError);
    CHECK(HasDiagnostic(o.diagnostics, c.code, "`az ml job show --name egress-throttled-download"));
    CHECK(Mentions(o.diagnostics, c.says));
    // az's words may carry a SAS: never printed.
    CHECK_FALSE(Mentions(o.diagnostics, "STANDINSECRETSIG"));
    REQUIRE(o.has_report);
    CHECK(o.report.verdict_level == VerdictLevel::kBad);
  }
  // A later command failing is named as that command.
  StandInAz az("forbidden", "monitor");
  Outcome o = RunFetch(Request(FreshDir("monitor")), RunProcess);
  CHECK(HasDiagnostic(o.diagnostics, codes::kAzForbidden, "`az monitor metrics list --resource"));
  // A compute deleted since: a warning, the VM size unknown, the rest fetched.
  {
    StandInAz gone("not-found", "compute");
    Outcome d = RunFetch(Request(FreshDir("compute-gone")), RunProcess);
    CHECK(d.status == ExitStatus::kOk);
    CHECK(HasDiagnostic(d.diagnostics, codes::kAzNotFound, "give --sku"));
  }
  // A datastore deleted since the job ran: a warning, the rest is fetched.
  {
    StandInAz gone("not-found", "datastore");
    const std::string dir = FreshDir("datastore-gone");
    Outcome d = RunFetch(Request(dir), RunProcess);
    CHECK(d.status == ExitStatus::kOk);
    CHECK(HasDiagnostic(d.diagnostics, codes::kAzNotFound, "`az ml datastore show --name"));
    CHECK(fs::exists(fs::path(dir) / "metrics/stmlcorpus01-egress.json"));  // via the https input
  }
  // The storage account in another subscription (az: "Storage account 'X' not found.", exit
  // 2): the logs are fetched, the account's metrics are not, and the message says what to pass.
  {
    StandInAz elsewhere("account-elsewhere", "storage");
    const std::string dir = FreshDir("account-elsewhere");
    Outcome d = RunFetch(Request(dir), RunProcess);
    CHECK(d.status == ExitStatus::kOk);
    CHECK(HasDiagnostic(d.diagnostics, codes::kAzAccountElsewhere, "--storage-subscription"));
    CHECK(fs::exists(fs::path(dir) / "artifacts/system_logs/data_capability/data-capability.log"));
    CHECK_FALSE(fs::exists(fs::path(dir) / "metrics/stmlcorpus01-egress.json"));
    // Given the account's subscription, az is asked there.
    FetchRequest there = Request(FreshDir("account-there"));
    there.workspace.storage_subscription = "1111";
    CHECK(AzStorageAccountShowArgv("stmlcorpus01", there.workspace)[7] == "1111");
  }
  // A job the workspace does not have.
  StandInAz plain;
  FetchRequest other = Request(FreshDir("other"));
  other.job = "no-such-job";
  CHECK(HasDiagnostic(RunFetch(other, RunProcess).diagnostics, codes::kAzNotFound, "no-such-job"));
}

TEST_CASE("fetch without az on PATH, and its flags", "[app][fetch]") {
  const std::string old = std::getenv("PATH") ? std::getenv("PATH") : "";
  setenv("PATH", "/nonexistent-feedcheck", 1);
  Outcome o = RunFetch(Request(FreshDir("no-az")), RunProcess);
  setenv("PATH", old.c_str(), 1);
  CHECK(HasDiagnostic(o.diagnostics, codes::kAzMissing, "cannot run `az ml job show"));
  FetchRequest missing = Request(FreshDir("flags"));
  missing.workspace.resource_group.clear();
  CHECK(RunFetch(missing, RunProcess).status == ExitStatus::kUsage);
}

TEST_CASE("the process runner: argv as given, no shell, a time limit", "[app][fetch]") {
  ProcessResult r = RunProcess({"printf", "%s", "$(echo hi); rm -rf /tmp/x `id` 'q'"}, 10);
  REQUIRE(r.started);
  CHECK(r.exit_code == 0);
  CHECK(r.out == "$(echo hi); rm -rf /tmp/x `id` 'q'");
  ProcessResult err = RunProcess({"sh", "-c", "echo oops >&2; exit 3"}, 10);
  CHECK(err.exit_code == 3);
  CHECK(err.err == "oops\n");
  ProcessResult slow = RunProcess({"sleep", "30"}, 0.3);
  CHECK(slow.timed_out);
  // Its output closed but still running: stopped at the limit all the same.
  ProcessResult quiet = RunProcess({"sh", "-c", "exec >&- 2>&-; sleep 30"}, 0.3);
  CHECK(quiet.timed_out);
  ProcessResult none = RunProcess({"feedcheck-no-such-program"}, 1);
  CHECK_FALSE(none.started);
  CHECK_FALSE(none.start_error.empty());
  CHECK(AzCommandFailure({"az", "x"}, slow)->code == codes::kAzTimeout);
}

TEST_CASE("az ml job show: window, inputs and the datastore or account each names",
          "[app][fetch]") {
  std::ifstream in(kStandIn + "/job-show.json");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  AzJob job;
  std::string error;
  REQUIRE(ParseAzJob(text, &job, &error));
  CHECK(job.status == "Completed");
  CHECK(ComputeName(job.compute) == "gpu-nd96asr");
  CHECK(ComputeName("/subscriptions/s/resourceGroups/r/providers/"
                    "Microsoft.MachineLearningServices/workspaces/w/computes/c1") == "c1");
  CHECK(ParseAzComputeSize(R"({"size":"STANDARD_NC24ADS_A100_V4"})") == "STANDARD_NC24ADS_A100_V4");
  CHECK(ParseAzComputeSize("[]").empty());
  CHECK(job.workspace_id ==
        "/subscriptions/0000/resourceGroups/rg-ml/providers/"
        "Microsoft.MachineLearningServices/workspaces/ws-ml");
  // properties.StartTimeUtc as azure-ai-ml prints it: a space, no zone (UTC).
  CHECK(job.start_utc == "2025-03-11 08:05:00");
  CHECK(job.end_utc == "2025-03-11 08:57:00");
  CHECK(job.instance_count == 3);
  REQUIRE(job.inputs.size() == 2);  // the literal input "epochs" is not a path
  CHECK(job.inputs[0].name == "labels");
  CHECK(job.inputs[0].account == "stmlcorpus01");
  CHECK(job.inputs[1].asset == "imagenet-train");
  CHECK(job.inputs[1].asset_version == "3");
  // A data asset by label, by its long URI; a datastore path is no asset.
  struct AssetCase {
    const char* path;
    const char* name;
    const char* version;
    const char* label;
  };
  for (const AssetCase& c :
       {AssetCase{"azureml:imagenet-train@latest", "imagenet-train", "", "latest"},
        AssetCase{"azureml:imagenet-train:12", "imagenet-train", "12", ""},
        AssetCase{"azureml://subscriptions/s/resourcegroups/r/workspaces/w/data/imagenet-train/"
                  "versions/3",
                  "imagenet-train", "3", ""},
        AssetCase{"azureml://datastores/ds/paths/a/b", "", "", ""}}) {
    AzJobInput input;
    input.path = c.path;
    ReadInputPath(&input);
    CHECK(input.asset == c.name);
    CHECK(input.asset_version == c.version);
    CHECK(input.asset_label == c.label);
  }
  CHECK(AzDataShowArgv("imagenet-train", "", "latest", AzWorkspace{"w", "g", "", ""})[6] ==
        "--label");
  AzJob full;
  REQUIRE(ParseAzJob(R"({"name":"j","properties":{"StartTimeUtc":"2025-01-01T00:00:00Z",
      "EndTimeUtc":"2025-01-01T01:00:00Z"},"inputs":{"d":{"path":
      "azureml://subscriptions/s/resourcegroups/rg/workspaces/w/datastores/ds2/paths/a/b"},
      "w":{"path":"wasbs://c@acct2.blob.core.windows.net/p"}}})",
                     &full, &error));
  CHECK(full.end_utc == "2025-01-01T01:00:00Z");
  CHECK(full.inputs[0].datastore == "ds2");
  CHECK(full.inputs[1].account == "acct2");
  CHECK_FALSE(ParseAzJob("[]", &full, &error));
  CHECK_FALSE(ParseAzJob(R"({"name":"j"})", &full, &error));
  CHECK(error.find("start") != std::string::npos);
  AzDatastore ds;
  CHECK_FALSE(ParseAzDatastore(R"({"name":"f","type":"azure_file"})", &ds, &error));
  CHECK(error.find("account_name") != std::string::npos);
}

TEST_CASE("fetch --jobs-since: the finished jobs of the window, a fleet postmortem reads",
          "[app][fetch]") {
  CHECK(ParseSince("7d") == Approx(7 * 86400));
  CHECK(ParseSince("36h") == Approx(36 * 3600));
  CHECK(ParseSince("90m") == Approx(90 * 60));
  CHECK_FALSE(ParseSince("7"));
  CHECK_FALSE(ParseSince("d"));
  CHECK_FALSE(ParseSince("-7d"));
  CHECK_FALSE(ParseSince("0d"));
  StandInAz az;
  FetchFleetRequest r;
  r.each = Request(FreshDir("fleet"));
  r.since_s = 7 * 86400;
  r.now_epoch_s = 1742000000;  // 2025-03-15T00:53:20Z
  Outcome o = RunFetchFleet(r, RunProcess);
  REQUIRE(o.has_report);
  CHECK(o.status == ExitStatus::kOk);
  // Finished and in the window: the bundled job and the one deleted since (a warning, its
  // folder removed); not the running one, not last month's.
  REQUIRE(o.report.tables.size() == 1);
  CHECK(o.report.tables[0].rows.size() == 2);
  CHECK(HasDiagnostic(o.diagnostics, codes::kAzNotFound, "deleted-since"));
  CHECK(fs::exists(fs::path(r.each.out_dir) / kJob / "metrics/stmlcorpus01-egress.json"));
  CHECK_FALSE(fs::exists(fs::path(r.each.out_dir) / "deleted-since"));
  CHECK_FALSE(fs::exists(fs::path(r.each.out_dir) / "still-running"));
  CHECK(o.report.verdict.find("fetched 1 of 2 finished jobs") == 0);
  Outcome pm = Postmortem(r.each.out_dir);
  REQUIRE(pm.has_report);
  // DIR/JOB/artifacts/: a fleet of the jobs fetched, each diagnosed.
  CHECK(pm.report.verdict.find("1 job") == 0);
  const FleetSummary fleet = FleetOf(pm.report);
  REQUIRE(fleet.jobs.size() == 1);
  CHECK(fleet.jobs[0].cause == "account egress");

  // Not logged in: the list fails, nothing is fetched.
  StandInAz out("not-logged-in");
  r.each.out_dir = FreshDir("fleet-refused");
  Outcome refused = RunFetchFleet(r, RunProcess);
  CHECK(refused.status == ExitStatus::kInputError);
  CHECK(HasDiagnostic(refused.diagnostics, codes::kAzNotLoggedIn, "az ml job list"));
}

TEST_CASE("fetch asks for every series: --top, asked again at the cap, a warning past it",
          "[app][fetch]") {
  StandInAz az;
  const std::string log = FreshDir("top-log") + ".jsonl";
  fs::create_directories(fs::path(log).parent_path());
  setenv("FEEDCHECK_AZ_LOG", log.c_str(), 1);
  const int series = GENERATE(9, 10, 150, 5000);
  setenv("FEEDCHECK_AZ_GPU_SERIES", std::to_string(series).c_str(), 1);
  const std::string dir = FreshDir("top-" + std::to_string(series));
  Outcome o = RunFetch(Request(dir), RunProcess);
  unsetenv("FEEDCHECK_AZ_GPU_SERIES");
  unsetenv("FEEDCHECK_AZ_LOG");
  REQUIRE(o.status == ExitStatus::kOk);
  const int kept = AzMetricsMostSeries(ReadText(fs::path(dir) / "metrics/workspace-gpu.json"));
  // Up to 1,600 series come whole (asked 100, then 400, then 1,600); past that, a warning.
  CHECK(kept == std::min(series, 1600));
  CHECK(HasDiagnostic(o.diagnostics, codes::kAzSeriesCapped, "GpuUtilization") == (series > 1600));
  // Every split asked with --top: the GPU metric and Transactions by ResponseType.
  const std::string asked = ReadText(log);
  CHECK(asked.find("\"--dimension\", \"ResponseType\", \"--top\", \"100\"") != std::string::npos);
  CHECK(asked.find("\"--top\", \"100\"") != std::string::npos);
  fs::remove(log);
}

// The mean of the points of a REST body's series (all of them: node "", else the one whose
// NodeId is `node`), computed from the file the stand-in serves.
double MeanOf(const std::string& rest_file, const std::string& node = "") {
  const auto body = nlohmann::json::parse(ReadText(rest_file));
  double sum = 0;
  int n = 0;
  for (const auto& ts : body["value"][0]["timeseries"]) {
    if (!node.empty() && ts["metadatavalues"][0]["value"] != node) continue;
    for (const auto& p : ts["data"]) {
      sum += p["average"].get<double>();
      ++n;
    }
  }
  return n ? sum / n : -1;
}

TEST_CASE("fetch: Azure ML's CpuUtilization for the job's nodes, read by the post-mortem",
          "[app][fetch][cpu]") {
  StandInAz az;
  const std::string log = FreshDir("cpu-log") + ".jsonl";
  fs::create_directories(fs::path(log).parent_path());
  fs::remove(log);
  setenv("FEEDCHECK_AZ_LOG", log.c_str(), 1);
  // By default the workspace kept no CPU series for the job: nothing written, said so, exit 0.
  const std::string none = FreshDir("cpu-none");
  Outcome o = RunFetch(Request(none), RunProcess);
  REQUIRE(o.status == ExitStatus::kOk);
  CHECK_FALSE(fs::exists(fs::path(none) / "metrics/workspace-cpu.json"));
  CHECK(NoteOf(o.report, "Azure ML CpuUtilization: none: ").find("no CpuUtilization samples") !=
        std::string::npos);
  CHECK_FALSE(Postmortem(none).report.evidence.facts.Number("cpu.samples").has_value());

  // With samples: every node's series, asked as the GPU metric is (the job's RunId, the same
  // window, --top), split by NodeId only.
  const std::string cpu = kStandIn + "/monitor-cpu-3.json";
  setenv("FEEDCHECK_AZ_CPU_METRICS", cpu.c_str(), 1);
  const std::string with = FreshDir("cpu-with");
  Outcome w = RunFetch(Request(with), RunProcess);
  unsetenv("FEEDCHECK_AZ_CPU_METRICS");
  unsetenv("FEEDCHECK_AZ_LOG");
  REQUIRE(w.status == ExitStatus::kOk);
  REQUIRE(fs::exists(fs::path(with) / "metrics/workspace-cpu.json"));
  CHECK(AzMetricsMostSeries(ReadText(fs::path(with) / "metrics/workspace-cpu.json")) == 3);
  CHECK(NoteOf(w.report, "Azure ML CpuUtilization: ") ==
        "Azure ML CpuUtilization: metrics/workspace-cpu.json.");
  std::vector<std::string> gpu_argv, cpu_argv;
  {
    std::ifstream in(log);
    for (std::string line; std::getline(in, line);) {
      const auto argv = nlohmann::json::parse(line).get<std::vector<std::string>>();
      const auto metric = std::find(argv.begin(), argv.end(), "--metric");
      if (metric == argv.end() || metric + 1 == argv.end()) continue;
      if (metric[1] == "GpuUtilization") gpu_argv = argv;
      if (metric[1] == "CpuUtilization") cpu_argv = argv;
    }
  }
  fs::remove(log);
  REQUIRE(cpu_argv.size() == gpu_argv.size());
  auto after = [](const std::vector<std::string>& argv, const std::string& flag) {
    const auto at = std::find(argv.begin(), argv.end(), flag);
    return at == argv.end() || at + 1 == argv.end() ? std::string("(none)") : at[1];
  };
  for (const char* flag :
       {"--resource", "--start-time", "--end-time", "--interval", "--aggregation", "--output"})
    CHECK(after(cpu_argv, flag) == after(gpu_argv, flag));
  CHECK(after(cpu_argv, "--filter") == "RunId eq '" + kJob + "' and NodeId eq '*'");
  CHECK(std::stoi(after(cpu_argv, "--top")) >= 10);

  // The post-mortem of the fetched folder, no flags: the nodes' CPU as facts.
  Outcome pm = Postmortem(with);
  REQUIRE(pm.has_report);
  const auto& facts = pm.report.evidence.facts;
  CHECK(facts.Number("cpu.samples").value_or(0) ==
        static_cast<double>(
            3 * nlohmann::json::parse(ReadText(cpu))["value"][0]["timeseries"][0]["data"].size()));
  CHECK(facts.Number("cpu.util_mean").value_or(-1) == Approx(MeanOf(cpu)));
  for (const char* node : {"tvmps_7c1d0e9a20_d", "tvmps_7c1d0e9a21_d", "tvmps_7c1d0e9a22_d"})
    CHECK(facts.Number(std::string("cpu.node_util_mean.") + node).value_or(-1) ==
          Approx(MeanOf(cpu, node)));

  // A workspace that refuses the metric: a warning naming it, the fetch goes on, exit 0.
  StandInAz refuses("forbidden", "CpuUtilization");
  Outcome f = RunFetch(Request(FreshDir("cpu-refused")), RunProcess);
  CHECK(f.status == ExitStatus::kOk);
  CHECK(HasDiagnostic(f.diagnostics, codes::kAzForbidden, "CpuUtilization"));
  CHECK(NoteOf(f.report, "Azure ML CpuUtilization: ") ==
        std::string("Azure ML CpuUtilization: not fetched: ") + codes::kAzForbidden + ".");
}

TEST_CASE("fetch: a CpuUtilization answer cut short or hostile is said, never a crash",
          "[app][fetch][cpu]") {
  StandInAz az;
  // Cut short (not JSON): a warning naming the command and why; nothing kept; the fetch goes on.
  const std::string cut = kStandIn + "/monitor-cpu-cut.json";
  setenv("FEEDCHECK_AZ_CPU_METRICS", cut.c_str(), 1);
  const std::string cut_dir = FreshDir("cpu-cut");
  Outcome c = RunFetch(Request(cut_dir), RunProcess);
  unsetenv("FEEDCHECK_AZ_CPU_METRICS");
  CHECK(c.status == ExitStatus::kOk);
  CHECK(HasDiagnostic(c.diagnostics, codes::kAzBadOutput, "--metric CpuUtilization"));
  CHECK(HasDiagnostic(c.diagnostics, codes::kAzBadOutput, "not JSON"));
  CHECK_FALSE(fs::exists(fs::path(cut_dir) / "metrics/workspace-cpu.json"));
  CHECK(NoteOf(c.report, "Azure ML CpuUtilization: ").find("not fetched") != std::string::npos);
  // JSON but no list of metrics: the field named.
  CHECK(AzMetricsNotAResponse("{\"value\": 3}").find("/value") != std::string::npos);
  CHECK(AzMetricsNotAResponse("[1]").find("not a JSON object") == 0);
  CHECK(AzMetricsNotAResponse(ReadText(kStandIn + "/monitor-cpu-3.json")).empty());

  // Hostile values (a string, 250 %, a negative, control characters in a node's name): kept as
  // az printed them; the post-mortem names the file and each bad field, and reads the rest.
  const std::string hostile = kStandIn + "/monitor-cpu-hostile.json";
  setenv("FEEDCHECK_AZ_CPU_METRICS", hostile.c_str(), 1);
  const std::string dir = FreshDir("cpu-hostile");
  Outcome h = RunFetch(Request(dir), RunProcess);
  unsetenv("FEEDCHECK_AZ_CPU_METRICS");
  REQUIRE(h.status == ExitStatus::kOk);
  REQUIRE(fs::exists(fs::path(dir) / "metrics/workspace-cpu.json"));
  Outcome pm = Postmortem(dir);
  REQUIRE(pm.has_report);
  const auto body = nlohmann::json::parse(ReadText(hostile));
  const auto& data = body["value"][0]["timeseries"][0]["data"];
  size_t good = 0;
  for (size_t i = 0; i < data.size(); ++i) {
    const auto& v = data[i]["average"];
    const bool ok = v.is_number() && v.get<double>() >= 0 && v.get<double>() <= 100;
    good += ok ? 1 : 0;
    if (ok) continue;
    bool named = false;
    for (const auto& d : pm.report.evidence.diagnostics.kept())
      named =
          named || (d.location.file.find("metrics/workspace-cpu.json") != std::string::npos &&
                    d.context == "/value/0/timeseries/0/data/" + std::to_string(i) + "/average");
    INFO("point " << i);
    CHECK(named);
  }
  CHECK(good < data.size());
  CHECK(pm.report.evidence.facts.Number("cpu.samples").value_or(0) == static_cast<double>(good));
  // No control character of the node's name reaches a fact's name.
  for (const Fact* f : pm.report.evidence.facts.WithPrefix("cpu."))
    for (char ch : f->key) CHECK(static_cast<unsigned char>(ch) >= 0x20);
}
