// `feedcheck postmortem` end to end on the analyzers' demo job (a 2-node download job starved by
// 503 egress throttling): the real binary, built-in rules, each output, the exit codes.
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "reports/report_json.h"
#include "tests/reports/golden.h"

using namespace feedcheck;

namespace {

// One scratch directory per process: ctest runs the cases of this file in parallel, and each
// writes its stderr.txt there.
const std::string kDir =
    std::string(FEEDCHECK_BINARY_DIR) + "/postmortem_cli_test-" + std::to_string(getpid());
// Removed when the process ends, so runs leave no scratch folders in the build directory.
const struct ScratchCleanup {
  ~ScratchCleanup() {
    std::error_code ignored;
    std::filesystem::remove_all(kDir, ignored);
  }
} kScratchCleanup;
const std::string kJob = std::string(FEEDCHECK_SOURCE_DIR) + "/tests/data/joblogs/job-demo";

struct Run {
  int code = -1;
  std::string out;
};

Run Feedcheck(const std::string& args) {
  std::filesystem::create_directories(kDir);
  std::string cmd =
      fmt::format("'{}/feedcheck' {} 2>'{}/stderr.txt'", FEEDCHECK_BINARY_DIR, args, kDir);
  Run run;
  FILE* pipe = popen(cmd.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), pipe)) > 0) run.out.append(buf, n);
  int status = pclose(pipe);
  run.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

}  // namespace

TEST_CASE("postmortem names the bottleneck of the demo job", "[reports][cli][postmortem]") {
  Run json = Feedcheck("--fail-on never postmortem " + kJob + " --format json");
  INFO(feedcheck::testing::ReadFileOrEmpty(kDir + "/stderr.txt"));
  REQUIRE(json.code == 0);
  auto j = nlohmann::json::parse(json.out);
  CHECK(j["kind"] == kReportKind);
  CHECK(j["title"] == "Post-mortem");
  // As the README runs it, with no flags: the log's 503s (Service Unavailable, no limit named)
  // and the account's metrics (bandwidth throttling, Egress at the limit of its region, eastus,
  // named by the metrics response) agree. The client's own latency is secondary: the account
  // capped it.
  CHECK(j["verdict"] == "account egress, confirmed");
  CHECK(json.out.find("client-bound-latency") != std::string::npos);
  CHECK(j["verdict_level"] == "bad");
  CHECK(j["diagnosis"]["gpu"]["known"] == true);
  CHECK(json.out.find("throttled-egress") != std::string::npos);
  // The metrics name the limit: no "limit unknown" beside it.
  CHECK(json.out.find("throttled-server-busy") == std::string::npos);
  CHECK(j["findings"].size() >= 1);
  CHECK(j["evidence"]["series"].size() >= 1);

  // Re-rendering the saved result gives the same report.
  std::string saved = kDir + "/RESULT.json";
  std::ofstream(saved) << json.out;
  std::string html = kDir + "/report.html";
  CHECK(Feedcheck("report " + saved + " --format html -o " + html).code == 0);
  CHECK(feedcheck::testing::ReadFileOrEmpty(html).find("account egress") != std::string::npos);
}

