// Child processes (`az`, run by `fetch` and `postmortem --job`), label safety: a process group
// of their own killed whole at the time limit, output read until the program exits (a child
// left holding stdout does not hold the run), jobs de-duplicated, names that az would read as
// flags or that would make a folder elsewhere refused, and one redaction of every secret shape
// on all of a child's output. Through app::RunProcess and through the real binary with a
// hostile `az` first on PATH (tests/safety/az-hostile/az).
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "app/process_runner.h"
#include "core/redact.h"
#include "tests/support/subprocess.h"

using namespace feedcheck;
using namespace feedcheck::testing;
namespace fs = std::filesystem;

namespace {

const std::string kHostileAz = std::string(FEEDCHECK_SOURCE_DIR) + "/tests/safety/az-hostile";
const std::string kBundled =
    std::string(FEEDCHECK_SOURCE_DIR) + "/tests/data/joblogs/egress-throttled-download";
// The shape of a storage account key (64 random bytes in base64): made up, never a real one.
const std::string kAccountKey =
    "Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFy"
    "YQ==";

struct Scratch {
  std::string path;
  Scratch() {
    char t[] = "/tmp/feedcheck-child-XXXXXX";
    REQUIRE(mkdtemp(t) != nullptr);
    path = t;
  }
  ~Scratch() { fs::remove_all(path); }
};

std::string Feedcheck() {
  return EnvOr("FEEDCHECK", std::string(FEEDCHECK_BINARY_DIR) + "/feedcheck");
}

// The binary with the hostile az first on PATH and `env` ("NAME=value ...") set.
CommandResult Fetch(const std::string& env, const std::string& args, const std::string& cwd = "") {
  return RunCommand((cwd.empty() ? "" : "cd " + ShellQuote(cwd) + " && ") +
                    "env PATH=" + ShellQuote(kHostileAz) +
                    ":\"$PATH\" FEEDCHECK_AZ_JOB_DIR=" + ShellQuote(kBundled) + " " + env +
                    " timeout -s KILL 120 " + ShellQuote(Feedcheck()) + " " + args);
}

std::string Describe(const CommandResult& r) {
  return "exit " + std::to_string(r.exit_code) + " in " + std::to_string(r.wall_s) +
         " s\nstderr: " + r.err.substr(0, 3000) + "\nstdout: " + r.out.substr(0, 2000);
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

TEST_CASE("a child's children are killed with it at the time limit", "[safety][children]") {
  Scratch dir;
  const std::string late = dir.path + "/late";
  const auto r =
      app::RunProcess({"sh", "-c", "(sleep 2; echo late > '" + late + "') & sleep 60"}, 1.0);
  CHECK(r.timed_out);
  std::this_thread::sleep_for(std::chrono::milliseconds(3000));
  CHECK_FALSE(fs::exists(late));  // the grandchild went with the group
}

TEST_CASE("output is read until the child exits: a grandchild holding stdout does not hold it",
          "[safety][children]") {
  const auto start = std::chrono::steady_clock::now();
  const auto r = app::RunProcess({"sh", "-c", "sleep 30 & echo done; exit 0"}, 20.0);
  const double took_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK_FALSE(r.timed_out);
  CHECK(r.exit_code == 0);
  CHECK(r.out == "done\n");
  CHECK(took_s < 5);
}

TEST_CASE("fetch: az's children neither outlive its time-out nor write into -o",
          "[safety][children]") {
  Scratch dir;
  const std::string late = dir.path + "/out/late-file";
  const auto r = Fetch("FEEDCHECK_HOSTILE_AZ_LINGER=" + ShellQuote(late),
                       "fetch egress-throttled-download -w ws-ml -g rg-ml --az-timeout 3 -o " +
                           ShellQuote(dir.path + "/out"));
  INFO(Describe(r));
  CHECK(r.exit_code == 3);
  CHECK(r.wall_s < 30);  // not held to any time limit by a lingering child
  // The download's child would write 5 s after it started, 2 s after the 3 s time-out.
  std::this_thread::sleep_for(std::chrono::milliseconds(4000));
  CHECK_FALSE(fs::exists(late));
}

TEST_CASE("fetch --jobs-since: a job listed twice is fetched once, its folder kept",
          "[safety][children]") {
  Scratch dir;
  const std::string list = dir.path + "/list.json";
  std::ofstream(list) << R"([
 {"name": "egress-throttled-download", "status": "Completed",
  "creation_context": {"created_at": "2025-03-11T08:05:00Z"}},
 {"name": "egress-throttled-download", "status": "Completed",
  "creation_context": {"created_at": "2025-03-11T08:05:00Z"}}])";
  const auto r =
      Fetch("FEEDCHECK_HOSTILE_AZ_LIST=" + ShellQuote(list),
            "fetch --jobs-since 36500d -w ws-ml -g rg-ml -o " + ShellQuote(dir.path + "/fleet"));
  INFO(Describe(r));
  CHECK(r.exit_code == 0);
  CHECK(fs::exists(dir.path + "/fleet/egress-throttled-download/metrics"));
}

