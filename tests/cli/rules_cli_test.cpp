#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

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
  CHECK(r.out.find("Verdict: VALID\n") != std::string::npos);
  CHECK(r.err.empty());
  // The file's row, read from the JSON: the terminal lays a long path out as a record instead
  // of a grid row, so the checkout's path length must not decide what this test sees.
  RunResult json =
      RunFeedcheck({"rules", "validate", "--json",
                    std::string(FEEDCHECK_SOURCE_DIR) + "/rules/builtin/scenarios.yaml"});
  REQUIRE(json.exit_code == 0);
  const auto rows = nlohmann::json::parse(json.out).at("tables").at(0).at("rows");
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].at("file").get<std::string>().ends_with("/rules/builtin/scenarios.yaml"));
  CHECK(rows[0].at("status") == "Ok");
  CHECK(rows[0].at("errors") == 0);
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
  CHECK(r.out.find("Verdict: INVALID\n") != std::string::npos);
  CHECK(r.out.find(path + "  Invalid ") != std::string::npos);
  // The diagnostics, with the line and a caret under the column, go to stderr like a compiler's.
  CHECK(r.err.find(path + ":4:37: error[R104]: unit mismatch: dataset.median_file_bytes (bytes, a "
                          "size) < 24Gbit/s (Gbit/s, a rate) (rule 'a' > when)\n"
                          "      when: dataset.median_file_bytes < 24Gbit/s and node.cont > 3\n"
                          "                                        ^\n") != std::string::npos);
  CHECK(r.err.find(path + ":4:50: error[R103]: unknown fact 'node.cont'; did you mean "
                          "'node.count'?") != std::string::npos);
  CHECK(r.err.find(path + ":5:15: error[R201]: '{' is not closed by '}'") != std::string::npos);

  RunResult j = RunFeedcheck({"rules", "validate", path, "--json"});
  CHECK(j.exit_code == 3);
  auto json = j.Json();
  CHECK(json["schema_version"] == 1);
  CHECK(json["verdict"] == "invalid");
  CHECK(json["result"]["valid"] == false);
  CHECK(json["result"]["errors"] == 3);
  CHECK(json["tables"][0]["rows"][0]["status"] == "Invalid");
  const auto& diagnostics = json["evidence"]["diagnostics"];
  REQUIRE(diagnostics.size() >= 3);
  CHECK(diagnostics[0]["code"] == "R104");
  CHECK(diagnostics[0]["file"] == path);
  CHECK(diagnostics[0]["line"] == 4);
  CHECK(diagnostics[0]["column"] == 37);
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
  CHECK(r.out.find(path + "  Ok, with warnings ") != std::string::npos);
  CHECK(r.err.find("warning[R005]: unknown field 'tags' is ignored") != std::string::npos);
  CHECK(RunFeedcheck({"rules", "validate", "/nonexistent.yaml"}).exit_code == 3);
}

TEST_CASE("rules list shows built-in and user rules", "[cli][rules]") {
  RunResult r = RunFeedcheck({"rules", "list", "--json"});
  REQUIRE(r.exit_code == 0);
  auto j = r.Json();
  CHECK(j["schema_version"] == 1);
  CHECK(j["result"]["rules"] >= 40);
  REQUIRE(j["tables"][0]["title"] == "Rules");
  bool scenario = false;
  for (const auto& rule : j["tables"][0]["rows"])
    scenario |= rule["id"] == "mount-large-random-seeks";
  CHECK(scenario);
  CHECK(j["tables"][1]["title"] == "Sources");
  CHECK(j["tables"][1]["folded"] == true);
  // On the terminal the sources are one line, unless -v.
  RunResult term = RunFeedcheck({"rules", "list"});
  CHECK(term.out.find("Sources: ") != std::string::npos);
  CHECK(term.out.find("-v lists them") != std::string::npos);
  CHECK(RunFeedcheck({"rules", "list", "-v"}).out.find("https://learn.microsoft.com/") !=
        std::string::npos);
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
