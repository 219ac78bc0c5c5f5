// The labelled corpus (tests/data/joblogs/corpus.json) end to end: its coverage, and the demo
// job through the real binary. Every job's verdict is checked against app::RunPostmortem in
// tests/app/postmortem_workflow_test.cpp.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "reports/report_json.h"
#include "tests/support/subprocess.h"

using namespace feedcheck::testing;

namespace {

const std::string kCorpus = std::string(FEEDCHECK_SOURCE_DIR) + "/tests/data/joblogs";

// Runs from the corpus folder, where the labels' relative paths (profiles/, with/) resolve;
// with -v (every diagnostic, note included) on a terminal wide enough that no line wraps.
CommandResult Postmortem(const std::string& job, const nlohmann::json& args,
                         const std::string& format) {
  std::string cmd =
      fmt::format("cd {} && COLUMNS=1000 {}/feedcheck -v --fail-on never postmortem {} --format {}",
                  ShellQuote(kCorpus), ShellQuote(FEEDCHECK_BINARY_DIR), ShellQuote(job), format);
  for (const auto& a : args) cmd += " " + ShellQuote(a.get<std::string>());
  return RunCommand(cmd);
}

nlohmann::json Labels() {
  std::ifstream in(kCorpus + "/corpus.json");
  REQUIRE(in.good());
  return nlohmann::json::parse(in);
}

}  // namespace

TEST_CASE("the corpus has at least 12 labelled jobs of every kind", "[diagnosis][corpus]") {
  auto jobs = Labels()["jobs"];
  REQUIRE(jobs.size() >= 12);
  std::set<std::string> verdicts;
  for (const auto& j : jobs) verdicts.insert(j["verdict"].get<std::string>());
  for (const char* v :
       {"account egress", "request rate", "client threads/CPU", "small files", "access mode",
        "cache disk", "none found", "inconclusive", "account ingress", "storage access failed"})
    CHECK(verdicts.count(v) == 1);
}

TEST_CASE("the demo job: account egress, confirmed, with the GPU time and what the fix buys",
          "[diagnosis][corpus]") {
  CommandResult term = Postmortem("job-demo", nlohmann::json::array(), "term");
  REQUIRE(term.exit_code == 0);
  CHECK(term.out.find("Verdict: ACCOUNT EGRESS, CONFIRMED") != std::string::npos);
  // The headline's split is the ledger's: most of it refused at the account's limit, never
  // "all of it" for a share under the whole.
  CHECK(term.out.find("GPU-minutes: 88% at the account's egress limit") != std::string::npos);
  CHECK(term.out.find("all of it") == std::string::npos);
  CHECK(term.out.find("What the fix buys (estimate): 2 accounts") != std::string::npos);
  // With the VM size known, the downloader-threads rule fires too (16 threads on 96 cores).
  CommandResult json =
      Postmortem("job-demo", {"--sku", "Standard_ND96asr_v4", "--nodes", "2"}, "json");
  auto r = nlohmann::json::parse(json.out);
  // Advice against the cause is secondary and its settings are not pasted: more downloader
  // threads against a throttled account only add 503s.
  bool threads_secondary = false;
  for (const auto& f : r["findings"])
    if (f["rule_id"] == "downloader-threads-low") threads_secondary = f.value("secondary", false);
  CHECK(threads_secondary);
  for (const auto& e : r["env"]) CHECK(e["name"] != "RSLEX_DOWNLOADER_THREADS");
  // The 503s: the node's own log and the account-wide metric, each by itself, never summed.
  CHECK(json.out.find("16453") == std::string::npos);
  // A saved result re-renders with its diagnosis and the findings' marks intact.
  feedcheck::Report back;
  feedcheck::DiagnosticList diags;
  REQUIRE(feedcheck::ReportFromJson(r, "demo.json", &back, &diags));
  auto again = feedcheck::ReportToJson(back);
  CHECK(again["diagnosis"] == r["diagnosis"]);
  CHECK(again["findings"] == r["findings"]);
  // The cause comes first; secondary findings last.
  REQUIRE(r["findings"].size() >= 2);
  CHECK(r["findings"][0]["class"] == "account_egress");
  bool seen_secondary = false;
  for (const auto& f : r["findings"]) {
    bool secondary = f.value("secondary", false);
    CHECK((!seen_secondary || secondary));
    seen_secondary |= secondary;
  }
}

