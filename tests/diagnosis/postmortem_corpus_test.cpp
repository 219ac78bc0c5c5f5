// Every job of the labelled corpus (tests/data/joblogs/corpus.json) through the real binary:
// the verdict a storage engineer gives, its confidence, the GPU time lost (computed by the
// generator from the samples it wrote) and, for a multi-node job, the straggler.
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

TEST_CASE("every corpus job gets the verdict, confidence and GPU time of its label",
          "[diagnosis][corpus]") {
  int checked = 0;
  const nlohmann::json labels = Labels();  // kept alive: the loop reads into it
  for (const auto& label : labels["jobs"]) {
    std::string name = label["name"];
    {
      INFO("job " << name << ": " << label["why"].get<std::string>());
      ++checked;
      CommandResult run = Postmortem(name, label["args"], "json");
      REQUIRE(run.exit_code == 0);
      auto report = nlohmann::json::parse(run.out);
      const auto& d = report["diagnosis"];
      CHECK(d["cause"] == label["verdict"]);
      CHECK(d["confidence"] == label["confidence"]);
      if (label["gpu_lost_gpu_s"].is_null()) {
        CHECK(d["gpu"]["known"] == false);
      } else {
        REQUIRE(d["gpu"]["known"] == true);
        double want = label["gpu_lost_gpu_s"];
        double got = d["gpu"]["lost_gpu_s"];
        // The generator counts samples x interval; within 2% (N/A samples, clock jitter).
        CHECK(std::abs(got - want) <= 0.02 * std::max(want, 60.0));
      }
      // "none found" only when the GPUs were seen busy; "inconclusive" names what would tell.
      if (d["cause"] == "none found") CHECK(d["gpu"]["known"] == true);
      if (d["confidence"] == "inconclusive")
        CHECK_FALSE(d["settle_with"].get<std::string>().empty());
      // A multi-node job is read as a cluster: one row per node.
      if (label.contains("nodes")) CHECK(d["nodes"].size() == label["nodes"].get<size_t>());
      if (label.contains("straggler")) {
        REQUIRE(d["nodes"].size() >= 2);
        std::string straggler = label["straggler"];
        CHECK(d["straggler"].get<std::string>().rfind(straggler, 0) == 0);
        // What the fix buys: the slow node catching up with the others.
        CHECK(d["estimate"]["text"].get<std::string>().rfind(
                  straggler + " at the other nodes' pace", 0) == 0);
      }
      // Findings carry their rule's class and basis, and the cost the post-mortem put on them.
      for (const auto& f : report["findings"]) {
        CHECK(f.contains("class"));
        CHECK(f.contains("basis"));
      }
    }
  }
  CHECK(checked == static_cast<int>(labels["jobs"].size()));
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
