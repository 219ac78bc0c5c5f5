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

// Runs from the corpus folder, where the labels' relative paths (profiles/, with/) resolve.
CommandResult Postmortem(const std::string& job, const nlohmann::json& args,
                         const std::string& format) {
  std::string cmd =
      fmt::format("cd {} && {}/feedcheck --fail-on never postmortem {} --format {}",
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
  for (const char* v : {"account egress", "request rate", "client threads/CPU", "small files",
                        "access mode", "cache disk", "none found", "inconclusive"})
    CHECK(verdicts.count(v) == 1);
}

TEST_CASE("the demo job: account egress, confirmed, with the GPU time and what the fix buys",
          "[diagnosis][corpus]") {
  CommandResult term = Postmortem("job-demo", nlohmann::json::array(), "term");
  REQUIRE(term.exit_code == 0);
  CHECK(term.out.find("Verdict: ACCOUNT EGRESS, CONFIRMED") != std::string::npos);
  CHECK(term.out.find("GPU-minutes: all of it while the download ran") != std::string::npos);
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