TEST_CASE(
    "without GPU samples the verdict keeps the cause's confidence and says GPU time is "
    "unmeasured",
    "[reports][cli][postmortem]") {
  const std::string corpus = std::string(FEEDCHECK_SOURCE_DIR) + "/tests/data/joblogs/";
  const std::string flags = " --sku Standard_ND96asr_v4 --nodes 10 --region eastus";
  const std::string qualifier = "GPU time not measured (no GPU samples)";
  for (const char* job : {"no-gpu-egress-throttled", "job-demo"}) {
    const bool measured = std::string(job) == "job-demo";
    INFO(job);
    Run json = Feedcheck("--fail-on never postmortem " + corpus + job + flags + " --format json");
    REQUIRE(json.code == 0);
    auto j = nlohmann::json::parse(json.out);
    // The cause's confidence, unchanged for scripts; whether its cost was measured beside it.
    CHECK(j["result"]["confidence"] == "confirmed");
    REQUIRE(j["result"].contains("gpu_time_measured"));
    CHECK(j["result"]["gpu_time_measured"] == measured);
    CHECK(j["diagnosis"]["confidence"] == "confirmed");
    CHECK(j["diagnosis"]["gpu"]["known"] == measured);
    const std::string verdict = j["verdict"];
    CHECK(verdict.rfind("account egress, confirmed", 0) == 0);
    CHECK((verdict.find(qualifier) != std::string::npos) == !measured);
    // Every format shows it where it shows the verdict.
    for (const char* format : {"term", "md", "html"}) {
      INFO(format);
      Run out =
          Feedcheck("--fail-on never postmortem " + corpus + job + flags + " --format " + format);
      REQUIRE(out.code == 0);
      std::string text = out.out;
      if (std::string(format) == "term")
        std::transform(text.begin(), text.end(), text.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      std::string wanted =
          std::string(format) == "term" ? "gpu time not measured (no gpu samples)" : qualifier;
      CHECK((text.find(wanted) != std::string::npos) == !measured);
    }
  }
}

TEST_CASE("postmortem exit codes: findings at --fail-on, unreadable input",
          "[reports][cli][postmortem]") {
  CHECK(Feedcheck("--fail-on warning postmortem " + kJob).code == 1);
  Run missing = Feedcheck("postmortem " + kDir + "/no-such-job");
  CHECK(missing.code == 3);
  CHECK(feedcheck::testing::ReadFileOrEmpty(kDir + "/stderr.txt").find("no-such-job") !=
        std::string::npos);
}

TEST_CASE("postmortem: the account the job read from, and measurements set beside the job",
          "[reports][cli][postmortem]") {
  // Named, the account's 200 Gbit/s limit is what the job's egress peak reached, as the log's
  // 503s say: two sources agree.
  Run named = Feedcheck("--fail-on never postmortem " + kJob +
                        " --region eastus --sku Standard_ND96asr_v4 "
                        "--nodes 2 --format json");
  REQUIRE(named.code == 0);
  auto j = nlohmann::json::parse(named.out);
  CHECK(j["verdict"] == "account egress, confirmed");
  CHECK(named.out.find("egress-at-limit-observed") != std::string::npos);

  // --with: a saved probe result's measured facts and probe charts join the job's evidence;
  // what that run declared (its node count) does not.
  std::string saved = kDir + "/measured.json";
  std::ofstream(saved) << R"json({"schema_version": 1, "facts": [
    {"key": "probe.throughput.gbps", "value": 7.5, "unit": "Gbit/s",
     "provenance": {"origin": "measured", "source": "probe throughput"}},
    {"key": "node.count", "value": 40, "unit": "count",
     "provenance": {"origin": "declared", "source": "--nodes"}}],
   "series": [{"key": "probe.throughput.by_concurrency", "title": "t", "x_label": "connections",
               "x_unit": "count", "y_label": "throughput", "y_unit": "Gbit/s",
               "points": [[1, 2.5], [2, 5.0], [4, 7.5]]}]})json";
  Run with =
      Feedcheck("--fail-on never postmortem " + kJob + " --with " + saved + " --format json");
  INFO(feedcheck::testing::ReadFileOrEmpty(kDir + "/stderr.txt"));
  REQUIRE(with.code == 0);
  auto w = nlohmann::json::parse(with.out);
  bool measured = false, declared_nodes = false, series = false;
  for (const auto& f : w["evidence"]["facts"]) {
    measured |= f["key"] == "probe.throughput.gbps" && f["value"] == 7.5;
    declared_nodes |= f["key"] == "node.count";
  }
  for (const auto& s : w["evidence"]["series"])
    series |= s["key"] == "probe.throughput.by_concurrency";
  CHECK(measured);
  CHECK_FALSE(declared_nodes);
  CHECK(series);
  CHECK(Feedcheck("postmortem " + kJob + " --with " + kDir + "/no-such.json").code == 3);
}

