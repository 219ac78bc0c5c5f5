#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "run_feedcheck.h"

// lint through the binary: the table for people, the JSON shape, SARIF, exit codes. What each
// problem says is tested against app::RunLint in tests/app/lint_workflow_test.cpp.
namespace {
std::string Job(const std::string& name) {
  return std::string(FEEDCHECK_SOURCE_DIR) + "/tests/data/jobs/" + name;
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
  // Run from a scratch directory: the job is not under the working directory.
  const std::string scratch = WriteTempFile("cwd-marker", "");
  RunResult r = RunFeedcheckIn(
      scratch.substr(0, scratch.rfind('/')),
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
  REQUIRE(run["results"].size() >= 3);
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
    // The job is not under the working directory: its URI is absolute.
    CHECK(physical["artifactLocation"]["uri"] == "file://" + job);
    // Every result is placed on a line (1 for a problem about the whole file).
    REQUIRE(physical.contains("region"));
    CHECK(physical["region"]["startLine"].get<int>() >= 1);
    if (physical["region"]["startLine"].get<int>() > 1) ++with_lines;
  }
  CHECK(with_lines >= 3);
  // Every code lint can report is a rule of the driver, with help and the guide's URL.
  std::set<std::string> ids;
  for (const auto& rule : rules) {
    ids.insert(rule["id"].get<std::string>());
    CHECK(rule["help"]["text"].get<std::string>().size() > 20);
    CHECK(Has(rule["helpUri"].get<std::string>(), "how-to-read-write-data-v2"));
  }
  for (const char* code : {"L001", "L004", "L006", "L007", "L008", "L009", "L010", "L011", "L012"})
    CHECK(ids.count(code) == 1);
  CHECK(run["invocations"][0]["executionSuccessful"] == true);
  // The same problems as --format json, which carries the change separately.
  RunResult j = RunFeedcheck({"lint", job, "--region", "eastus", "--format", "json"});
  auto json = j.Json();
  REQUIRE(json.is_object());
  const auto& rows = json["tables"][0]["rows"];
  CHECK(rows.size() == run["results"].size());
  for (size_t i = 0; i < rows.size(); ++i) CHECK(rows[i]["code"] == run["results"][i]["ruleId"]);
}

TEST_CASE("lint --format sarif: paths under the working directory are %SRCROOT%-relative",
          "[cli][lint][sarif]") {
  // Run from the source tree, as a CI checkout does.
  RunResult r = RunFeedcheckIn(
      FEEDCHECK_SOURCE_DIR,
      {"lint", "tests/data/edges/shapes/pipeline-components.yml", "--format", "sarif"});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  auto log = r.Json();
  REQUIRE(log.is_object());
  const auto& run = log["runs"][0];
  CHECK(Has(run["originalUriBaseIds"]["%SRCROOT%"]["uri"].get<std::string>(), "file:///"));
  std::set<std::string> uris;
  for (const auto& result : run["results"]) {
    const auto& artifact = result["locations"][0]["physicalLocation"]["artifactLocation"];
    CHECK(artifact["uriBaseId"] == "%SRCROOT%");
    uris.insert(artifact["uri"].get<std::string>());
  }
  // The problems are in the pipeline and in its component files.
  CHECK(uris.count("tests/data/edges/shapes/pipeline-components.yml") == 1);
  CHECK(uris.count("tests/data/edges/shapes/components/train.yml") == 1);
  CHECK(uris.count("tests/data/edges/shapes/components/score.yml") == 1);
}

TEST_CASE("lint --format sarif on a file it cannot lint: a valid log with the error",
          "[cli][lint][sarif]") {
  std::string bad = WriteTempFile("not-a-job.yml", "- not a job\n");
  RunResult r = RunFeedcheck({"lint", bad, "--format", "sarif"});
  CHECK(r.exit_code == 3);
  auto log = r.Json();
  REQUIRE(log.is_object());
  CHECK(log["version"] == "2.1.0");
  const auto& run = log["runs"][0];
  CHECK(run["results"].empty());
  const auto& invocation = run["invocations"][0];
  CHECK(invocation["executionSuccessful"] == false);
  REQUIRE(invocation["toolExecutionNotifications"].size() >= 1);
  const auto& n = invocation["toolExecutionNotifications"][0];
  CHECK(n["level"] == "error");
  CHECK(Has(n["message"]["text"].get<std::string>(), "YAML mapping"));
  CHECK(Has(n["descriptor"]["id"].get<std::string>(), "R303"));
}

TEST_CASE("lint --json: lines and counts are integers", "[cli][lint]") {
  RunResult r = RunFeedcheck({"lint", Job("pytorch-12-nodes-download.yml"), "--json"});
  auto json = r.Json();
  REQUIRE(json.is_object());
  CHECK(json["result"]["problems"].is_number_integer());
  CHECK(json["result"]["rules_evaluated"].is_number_integer());
  bool any_line = false;
  for (const auto& row : json["tables"][0]["rows"])
    if (row["line"].is_number()) {
      CHECK(row["line"].is_number_integer());
      any_line = true;
    }
  CHECK(any_line);
}

TEST_CASE("the README's CI lint example fails the build on what it finds", "[cli][lint][docs]") {
  // The command in the README's table, run as written: a CI step that prints problems and
  // exits 0 would let them through.
  std::ifstream readme(std::string(FEEDCHECK_SOURCE_DIR) + "/README.md");
  std::string line, command;
  while (std::getline(readme, line))
    if (Has(line, "Check a job file in CI")) {
      const auto start = line.find("`feedcheck lint ");
      REQUIRE(start != std::string::npos);
      command = line.substr(start + 11, line.find('`', start + 1) - start - 11);
    }
  REQUIRE(!command.empty());
  std::vector<std::string> args;
  std::istringstream words(command);
  for (std::string w; words >> w;) args.push_back(w);
  RunResult r = RunFeedcheckIn(FEEDCHECK_SOURCE_DIR, args);
  INFO(command << "\n" << r.err);
  CHECK(r.exit_code == 1);
  CHECK(Has(r.out, "Problems"));
}
