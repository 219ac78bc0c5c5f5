#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <set>
#include <string>
#include <vector>

#include "run_feedcheck.h"

// lint through the binary: the table for people, the JSON shape, SARIF, exit codes. What each
// problem says is tested against app::RunLint in tests/app/lint_workflow_test.cpp.
namespace {
std::string Job(const std::string& name) {
  return std::string(FEEDCHECK_SOURCE_DIR) + "/tests/data/jobs/" + name;
}
bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}
}  // namespace

TEST_CASE("lint prints the change to make with file:line", "[cli][lint]") {
  std::string job = std::string(FEEDCHECK_SOURCE_DIR) + "/examples/jobs/train-images-12-nodes.yml";
  std::string profile =
      std::string(FEEDCHECK_SOURCE_DIR) + "/examples/small-files-multi-epoch.yaml";
  RunResult r = RunFeedcheck({"lint", job, "--profile", profile, "--fail-on", "warning"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  // The problems table for people; what each problem says is tested in tests/app.
  CHECK(r.out.find("Problems") != std::string::npos);
  CHECK(r.out.find("L004") != std::string::npos);

  RunResult j = RunFeedcheck({"lint", job, "--profile", profile, "--json"});
  auto json = j.Json();
  REQUIRE(json.is_object());
  CHECK(json["context"]["command"] == "lint");
  CHECK(json["result"]["problems"].get<int>() >= 3);
  CHECK(j.out.find("resources.instance_count is 12") != std::string::npos);
  CHECK(json["tables"][0]["rows"].size() == json["result"]["problems"].get<size_t>());
  RunResult both = RunFeedcheck({"lint", job, "--json", "--format", "sarif"});
  CHECK(both.exit_code == 2);
  CHECK(Has(both.err, "--json"));
  CHECK(RunFeedcheck({"lint", "/nonexistent.yml"}).exit_code == 2);  // CLI11 ExistingFile
  std::string bad = WriteTempFile("bad-job.yml", "- not a job\n");
  CHECK(RunFeedcheck({"lint", bad}).exit_code == 3);
}

TEST_CASE("lint --format sarif is SARIF 2.1.0 with the job's lines", "[cli][lint][sarif]") {
  std::string job = Job("pytorch-12-nodes-download.yml");
  RunResult r = RunFeedcheck(
      {"lint", job, "--region", "eastus", "--format", "sarif", "--fail-on", "warning"});
  INFO(r.err);
  CHECK(r.exit_code == 1);  // the exit code does not depend on the format
  auto log = r.Json();
  REQUIRE(log.is_object());
  // Required by the SARIF 2.1.0 schema: sarifLog {version, runs}; run {tool}; tool {driver};
  // toolComponent {name}; result {message}; message {text|id}; reportingDescriptor {id};
  // region.startLine >= 1; physicalLocation with an artifactLocation.
  CHECK(log["version"] == "2.1.0");
  CHECK(Has(log["$schema"], "sarif-2.1.0"));
  REQUIRE(log["runs"].is_array());
  REQUIRE(log["runs"].size() == 1);
  const auto& run = log["runs"][0];
  REQUIRE(run["tool"]["driver"]["name"].is_string());
  const auto& rules = run["tool"]["driver"]["rules"];
  REQUIRE(rules.is_array());
  for (const auto& rule : rules) CHECK(rule["id"].is_string());
  REQUIRE(run["results"].is_array());
  REQUIRE(run["results"].size() >= 4);
  std::set<std::string> levels = {"none", "note", "warning", "error"};
  int with_lines = 0;
  for (const auto& result : run["results"]) {
    REQUIRE(result["message"]["text"].is_string());
    CHECK(levels.count(result["level"].get<std::string>()) == 1);
    REQUIRE(result["ruleId"].is_string());
    // ruleIndex, when present, points at the rule with that id.
    if (result.contains("ruleIndex"))
      CHECK(rules[result["ruleIndex"].get<size_t>()]["id"] == result["ruleId"]);
    REQUIRE(result["locations"].is_array());
    const auto& physical = result["locations"][0]["physicalLocation"];
    CHECK(physical["artifactLocation"]["uri"] == "file://" + job);
    if (physical.contains("region")) {
      CHECK(physical["region"]["startLine"].get<int>() >= 1);
      ++with_lines;
    }
  }
  CHECK(with_lines >= 4);
  // The same problems as --format json, which carries the change separately.
  RunResult j = RunFeedcheck({"lint", job, "--region", "eastus", "--format", "json"});
  auto json = j.Json();
  REQUIRE(json.is_object());
  const auto& rows = json["tables"][0]["rows"];
  CHECK(rows.size() == run["results"].size());
  for (size_t i = 0; i < rows.size(); ++i) CHECK(rows[i]["code"] == run["results"][i]["ruleId"]);
}