TEST_CASE("postmortem and analyze of an empty job folder say what they looked for and where",
          "[reports][cli][postmortem]") {
  std::string empty = kDir + "/empty-job";
  std::filesystem::create_directories(empty);
  for (const char* command : {"postmortem", "analyze"}) {
    Run run = Feedcheck(fmt::format("{} {}", command, empty));
    std::string err = feedcheck::testing::ReadFileOrEmpty(kDir + "/stderr.txt");
    INFO(command << ": " << err);
    CHECK(run.code == 3);
    CHECK(err.find("nothing readable in " + empty + ": an empty folder") != std::string::npos);
    for (const char* looked_for : {"data-capability.log", "rslex.log.*", "nvidia-smi CSV", "DCGM",
                                   "metrics JSON or CSV", "StorageBlobLogs"})
      CHECK(err.find(looked_for) != std::string::npos);
    for (const char* where : {"\"Outputs + logs\"", "system_logs/data_capability/", "user_logs/",
                              "azureml-logs/", "az ml job download --name JOB_NAME --all"})
      CHECK(err.find(where) != std::string::npos);
    // Public pages, by title and URL.
    CHECK(err.find("\"Access data in a job\"") != std::string::npos);
    CHECK(
        err.find("https://learn.microsoft.com/azure/machine-learning/how-to-read-write-data-v2") !=
        std::string::npos);
  }
  Run missing = Feedcheck("postmortem " + kDir + "/no-such-job");
  CHECK(missing.code == 3);
  CHECK(feedcheck::testing::ReadFileOrEmpty(kDir + "/stderr.txt")
            .find("no-such-job: does not exist") != std::string::npos);
}

TEST_CASE("postmortem --with an emulator's result: kept apart, never the job's findings",
          "[reports][cli][postmortem]") {
  // A pre-flight against a local Azurite, saved: its figures (the emulator's throughput, this
  // machine's slow disk) describe this machine, not the storage the job read.
  std::filesystem::create_directories(kDir);
  std::string saved = kDir + "/emulator.json";
  std::ofstream(saved) << R"json({"schema_version": 1, "kind": "feedcheck-report",
    "title": "Pre-flight check", "verdict": "will starve the GPUs",
    "context": {"target": "http://127.0.0.1:10000/devstoreaccount1/x"},
    "result": {"peak_gbps": 6.1},
    "evidence": {"schema_version": 1, "facts": [
    {"key": "probe.throughput.gbps", "value": 6.1, "unit": "Gbit/s",
     "provenance": {"origin": "measured", "source": "probe throughput"}},
    {"key": "probe.disk.write_gbps", "value": 0.4, "unit": "Gbit/s",
     "provenance": {"origin": "measured", "source": "probe disk"}},
    {"key": "target.loopback", "value": true, "unit": "bool",
     "provenance": {"origin": "measured", "source": "probe target http://127.0.0.1:10000/x"}},
    {"key": "target.emulator", "value": true, "unit": "bool",
     "provenance": {"origin": "measured", "source": "probe target http://127.0.0.1:10000/x"}}],
    "series": [{"key": "probe.throughput.by_concurrency", "title": "t", "x_label": "connections",
               "x_unit": "count", "y_label": "throughput", "y_unit": "Gbit/s",
               "points": [[1, 2.5], [2, 5.0], [4, 6.1]]}]}})json";
  Run json = Feedcheck("--fail-on never postmortem " + kJob + " --region eastus --with " + saved +
                       " --format json");
  INFO(feedcheck::testing::ReadFileOrEmpty(kDir + "/stderr.txt"));
  REQUIRE(json.code == 0);
  auto j = nlohmann::json::parse(json.out);
  // Decided by the job's own logs and the account's metrics, as without --with.
  CHECK(j["verdict"] == "account egress, confirmed");
  CHECK_FALSE(j.contains("measurement_caveat"));
  for (const auto& f : j["evidence"]["facts"]) {
    std::string key = f["key"];
    INFO(key);
    CHECK(key.rfind("probe.", 0) != 0);
    CHECK(key.rfind("target.", 0) != 0);
  }
  for (const auto& s : j["evidence"]["series"])
    CHECK(s["key"] != "probe.throughput.by_concurrency");
  for (const auto& f : j["findings"])
    for (const auto& e : f["evidence"]) CHECK(e["key"].get<std::string>().rfind("probe.", 0) != 0);
  bool apart = false;
  for (const auto& t : j["tables"])
    apart |= t["title"].get<std::string>().rfind("Measured elsewhere", 0) == 0 &&
             t["title"].get<std::string>().find("127.0.0.1:10000") != std::string::npos;
  CHECK(apart);
  // Every format shows it apart, under a label that says it is not this job's.
  for (const char* format : {"term", "md", "html"}) {
    Run r =
        Feedcheck(fmt::format("--fail-on never postmortem {} --region eastus --with {} "
                              "--format {}",
                              kJob, saved, format));
    INFO(format);
    CHECK(r.out.find("Measured elsewhere, not part of this post-mortem") != std::string::npos);
    CHECK(r.out.find("storage emulator") != std::string::npos);
  }
}