TEST_CASE("a job name starting with '-' never reaches az as a flag", "[safety][children]") {
  Scratch dir;
  const std::string log = dir.path + "/az.log";
  const std::string list = dir.path + "/list.json";
  std::ofstream(list) << R"([
 {"name": "--debug", "status": "Completed",
  "creation_context": {"created_at": "2025-03-11T08:05:00Z"}}])";
  // From the job list...
  auto r = Fetch(
      "FEEDCHECK_AZ_LOG=" + ShellQuote(log) + " FEEDCHECK_HOSTILE_AZ_LIST=" + ShellQuote(list),
      "fetch --jobs-since 36500d -w ws-ml -g rg-ml -o " + ShellQuote(dir.path + "/a"));
  INFO(Describe(r));
  CHECK(Slurp(log).find("--debug") == std::string::npos);
  // ...and from the command line.
  r = Fetch("FEEDCHECK_AZ_LOG=" + ShellQuote(log),
            "fetch -w ws-ml -g rg-ml -o " + ShellQuote(dir.path + "/b") + " -- --debug");
  INFO(Describe(r));
  CHECK(r.exit_code == 2);
  CHECK(Slurp(log).find("--debug") == std::string::npos);
}

TEST_CASE("postmortem --job ../x makes no folder outside the current one", "[safety][children]") {
  Scratch dir;
  fs::create_directories(dir.path + "/here");
  const auto r = Fetch("", "postmortem --job ../outside -w ws-ml -g rg-ml", dir.path + "/here");
  INFO(Describe(r));
  CHECK(r.exit_code == 2);
  CHECK_FALSE(fs::exists(dir.path + "/outside"));
}

TEST_CASE("a key in az's error text in JSON form is redacted", "[safety][children][redact]") {
  const std::string error =
      "ERROR: {\"keys\": [{\"keyName\": \"key1\", \"permissions\": "
      "\"FULL\", \"value\": \"" +
      kAccountKey + "\"}]}\n";
  // Through the runner...
  const auto r = app::RunProcess(
      {"sh", "-c", "printf '%s' \"$0\" >&2; printf '%s' \"$0\"; exit 1", error}, 10.0);
  CHECK(r.err.find(kAccountKey.substr(0, 40)) == std::string::npos);
  CHECK(r.out.find(kAccountKey.substr(0, 40)) == std::string::npos);
  // ...and through the binary: nothing of the key on either stream.
  const auto f = Fetch("FEEDCHECK_HOSTILE_AZ_ERROR=" + ShellQuote(error),
                       "fetch egress-throttled-download -w ws-ml -g rg-ml -o /tmp/unused-" +
                           std::to_string(getpid()) + " -f json");
  INFO(Describe(f));
  CHECK(f.exit_code == 3);
  CHECK((f.err + f.out).find(kAccountKey.substr(0, 40)) == std::string::npos);
}

// Property: every secret shape, in every wrapping a child's output gives it, is removed by the
// one redaction (core/redact) that all child output goes through.
TEST_CASE("every known secret shape is redacted in every wrapping", "[safety][children][redact]") {
  const std::string secret = GENERATE(
      values<std::string>({kAccountKey, "k3Jx8Q1mZpT0vYw2LrN5sHc7aUe9dGf4bIo6jKl1MnQ=",
                           "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJmZWVkY2hlY2sifQ."
                           "c2lnbmF0dXJlLXBhcnQtbm90LXJlYWw",
                           "hunter2-pw-xyz"}));
  const std::string wrapping = GENERATE(
      std::string("\"value\": \"@@\""), std::string("{\"accountKey\":\"@@\"}"),
      std::string("\"client_secret\" : \"@@\""), std::string("AccountKey=@@;EndpointSuffix=x"),
      std::string("Authorization: Bearer @@"), std::string("https://a/b?sv=1&sig=@@&se=2"),
      std::string("AZURE_STORAGE_KEY=@@"), std::string("plain @@ text"));
  const bool shaped = secret != "hunter2-pw-xyz";
  // A password has no shape: only a wrapping that names it can take it.
  if (!shaped && (wrapping == "\"value\": \"@@\"" || wrapping == "plain @@ text")) return;
  std::string text = wrapping;
  text.replace(text.find("@@"), 2, secret);
  INFO(text);
  CHECK(RedactText(text).find(secret) == std::string::npos);
}