TEST_CASE("odd input in the corpus: named by file and line, the rest of the job still read",
          "[diagnosis][corpus]") {
  // node-2's nvidia-smi loop died mid-write: its last line is cut.
  CommandResult cut =
      Postmortem("mount-prefetch-shallow-node-stops",
                 {"--sku", "Standard_ND96asr_v4", "--nodes", "3", "--region", "eastus"}, "term");
  REQUIRE(cut.exit_code == 0);
  CHECK(cut.out.find("Verdict: CLIENT THREADS/CPU, CONFIRMED") != std::string::npos);
  CHECK(cut.out.find("node-2/gpu/nvidia-smi.csv:1777: warning[A201]") != std::string::npos);
  // Two nodes' rslex logs read one after the other are not "lines going back in time".
  CHECK(cut.out.find("went back in time") == std::string::npos);
  // nvidia-smi in local time: a note names each file and the zone assumed.
  CommandResult local = Postmortem("nvidia-smi-local-time-small-files",
                                   {"--sku", "Standard_NC96ads_A100_v4", "--nodes", "2",
                                    "--profile", "profiles/nvidia-smi-local-time-small-files.yaml"},
                                   "term");
  REQUIRE(local.exit_code == 0);
  CHECK(local.out.find("gpu/nvidia-smi-0.csv: note[A223]") != std::string::npos);
  CHECK(local.out.find("read as local time UTC-07:00") != std::string::npos);
  CHECK(local.out.find("all of it on request latency") != std::string::npos);
}

TEST_CASE("odd input of the third pass: cut rows, other accounts, a stated zone",
          "[diagnosis][corpus]") {
  // The node went away mid-write: the GPU file's last row is cut short and named; the request
  // rate throttling is still found.
  CommandResult cut =
      Postmortem("request-throttled-gpu-stall-cut-lines",
                 {"--sku", "Standard_ND96asr_v4", "--nodes", "1", "--region", "eastus"}, "term");
  REQUIRE(cut.exit_code == 0);
  CHECK(cut.out.find("Verdict: REQUEST RATE, CONFIRMED") != std::string::npos);
  CHECK(cut.out.find("gpu/nvidia-smi.csv:3410: warning[A201]: 4 columns, the header has 5") !=
        std::string::npos);
  // The logs' cut last lines still read, each with a note at its line.
  CHECK(cut.out.find("data_capability/data-capability.log:3: note[A207]") != std::string::npos);
  CHECK(cut.out.find("data_capability/rslex.log.2026-04-07-11:1221: note[A207]") !=
        std::string::npos);
  // Metrics of another account are set aside with both accounts named, and not blamed.
  CommandResult other =
      Postmortem("throttled-other-account-metrics",
                 {"--sku", "Standard_ND96asr_v4", "--nodes", "2", "--region", "eastus"}, "term");
  REQUIRE(other.exit_code == 0);
  const std::string all = other.out + other.err;
  CHECK(all.find("metrics/storage-metrics.json: warning[A213]") != std::string::npos);
  CHECK(all.find("'stlogsarchive02', but the job read 'stimagenet01'") != std::string::npos);
  CHECK(other.out.find("Verdict: ACCESS MODE, CONFIRMED") != std::string::npos);
  // A zone stated on the command line is used, and said; a bad one is a usage error.
  CommandResult ist = Postmortem(
      "nvidia-smi-ist-long-job",
      {"--sku", "Standard_ND96asr_v4", "--nodes", "1", "--gpu-utc-offset", "+05:30"}, "term");
  REQUIRE(ist.exit_code == 0);
  CHECK(ist.out.find("read as local time UTC+05:30, as --gpu-utc-offset states") !=
        std::string::npos);
  CommandResult bad =
      Postmortem("nvidia-smi-ist-long-job", {"--gpu-utc-offset=Asia/Kolkata"}, "term");
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("'Asia/Kolkata' is not a UTC offset") != std::string::npos);
}