TEST_CASE("postmortem evidence: times as UTC, each node's GPU facts name its own file",
          "[reports][cli][postmortem]") {
  Run json = Feedcheck("--fail-on never postmortem " + kJob + " --format json");
  REQUIRE(json.code == 0);
  CHECK(json.out.find("at epoch") == std::string::npos);
  CHECK(json.out.find("Egress at 2024-05-01T") != std::string::npos);
  auto j = nlohmann::json::parse(json.out);
  int checked = 0;
  for (const auto& f : j["evidence"]["facts"]) {
    std::string key = f["key"];
    bool node1 = key.find("node-1") != std::string::npos;
    bool node0 = key.find("node-0") != std::string::npos;
    if (key.rfind("gpu.", 0) != 0 || (!node0 && !node1)) continue;
    std::string file = f["provenance"].value("file", "");
    INFO(key << " from " << file);
    CHECK(file.find(node1 ? "node-1" : "node-0") != std::string::npos);
    ++checked;
  }
  CHECK(checked >= 8);  // per-GPU means and per-node totals of both nodes
}

TEST_CASE("postmortem says less by default and fits the terminal", "[reports][cli][postmortem]") {
  // A terminal of 100 columns ($COLUMNS), and of 60.
  for (int columns : {100, 60}) {
    std::string cmd = fmt::format(
        "env COLUMNS={} '{}/feedcheck' --fail-on never postmortem '{}' --region eastus --sku "
        "Standard_ND96asr_v4 --nodes 2 2>/dev/null",
        columns, FEEDCHECK_BINARY_DIR, kJob);
    std::string out;
    FILE* pipe = popen(cmd.c_str(), "r");
    REQUIRE(pipe != nullptr);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof(buf), pipe)) > 0) out.append(buf, n);
    CHECK(pclose(pipe) == 0);
    std::istringstream lines(out);
    std::string line, last_verdict;
    int count = 0;
    while (std::getline(lines, line)) {
      ++count;
      size_t width = 0;
      for (unsigned char c : line) width += (c & 0xC0) != 0x80;
      INFO(columns << " columns: " << line);
      // Only one unbreakable word (a path, a URL) may run over.
      if (width > static_cast<size_t>(columns))
        CHECK(line.find(' ', line.find_first_not_of(' ')) == std::string::npos);
      if (line.rfind("Verdict:", 0) == 0) last_verdict = line;
    }
    INFO(out);
    CHECK(count <= (columns == 100 ? 55 : 75));  // it was 170 lines, the widest 393
    CHECK(last_verdict == "Verdict: ACCOUNT EGRESS, CONFIRMED");
    CHECK(out.find("-v: every finding, fact and rule") != std::string::npos);
  }
  // -v still lists every fact.
  CHECK(Feedcheck(fmt::format("-v --fail-on never postmortem {} --region eastus", kJob))
            .out.find("Key facts") != std::string::npos);
}

