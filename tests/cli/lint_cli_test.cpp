#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <set>
#include <string>
#include <vector>

#include "run_feedcheck.h"

TEST_CASE("lint prints the change to make with file:line", "[cli][lint]") {
  std::string job = std::string(FEEDCHECK_SOURCE_DIR) + "/examples/jobs/train-images-12-nodes.yml";
  std::string profile =
      std::string(FEEDCHECK_SOURCE_DIR) + "/examples/small-files-multi-epoch.yaml";
  RunResult r = RunFeedcheck({"lint", job, "--profile", profile, "--fail-on", "warning"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  // 12 x ND96asr_v4 (24 Gbit/s) on an East US account (200 Gbit/s).
  CHECK(r.out.find(job + ":19: warning[L004]: resources.instance_count is 12") !=
        std::string::npos);
  CHECK(r.out.find(job + ":15: warning[L003]: AZUREML_DATASET_HTTP_RETRY_COUNT is \"20\"") !=
        std::string::npos);
  // RSLEX_DOWNLOADER_THREADS 8 on 96 cores -> 384.
  CHECK(r.out.find("RSLEX_DOWNLOADER_THREADS: \"8\" -> RSLEX_DOWNLOADER_THREADS: \"384\"") !=
        std::string::npos);

  RunResult j = RunFeedcheck({"lint", job, "--profile", profile, "--json"});
  auto json = j.Json();
  REQUIRE(json.is_object());
  CHECK(json["command"] == "lint");
  CHECK(json["problems"].size() >= 3);
  CHECK(RunFeedcheck({"lint", "/nonexistent.yml"}).exit_code == 2);  // CLI11 ExistingFile
  std::string bad = WriteTempFile("bad-job.yml", "- not a job\n");
  CHECK(RunFeedcheck({"lint", bad}).exit_code == 3);
}

namespace {
std::string Job(const std::string& name) {
  return std::string(FEEDCHECK_SOURCE_DIR) + "/tests/data/jobs/" + name;
}
bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}
// The change of the first problem with `code`, from --format json (unwrapped).
std::string Change(const std::string& job, std::vector<std::string> flags,
                   const std::string& code) {
  std::vector<std::string> args = {"lint", job, "--format", "json"};
  args.insert(args.end(), flags.begin(), flags.end());
  auto j = RunFeedcheck(args).Json();
  if (!j.is_object()) return "";
  for (const auto& p : j["problems"])
    if (p["code"] == code) return p["change"].get<std::string>();
  return "";
}
// Line numbers of "FILE:LINE: " prefixes, in output order (whole-file problems have none).
std::vector<int> ProblemLines(const std::string& out, const std::string& file) {
  std::vector<int> lines;
  size_t at = 0;
  while ((at = out.find(file + ":", at)) != std::string::npos) {
    at += file.size() + 1;
    if (std::isdigit(static_cast<unsigned char>(out[at])))
      lines.push_back(std::stoi(out.substr(at)));
  }
  return lines;
}
}  // namespace

TEST_CASE("lint reads the job's own distribution: NODE_RANK under PyTorch", "[cli][lint][edges]") {
  std::string job = Job("pytorch-12-nodes-download.yml");
  RunResult r = RunFeedcheck({"lint", job, "--region", "eastus", "--fail-on", "warning"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(Has(r.out, job + ":18: warning[L004]: resources.instance_count is 12"));
  CHECK_FALSE(Has(r.out, "ranks 0-"));
  std::string change = Change(job, {"--region", "eastus"}, "L004");
  CHECK(Has(change, "account = int(os.environ[\"NODE_RANK\"]) * 2 // 12"));
  CHECK(Has(change, "nodes 0-5 -> account 1, nodes 6-11 -> account 2"));
  // DATASET_MOUNT_* on a job whose inputs are all downloaded do nothing.
  CHECK(Has(r.out, job + ":13: warning[L006]: DATASET_MOUNT_READ_THREADS has no effect"));
  CHECK(Has(r.out,
            job + ":15: warning[L006]: DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED has no effect"));
  // Problems in line order.
  std::vector<int> lines = ProblemLines(r.out, job);
  REQUIRE(lines.size() >= 4);
  CHECK(std::is_sorted(lines.begin(), lines.end()));
}

TEST_CASE("lint: MPI jobs derive the node index from the rank", "[cli][lint][edges]") {
  std::string job = Job("mpi-12-nodes-mount.yml");
  RunResult r = RunFeedcheck({"lint", job, "--region", "eastus"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);  // warnings only, --fail-on critical
  std::string change = Change(job, {"--region", "eastus"}, "L004");
  CHECK(Has(change, "int(os.environ[\"OMPI_COMM_WORLD_RANK\"]) // 8 * 2 // 12"));
  CHECK_FALSE(Has(change, "NODE_RANK\"]"));
  // The download threads on a job that only mounts do nothing.
  CHECK(Has(r.out, job + ":12: warning[L006]: RSLEX_DOWNLOADER_THREADS has no effect"));
}

TEST_CASE("lint states the region it assumes, and checks its flags", "[cli][lint][edges]") {
  std::string job = Job("mpi-12-nodes-mount.yml");
  RunResult assumed = RunFeedcheck({"lint", job});
  CHECK(assumed.exit_code == 0);
  CHECK(Has(assumed.out,
            "note: no region given: assuming a standard GPv2 account in a listed "
            "region (200 Gbit/s"));
  RunResult stated = RunFeedcheck({"lint", job, "--region", "italynorth"});
  CHECK_FALSE(Has(stated.out, "assuming"));
  // 50 Gbit/s there, as `egress` says: 6 accounts.
  CHECK(Has(Change(job, {"--region", "italynorth"}, "L004"), "across 6 storage accounts"));
  CHECK(RunFeedcheck({"lint", job, "--region", "eastuss"}).exit_code == 2);
  CHECK(Has(RunFeedcheck({"lint", job, "--region", "eastuss"}).err, "did you mean eastus"));
  CHECK(RunFeedcheck({"lint", job, "--sku", "ND96asr_v5"}).exit_code == 2);
  // --sku for a job that leaves the instance type to its compute cluster.
  std::string bare = Job("no-instance-type.yml");
  RunResult without = RunFeedcheck({"lint", bare, "--region", "eastus"});
  RunResult with = RunFeedcheck({"lint", bare, "--region", "italynorth", "--sku",
                                 "Standard_ND96isr_H100_v5", "--json", "--fail-on", "never"});
  INFO(with.out << with.err);
  CHECK(without.exit_code == 0);
  auto j = with.Json();
  bool egress = false;
  for (const auto& p : j["problems"])
    if (p["code"] == "L004") {
      egress = true;
      CHECK(p["line"] == 11);
      CHECK(Has(p["change"], "stripe the data across"));  // 80 Gbit/s NICs on 50 Gbit/s
    }
  CHECK(egress);
}

TEST_CASE("lint: a file that is not a command job is an error", "[cli][lint][edges]") {
  std::string profile =
      std::string(FEEDCHECK_SOURCE_DIR) + "/examples/small-files-multi-epoch.yaml";
  RunResult p = RunFeedcheck({"lint", profile});
  CHECK(p.exit_code == 3);
  CHECK(Has(p.err, "not an Azure ML command job"));
  CHECK_FALSE(Has(p.out, "Ok"));
  std::string metrics =
      WriteTempFile("metrics.json", R"({"value": [{"name": {"value": "Egress"}}]})");
  CHECK(RunFeedcheck({"lint", metrics}).exit_code == 3);
  RunResult pipeline = RunFeedcheck({"lint", Job("pipeline-job.yml")});
  CHECK(pipeline.exit_code == 3);
  CHECK(Has(pipeline.err, "job type 'pipeline'"));
}

TEST_CASE("lint flags a retired instance type at its line", "[cli][lint][edges]") {
  std::string job = Job("retired-size.yml");
  RunResult r = RunFeedcheck({"lint", job, "--region", "eastus", "--fail-on", "warning"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(Has(r.out, job + ":12: warning[L005]: The VM size is retired"));
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
  CHECK(json["problems"].size() == run["results"].size());
  CHECK(json["assumptions"].empty());
  for (size_t i = 0; i < json["problems"].size(); ++i)
    CHECK(json["problems"][i]["code"] == run["results"][i]["ruleId"]);
}
