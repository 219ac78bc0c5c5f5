#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "run_feedcheck.h"

namespace {
// A directory of rules files in the test's scratch directory.
std::string WriteRulesDir(const std::string& name, const std::string& yaml) {
  std::filesystem::path dir =
      std::filesystem::path(WriteTempFile(name + ".marker", "")).parent_path() / name;
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "rules.yaml") << yaml;
  return dir.string();
}
}  // namespace

TEST_CASE("rules validate: the built-in files are Ok", "[cli][rules]") {
  RunResult r = RunFeedcheck(
      {"rules", "validate", std::string(FEEDCHECK_SOURCE_DIR) + "/rules/builtin/scenarios.yaml"});
  CHECK(r.exit_code == 0);
  CHECK(r.out == std::string(FEEDCHECK_SOURCE_DIR) + "/rules/builtin/scenarios.yaml: Ok\n");
}

TEST_CASE("rules validate: Invalid with coded diagnostics, exit 3", "[cli][rules]") {
  std::string path = WriteTempFile("bad.yaml", R"(- id: a
  severity: warning
  title: t
  when: dataset.median_file_bytes < 24Gbit/s and node.cont > 3
  say: "hello {dataset.files"
  source: x
)");
  RunResult r = RunFeedcheck({"rules", "validate", path});
  CHECK(r.exit_code == 3);
  CHECK(r.out.find(path + ": Invalid\n") == 0);
  CHECK(r.out.find(path + ":4:37: error[R104]: unit mismatch: dataset.median_file_bytes (bytes, a "
                          "size) < 24Gbit/s (Gbit/s, a rate) (rule 'a' > when)\n"
                          "      when: dataset.median_file_bytes < 24Gbit/s and node.cont > 3\n"
                          "                                        ^\n") != std::string::npos);
  CHECK(r.out.find(path + ":4:50: error[R103]: unknown fact 'node.cont'; did you mean "
                          "'node.count'?") != std::string::npos);
  CHECK(r.out.find(path + ":5:15: error[R201]: '{' is not closed by '}'") != std::string::npos);

  RunResult j = RunFeedcheck({"rules", "validate", path, "--json"});
  CHECK(j.exit_code == 3);
  auto json = j.Json();
  CHECK(json["valid"] == false);
  CHECK(json["files"][0]["status"] == "Invalid");
  CHECK(json["files"][0]["diagnostics"][0]["code"] == "R104");
  CHECK(json["files"][0]["diagnostics"][0]["line"] == 4);
  CHECK(json["files"][0]["diagnostics"][0]["column"] == 37);
}

TEST_CASE("rules validate: warnings only", "[cli][rules]") {
  std::string path = WriteTempFile("warn.yaml", R"(- id: a
  severity: info
  title: t
  when: node.count > 1
  say: s
  source: x
  tags: [x]
)");
  RunResult r = RunFeedcheck({"rules", "validate", path});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find(path + ": Ok, with warnings\n") == 0);
  CHECK(r.out.find("warning[R005]: unknown field 'tags' is ignored") != std::string::npos);
  CHECK(RunFeedcheck({"rules", "validate", "/nonexistent.yaml"}).exit_code == 3);
}

TEST_CASE("rules list shows built-in and user rules", "[cli][rules]") {
  RunResult r = RunFeedcheck({"rules", "list", "--json"});
  REQUIRE(r.exit_code == 0);
  auto j = r.Json();
  CHECK(j["rules"].size() >= 40);
  bool scenario = false;
  for (const auto& rule : j["rules"]) scenario |= rule["id"] == "mount-large-random-seeks";
  CHECK(scenario);
  std::string user = WriteRulesDir("user-rules", R"(- id: my-rule
  severity: info
  title: Mine
  when: node.count > 100
  say: many nodes
  source: me
)");
  RunResult with_user = RunFeedcheck({"--rules", user, "rules", "list"});
  CHECK(with_user.exit_code == 0);
  CHECK(with_user.out.find("my-rule") != std::string::npos);
}