TEST_CASE("postmortem of a folder of jobs: a fleet, one row per job, every format",
          "[reports][cli][postmortem][fleet]") {
  const std::string corpus = std::string(FEEDCHECK_SOURCE_DIR) + "/tests/data/joblogs";
  // The terminal at 100 columns: one table, never a "job" of 50-odd nodes.
  Run term = Feedcheck("postmortem " + corpus + " --workers 2");
  INFO(feedcheck::testing::ReadFileOrEmpty(kDir + "/stderr.txt"));
  CHECK(term.code == 1);  // jobs with critical findings
  CHECK(term.out.find("feedcheck Fleet post-mortem") != std::string::npos);
  CHECK(term.out.find(" JOBS: ") != std::string::npos);
  CHECK(term.out.find("Jobs (") != std::string::npos);
  CHECK(term.out.find("Nodes (") == std::string::npos);
  std::istringstream lines(term.out);
  for (std::string line; std::getline(lines, line);) {
    size_t points = 0;
    for (unsigned char c : line) points += (c & 0xC0) != 0x80;
    INFO(line);
    CHECK(points <= 100);
  }
  // --layout job: the old reading, one job whose nodes are the folders.
  Run one = Feedcheck("--fail-on never postmortem " + corpus + " --layout job --format json");
  REQUIRE(one.code == 0);
  CHECK(nlohmann::json::parse(one.out)["title"] == "Post-mortem");
  // JSON with a price: the jobs and the totals, money marked an estimate.
  Run json =
      Feedcheck("--fail-on never postmortem " + corpus + " --gpu-hour-price 2.5 --format json");
  REQUIRE(json.code == 0);
  auto j = nlohmann::json::parse(json.out);
  std::ifstream labels(corpus + "/corpus.json");
  CHECK(j["fleet"]["jobs"].size() == nlohmann::json::parse(labels)["jobs"].size());
  CHECK(j["fleet"]["totals"]["price"]["note"].get<std::string>().find("estimate") !=
        std::string::npos);
  CHECK(j["result"].contains("lost_usd_estimate"));
  // HTML and Markdown to files, by extension.
  Run html = Feedcheck("--fail-on never postmortem " + corpus + " -o " + kDir + "/fleet.html");
  REQUIRE(html.code == 0);
  std::string page = feedcheck::testing::ReadFileOrEmpty(kDir + "/fleet.html");
  CHECK(page.find("GPU time lost by cause") != std::string::npos);
  CHECK(page.find("<script") == std::string::npos);
  Run md = Feedcheck("--fail-on never postmortem " + corpus + " -o " + kDir + "/fleet.md");
  REQUIRE(md.code == 0);
  CHECK(feedcheck::testing::ReadFileOrEmpty(kDir + "/fleet.md").find("| job-demo |") !=
        std::string::npos);
  // Bad flag values name the flag.
  CHECK(Feedcheck("postmortem " + corpus + " --gpu-hour-price -1").code == 2);
  CHECK(Feedcheck("postmortem " + corpus + " --layout nodes").code == 2);
  CHECK(Feedcheck("postmortem " + corpus + " --metrics " + kJob + "/metrics/storage-metrics.json")
            .code == 2);
  CHECK(feedcheck::testing::ReadFileOrEmpty(kDir + "/stderr.txt").find("--metrics") !=
        std::string::npos);
}

TEST_CASE("postmortem prices GPU time from the size's dated public price, with its source",
          "[reports][cli][postmortem][money]") {
  const std::string job =
      std::string(FEEDCHECK_SOURCE_DIR) + "/tests/data/joblogs/egress-throttled-download";
  setenv("COLUMNS", "400", 1);  // the notes on one line each, to find them whole
  Run term = Feedcheck("--fail-on never postmortem " + job + " --sku Standard_ND96asr_v4");
  INFO(feedcheck::testing::ReadFileOrEmpty(kDir + "/stderr.txt"));
  REQUIRE(term.code == 0);
  CHECK(term.out.find("GPU time in money (an estimate)") != std::string::npos);
  CHECK(term.out.find("not a bill") != std::string::npos);
  // The screen names the source by its title when it must say less; -v says it whole.
  CHECK((term.out.find("source: data-receipts") != std::string::npos ||
         term.out.find("3.400 USD per GPU-hour (Standard_ND96asr_v4, eastus, 2026-11-09, \"109 - "
                       "What an H100 actually costs per hour\"); -v: the source") !=
             std::string::npos));
  Run whole = Feedcheck("-v --fail-on never postmortem " + job + " --sku Standard_ND96asr_v4");
  REQUIRE(whole.code == 0);
  CHECK(whole.out.find("An estimate from Standard_ND96asr_v4: 27.197 USD per VM-hour "
                       "pay-as-you-go (Linux, eastus, as of 2026-11-09) / 8 GPUs") !=
        std::string::npos);
  CHECK(whole.out.find("source: data-receipts") != std::string::npos);
  CHECK(whole.out.find("https://raw.githubusercontent.com/datareceipts") != std::string::npos);
  // JSON: the same table, the figure and its note.
  Run json =
      Feedcheck("--fail-on never postmortem " + job + " --sku Standard_ND96asr_v4 --format json");
  REQUIRE(json.code == 0);
  auto j = nlohmann::json::parse(json.out);
  bool found = false;
  for (const auto& t : j["tables"])
    if (t["title"] == "GPU time in money (an estimate)") {
      found = true;
      CHECK(t.dump().find("https://raw.githubusercontent.com/datareceipts") != std::string::npos);
    }
  CHECK(found);
  // --gpu-hour-price overrides, and says so.
  Run given = Feedcheck("-v --fail-on never postmortem " + job +
                        " --sku Standard_ND96asr_v4 --gpu-hour-price 2");
  REQUIRE(given.code == 0);
  CHECK(given.out.find("An estimate from the price you gave (--gpu-hour-price 2.00 USD per "
                       "GPU-hour)") != std::string::npos);
  CHECK(given.out.find("data-receipts") == std::string::npos);
  // A size with no public price: unpriced, and the output says what to give.
  Run unpriced = Feedcheck("--fail-on never postmortem " + job + " --sku Standard_ND40rs_v2");
  REQUIRE(unpriced.code == 0);
  CHECK(unpriced.out.find(
            "no public price known for SKU Standard_ND40rs_v2: give --gpu-hour-price") !=
        std::string::npos);
  unsetenv("COLUMNS");
}