TEST_CASE("causes charged only the idle time they coincided with, claims checked",
          "[diagnosis][corpus]") {
  // The demo: the cause's cost once; the finding on the same minutes has none of its own.
  CommandResult demo = Postmortem("job-demo", nlohmann::json::array(), "term");
  REQUIRE(demo.exit_code == 0);
  CHECK(demo.out.find("cost: 109 GPU-minutes (88% of the GPU time lost)") != std::string::npos);
  CHECK(demo.out.find("none of its own: the idle time of its kind is charged to the finding "
                      "above") != std::string::npos);
  // A node idle while it read nothing: not storage, named; small files take none of its time.
  CommandResult idle = Postmortem("idle-node-reads-nothing",
                                  {"--sku", "Standard_ND96asr_v4", "--nodes", "4", "--region",
                                   "eastus", "--profile", "profiles/idle-node-reads-nothing.yaml"},
                                  "term");
  REQUIRE(idle.exit_code == 0);
  CHECK(idle.out.find("Verdict: NOT STORAGE, CONFIRMED") != std::string::npos);
  CHECK(idle.out.find("Not storage: node-3: GPUs") != std::string::npos);
  // Two HEAD 404s at the start do not explain an upload that failed an hour later, and a job
  // whose input was read is never said to have not got past it.
  CommandResult late =
      Postmortem("head-404-optional-upload-timeout",
                 {"--sku", "Standard_ND96asr_v4", "--nodes", "1", "--region", "eastus"}, "term");
  REQUIRE(late.exit_code == 0);
  CHECK(late.out.find("Verdict: NO STORAGE BOTTLENECK, CONFIRMED") != std::string::npos);
  CHECK(late.out.find("before the upload that failed: they did not end the job") !=
        std::string::npos);
  CHECK(late.out.find("The output upload failed") != std::string::npos);
  CHECK(late.out.find("never got past its input") == std::string::npos);
  // Throttled with the account far below its limits: a blob or partition target, cited; the
  // --region given is not asked for again.
  CommandResult blob =
      Postmortem("blob-target-hot-shards-sync-body",
                 {"--sku", "Standard_ND96asr_v4", "--nodes", "1", "--region", "eastus"}, "term");
  REQUIRE(blob.exit_code == 0);
  CHECK(blob.out.find("Verdict: BLOB OR PARTITION TARGET, LIKELY") != std::string::npos);
  CHECK(blob.out.find("\"Scalability and performance targets for Blob storage\", "
                      "https://learn.microsoft.com/azure/storage/blobs/scalability-targets") !=
        std::string::npos);
  CHECK(blob.out.find("--region /") == std::string::npos);  // evidence may say "declared: --region"
  // A cache cap that thrashes: the advice lifts it.
  CommandResult cache = Postmortem("cache-cap-thrash-mount",
                                   {"--sku", "Standard_ND96asr_v4", "--nodes", "1", "--region",
                                    "eastus", "--profile", "profiles/cache-cap-thrash-mount.yaml"},
                                   "json");
  auto r = nlohmann::json::parse(cache.out);
  CHECK(r["diagnosis"]["cause"] == "cache disk");
  bool lifted = false;
  for (const auto& e : r["env"])
    if (e["name"] == "DATASET_MOUNT_CACHE_SIZE") lifted = e["value"] == "-10GB";
  CHECK(lifted);
}
