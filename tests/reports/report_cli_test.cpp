// `feedcheck report` end to end: the real binary, a saved result, each format, the exit codes.
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "reports/report_json.h"
#include "tests/reports/golden.h"
#include "tests/reports/sample_report.h"

using namespace feedcheck;

namespace {

// One directory per process: ctest runs each TEST_CASE as its own process, two at a time.
const std::string kDir =
    std::string(FEEDCHECK_BINARY_DIR) + "/report_cli_test." + std::to_string(getpid());
// Removed when the process ends, so runs leave no scratch folders in the build directory.
const struct ScratchCleanup {
  ~ScratchCleanup() {
    std::error_code ignored;
    std::filesystem::remove_all(kDir, ignored);
  }
} kScratchCleanup;

struct Run {
  int code = -1;
  std::string out;
};

Run Feedcheck(const std::string& args) {
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

std::string Stderr() { return feedcheck::testing::ReadFileOrEmpty(kDir + "/stderr.txt"); }

std::string SavedSample() {
  std::filesystem::create_directories(kDir);
  std::string path = kDir + "/RESULT.json";
  std::ofstream(path) << ReportToJson(feedcheck::testing::MakeSampleReport(8)).dump(2);
  return path;
}

}  // namespace

TEST_CASE("report re-renders a saved result in each format", "[reports][cli]") {
  std::string saved = SavedSample();
  Run md = Feedcheck("report " + saved + " --format md");
  CHECK(md.code == 0);
  CHECK(md.out.rfind("# feedcheck Post-mortem", 0) == 0);

  Run term = Feedcheck("report " + saved);
  CHECK(term.code == 0);
  CHECK(term.out.find("Verdict: ACCOUNT EGRESS LIMIT") != std::string::npos);
  CHECK(term.out.find('\x1b') == std::string::npos);  // not a TTY: no colour

  Run json = Feedcheck("report " + saved + " --format json");
  CHECK(json.code == 0);
  auto j = nlohmann::json::parse(json.out);
  CHECK(j["schema_version"] == kReportSchemaVersion);
  CHECK(j == ReportToJson(feedcheck::testing::MakeSampleReport(8)));
  CHECK(Feedcheck("--json report " + saved).out == json.out);

  std::string html = kDir + "/report.html";
  std::remove(html.c_str());
  Run h = Feedcheck("report " + saved + " --format html -o " + html);
  CHECK(h.code == 0);
  CHECK(Stderr().find("wrote " + html) != std::string::npos);
  CHECK(feedcheck::testing::ReadFileOrEmpty(html).rfind("<!doctype html>", 0) == 0);
}

TEST_CASE("report exits 3 on unreadable input and names the file", "[reports][cli]") {
  std::filesystem::create_directories(kDir);
  Run missing = Feedcheck("report " + kDir + "/nope.json");
  CHECK(missing.code == 3);
  CHECK(Stderr().find(kDir + "/nope.json") != std::string::npos);

  std::string bad = kDir + "/bad.json";
  std::ofstream(bad) << "{\"kind\": \"feedcheck-report\",\n";
  Run broken = Feedcheck("report " + bad + " --format html");
  CHECK(broken.code == 3);
  CHECK(Stderr().find(bad + ":2") != std::string::npos);
  CHECK(broken.out.empty());

  std::string other = kDir + "/other.json";
  std::ofstream(other) << "[1, 2, 3]";
  CHECK(Feedcheck("report " + other).code == 3);
}

TEST_CASE("report rejects an unknown format as a usage error", "[reports][cli]") {
  std::string saved = SavedSample();
  CHECK(Feedcheck("report " + saved + " --format csv").code == 2);
  CHECK(Feedcheck("report").code == 2);
}
