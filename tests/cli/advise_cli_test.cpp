// advise through the binary: the JSON shape, exit codes, -o and the format flags. What advise
// computes is tested against app::RunAdvise in tests/app/advise_workflow_test.cpp.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "run_feedcheck.h"

namespace {
std::string Example(const std::string& name) {
  return std::string(FEEDCHECK_SOURCE_DIR) + "/examples/" + name;
}

// A directory of rules files in the test's scratch directory.
std::string WriteRulesDir(const std::string& name, const std::string& yaml) {
  std::filesystem::path dir =
      std::filesystem::path(WriteTempFile(name + ".marker", "")).parent_path() / name;
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "rules.yaml") << yaml;
  return dir.string();
}

}  // namespace

TEST_CASE("advise --json is the Report shape with a result", "[cli][advise]") {
  RunResult r =
      RunFeedcheck({"advise", "--profile", Example("large-file-sequential-once.yaml"), "--json"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  auto j = r.Json();
  REQUIRE(j.is_object());
  CHECK(j["schema_version"] == 1);
  CHECK(j["kind"] == "feedcheck-report");
  CHECK(j["context"]["command"] == "advise");
  CHECK(j["result"]["settings"] == 4);
  CHECK(j["env"].size() == 4);
  CHECK(j["findings"].size() == j["result"]["findings"]);
  CHECK(j["evidence"]["facts"].size() > 0);
}

TEST_CASE("advise prints findings and the settings for people", "[cli][advise]") {
  RunResult r = RunFeedcheck({"advise", "--profile", Example("large-file-sequential-once.yaml")});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("mount-large-sequential-once") != std::string::npos);
  CHECK(r.out.find("Settings to paste") != std::string::npos);
  CHECK(r.out.find("DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED") != std::string::npos);
  CHECK(r.out.find("rules not evaluated") != std::string::npos);
  CHECK(r.out.find("{\"") == std::string::npos);  // not JSON
}

TEST_CASE("advise --env-format prints only the settings, in that form", "[cli][advise]") {
  const std::string profile = Example("large-file-sequential-once.yaml");
  RunResult shell = RunFeedcheck({"advise", "--profile", profile, "--env-format", "shell"});
  INFO(shell.err);
  REQUIRE(shell.exit_code == 0);
  CHECK(shell.out ==
        "export DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED='true'\n"
        "export DATASET_MOUNT_BLOCK_FILE_CACHE_ENABLED='false'\n"
        "export DATASET_MOUNT_MEMORY_CACHE_SIZE='0'\n"
        "export DATASET_MOUNT_READ_BUFFER_BLOCK_COUNT='80'\n");
  // What it leaves out is said on stderr, not mixed into what is pasted.
  CHECK(shell.err.find("1 finding and 1 config fragment not printed") != std::string::npos);
  RunResult yaml = RunFeedcheck({"advise", "--profile", profile, "--env-format", "yaml"});
  REQUIRE(yaml.exit_code == 0);
  CHECK(yaml.out.rfind("environment_variables:\n", 0) == 0);
  CHECK(yaml.out.find("Findings") == std::string::npos);
  CHECK(yaml.out.find("feedcheck") == std::string::npos);
  RunResult json = RunFeedcheck({"advise", "--profile", profile, "--env-format", "json"});
  REQUIRE(json.exit_code == 0);
  REQUIRE(json.Json().is_object());
  CHECK(json.Json()["DATASET_MOUNT_READ_BUFFER_BLOCK_COUNT"] == "80");
  // -v, or a report format, still gives the whole advice with the block in that form.
  RunResult verbose = RunFeedcheck({"-v", "advise", "--profile", profile, "--env-format", "yaml"});
  CHECK(verbose.out.find("Findings") != std::string::npos);
  CHECK(verbose.out.find("environment_variables:") != std::string::npos);
  RunResult md = RunFeedcheck({"advise", "--profile", profile, "--env-format", "yaml", "-f", "md"});
  CHECK(md.out.find("environment_variables:") != std::string::npos);
  CHECK(md.out.find("## Findings") != std::string::npos);
}

TEST_CASE("advise exit codes: findings, usage, broken rules", "[cli][advise][errors]") {
  std::string facts = WriteTempFile("facts.json", R"({"schema_version": 1, "facts": [
    {"key": "probe.errors.throttled_egress", "value": 12, "unit": "count",
     "provenance": {"origin": "measured", "source": "probe throughput"}}]})");
  CHECK(RunFeedcheck({"advise", facts}).exit_code == 1);  // critical, --fail-on critical
  CHECK(RunFeedcheck({"advise", facts, "--fail-on", "never"}).exit_code == 0);
  RunResult none = RunFeedcheck({"advise"});
  CHECK(none.exit_code == 2);
  CHECK(none.err.find("--profile") != std::string::npos);
  CHECK(RunFeedcheck({"advise", facts, "--env-format", "toml"}).exit_code == 2);
  std::string bad_rules_dir = WriteRulesDir("bad-rules", "- id: x\n");
  RunResult invalid = RunFeedcheck({"--rules", bad_rules_dir, "advise", facts});
  CHECK(invalid.exit_code == 3);
  CHECK(invalid.err.find("error[R004]: rule has no 'title'") != std::string::npos);
  // A script that asked for JSON gets the one shape with the error, not an empty stdout.
  RunResult json = RunFeedcheck({"--rules", bad_rules_dir, "advise", facts, "--json"});
  CHECK(json.exit_code == 3);
  REQUIRE(json.Json().is_object());
  CHECK(json.Json()["kind"] == "feedcheck-report");
  CHECK(json.Json()["result"]["error"].get<std::string>().find("rule has no") != std::string::npos);
}

TEST_CASE("advise -o picks the format from the extension; --json with -f md is a usage error",
          "[cli][advise][output]") {
  std::string md = WriteTempFile("advice.md", "");
  RunResult r =
      RunFeedcheck({"advise", "--profile", Example("small-files-multi-epoch.yaml"), "-o", md});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.empty());
  CHECK(Slurp(md).rfind("# feedcheck Advice", 0) == 0);
  std::string json = WriteTempFile("advice.json", "");
  REQUIRE(RunFeedcheck({"advise", "--profile", Example("small-files-multi-epoch.yaml"), "-o", json,
                        "-f", "html"})
              .exit_code == 0);
  CHECK(Slurp(json).find("<!doctype html>") == 0);  // -f says otherwise
  RunResult both = RunFeedcheck(
      {"--json", "advise", "--profile", Example("small-files-multi-epoch.yaml"), "-f", "md"});
  CHECK(both.exit_code == 2);
  CHECK(both.out.empty());
  CHECK(both.err.find("--json") != std::string::npos);
  CHECK(both.err.find("--format md") != std::string::npos);
}