TEST_CASE("fetch and postmortem --job with a stand-in az on PATH", "[reports][cli][fetch]") {
  const std::string standin = std::string(FEEDCHECK_SOURCE_DIR) + "/tests/data/az-standin";
  const std::string bundled =
      std::string(FEEDCHECK_SOURCE_DIR) + "/tests/data/joblogs/egress-throttled-download";
  const std::string old_path = std::getenv("PATH") ? std::getenv("PATH") : "";
  setenv("PATH", (standin + ":" + old_path).c_str(), 1);
  setenv("FEEDCHECK_AZ_JOB_DIR", bundled.c_str(), 1);
  std::filesystem::remove_all(kDir + "/fetched");
  Run fetched = Feedcheck("fetch egress-throttled-download -w ws-ml -g rg-ml -o " + kDir +
                          "/fetched --format json");
  INFO(feedcheck::testing::ReadFileOrEmpty(kDir + "/stderr.txt"));
  CHECK(fetched.code == 0);
  CHECK(nlohmann::json::parse(fetched.out)["title"] == "Fetch");
  CHECK(fetched.out.find("STANDINSECRETSIG") == std::string::npos);
  Run from_fetch = Feedcheck("--fail-on never postmortem " + kDir + "/fetched --format json");
  Run from_bundle = Feedcheck("--fail-on never postmortem " + bundled + " --format json");
  auto a = nlohmann::json::parse(from_fetch.out), b = nlohmann::json::parse(from_bundle.out);
  CHECK(a["verdict"] == b["verdict"]);
  CHECK(a["result"] == b["result"]);
  CHECK(a["diagnosis"]["cause"] == b["diagnosis"]["cause"]);
  // In one step, and the failures az reports, by exit status and message.
  Run both = Feedcheck(
      "--fail-on never postmortem --job egress-throttled-download -w ws-ml "
      "-g rg-ml --fetch-dir " +
      kDir + "/both --format json");
  CHECK(both.code == 0);
  CHECK(nlohmann::json::parse(both.out)["verdict"] == b["verdict"]);
  setenv("FEEDCHECK_AZ_FAIL", "not-logged-in", 1);
  Run refused =
      Feedcheck("fetch egress-throttled-download -w ws-ml -g rg-ml -o " + kDir + "/refused");
  const std::string err = feedcheck::testing::ReadFileOrEmpty(kDir + "/stderr.txt");
  unsetenv("FEEDCHECK_AZ_FAIL");
  unsetenv("FEEDCHECK_AZ_JOB_DIR");
  setenv("PATH", old_path.c_str(), 1);
  CHECK(refused.code == 3);
  CHECK(err.find("W041") != std::string::npos);
  CHECK(err.find("run 'az login'") != std::string::npos);
  CHECK(Feedcheck("postmortem --job j").code == 2);  // no workspace: a usage error
  CHECK(Feedcheck("postmortem " + kJob + " --job j -w w -g g").code == 2);  // both
}
