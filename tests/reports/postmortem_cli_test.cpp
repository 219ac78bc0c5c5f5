// `feedcheck postmortem` end to end on the analyzers' demo job (a 2-node download job starved by
// 503 egress throttling): the real binary, built-in rules, each output, the exit codes.
#include <fmt/format.h>
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "reports/report_json.h"
#include "tests/reports/golden.h"

using namespace feedcheck;

namespace {

const std::string kDir = std::string(FEEDCHECK_BINARY_DIR) + "/postmortem_cli_test";
const std::string kJob = std::string(FEEDCHECK_SOURCE_DIR) + "/tests/data/joblogs/job-demo";

struct Run {
  int code = -1;
  std::string out;
};

Run Feedcheck(const std::string& args) {
  std::filesystem::create_directories(kDir);
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

}  // namespace

TEST_CASE("postmortem names the bottleneck of the demo job", "[reports][cli][postmortem]") {
  Run json = Feedcheck("--fail-on never postmortem " + kJob + " --format json");
  INFO(testing::ReadFileOrEmpty(kDir + "/stderr.txt"));
  REQUIRE(json.code == 0);
  auto j = nlohmann::json::parse(json.out);
  CHECK(j["kind"] == kReportKind);
  CHECK(j["title"] == "Post-mortem");
  // All findings on the demo job are warnings; the first with a bottleneck class decides
  // (client-bound-latency: end-to-end latency far above server latency). The 503s are found too.
  CHECK(j["verdict"] == "client threads/CPU");
  CHECK(j["verdict_level"] == "warning");
  CHECK(json.out.find("throttled-server-busy") != std::string::npos);
  CHECK(j["findings"].size() >= 1);
  CHECK(j["evidence"]["series"].size() >= 1);

  // Re-rendering the saved result gives the same report.
  std::string saved = kDir + "/RESULT.json";
  std::ofstream(saved) << json.out;
  std::string html = kDir + "/report.html";
  CHECK(Feedcheck("report " + saved + " --format html -o " + html).code == 0);
  CHECK(testing::ReadFileOrEmpty(html).find("account egress") != std::string::npos);
}

TEST_CASE("postmortem exit codes: findings at --fail-on, unreadable input",
          "[reports][cli][postmortem]") {
  CHECK(Feedcheck("--fail-on warning postmortem " + kJob).code == 1);
  Run missing = Feedcheck("postmortem " + kDir + "/no-such-job");
  CHECK(missing.code == 3);
  CHECK(testing::ReadFileOrEmpty(kDir + "/stderr.txt").find("no-such-job") != std::string::npos);
}
