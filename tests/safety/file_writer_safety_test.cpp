// The one writer (core/atomic_file), label safety: never through a link (a folder on the way
// below the folder given, or the file itself), never outside the folder given, a temporary name
// created exclusively next to the target and removed on a signal. Cases from the field through
// the real binary (`fetch` with a hostile az that leaves links in the downloaded tree), and a
// property over every place a link can be planted on the way to a file.
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/atomic_file.h"
#include "core/exit_cleanup.h"
#include "tests/support/subprocess.h"

using namespace feedcheck;
using namespace feedcheck::testing;
namespace fs = std::filesystem;

namespace {

const std::string kHostileAz = std::string(FEEDCHECK_SOURCE_DIR) + "/tests/safety/az-hostile";
const std::string kBundled =
    std::string(FEEDCHECK_SOURCE_DIR) + "/tests/data/joblogs/egress-throttled-download";

struct Scratch {
  std::string path;
  Scratch() {
    char t[] = "/tmp/feedcheck-writer-XXXXXX";
    REQUIRE(mkdtemp(t) != nullptr);
    path = t;
  }
  ~Scratch() { fs::remove_all(path); }
};

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

CommandResult Fetch(const std::string& env, const std::string& out) {
  return RunCommand(
      "env PATH=" + ShellQuote(kHostileAz) + ":\"$PATH\" FEEDCHECK_AZ_JOB_DIR=" +
      ShellQuote(kBundled) + " " + env + " timeout -s KILL 120 " +
      ShellQuote(EnvOr("FEEDCHECK", std::string(FEEDCHECK_BINARY_DIR) + "/feedcheck")) +
      " fetch egress-throttled-download -w ws-ml -g rg-ml -o " + ShellQuote(out));
}

std::vector<std::string> Entries(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  return out;
}

}  // namespace

TEST_CASE("fetch: a link at OUT/metrics left by the download is not written through",
          "[safety][writer]") {
  Scratch dir;
  const std::string victim = dir.path + "/victim";
  fs::create_directories(victim);
  std::ofstream(victim + "/stmlcorpus01-egress.json") << "victim\n";
  const auto r = Fetch("FEEDCHECK_HOSTILE_AZ_LINK=" + ShellQuote(victim), dir.path + "/out");
  INFO(r.err);
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("symbolic link") != std::string::npos);
  CHECK(Slurp(victim + "/stmlcorpus01-egress.json") == "victim\n");
  CHECK(Entries(victim).size() == 1);
}

TEST_CASE("fetch: a link at OUT/metrics/<account>-egress.json is not written through",
          "[safety][writer]") {
  Scratch dir;
  const std::string victim = dir.path + "/victim.json";
  std::ofstream(victim) << "victim\n";
  const auto r = Fetch("FEEDCHECK_HOSTILE_AZ_FILE_LINK=" + ShellQuote(victim), dir.path + "/out");
  INFO(r.err);
  CHECK(r.exit_code == 3);
  CHECK(Slurp(victim) == "victim\n");
  CHECK(fs::is_symlink(dir.path + "/out/metrics/stmlcorpus01-egress.json"));
}

// Property: whatever component on the way is a link (to a folder, to a file, dangling, to
// itself), the write is refused, nothing outside the folder changes and no temporary is left.
TEST_CASE("a link anywhere below the folder given is refused, never followed", "[safety][writer]") {
  const std::vector<std::string> path = {"a", "b", "c", "report.json"};
  const size_t at = GENERATE(0u, 1u, 2u, 3u);
  const std::string kind = GENERATE(std::string("dir"), std::string("file"),
                                    std::string("dangling"), std::string("loop"));
  Scratch dir;
  const std::string root = dir.path + "/root", outside = dir.path + "/outside";
  fs::create_directories(outside + "/a/b/c");
  std::ofstream(outside + "/file") << "outside\n";
  std::string here = root;
  for (size_t i = 0; i < at; ++i) here += "/" + path[i];
  fs::create_directories(here);
  const std::string link = here + "/" + path[at];
  const std::string target = kind == "dir"        ? outside
                             : kind == "file"     ? outside + "/file"
                             : kind == "dangling" ? outside + "/nothing"
                                                  : link;
  REQUIRE(symlink(target.c_str(), link.c_str()) == 0);
  std::string relative;
  for (const auto& p : path) relative += (relative.empty() ? "" : "/") + p;
  std::string error;
  INFO(kind << " link at " << link);
  CHECK_FALSE(WriteFileUnder(root, relative, "{}\n", &error));
  CHECK_FALSE(error.empty());
  CHECK(Slurp(outside + "/file") == "outside\n");
  CHECK_FALSE(fs::exists(outside + "/nothing"));
  CHECK_FALSE(fs::exists(outside + "/a/b/c/report.json"));
  for (const auto& e :
       fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied))
    CHECK(e.path().filename().string().rfind(".feedcheck-", 0) != 0);
}

TEST_CASE("names that would leave the folder are refused", "[safety][writer]") {
  Scratch dir;
  const std::string relative =
      GENERATE(std::string("../x"), std::string("a/../../x"), std::string("/etc/x"),
               std::string("a//x"), std::string("."), std::string(""), std::string("a/\nb"));
  std::string error;
  INFO(relative);
  CHECK_FALSE(WriteFileUnder(dir.path + "/root", relative, "x", &error));
  CHECK_FALSE(fs::exists(dir.path + "/x"));
}

TEST_CASE("a -o over a link is refused; the file it points to is left as it was",
          "[safety][writer]") {
  Scratch dir;
  const std::string victim = dir.path + "/victim", link = dir.path + "/report.json";
  std::ofstream(victim) << "victim\n";
  REQUIRE(symlink(victim.c_str(), link.c_str()) == 0);
  const auto r =
      RunCommand(ShellQuote(EnvOr("FEEDCHECK", std::string(FEEDCHECK_BINARY_DIR) + "/feedcheck")) +
                 " egress --sku Standard_ND96asr_v4 --region eastus --nodes 12 -f json -o " +
                 ShellQuote(link));
  INFO(r.err);
  CHECK(r.exit_code != 0);
  CHECK(Slurp(victim) == "victim\n");
}

TEST_CASE("a signal between the temporary file and the rename leaves nothing", "[safety][writer]") {
  Scratch dir;
  // A child writes a large file through the writer and is killed while it writes: the handler
  // of core/exit_cleanup removes the temporary file.
  const int sig = GENERATE(SIGINT, SIGTERM, SIGHUP);
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    // As a program starts: default actions (Catch2's own handlers are the parent's).
    for (int s : {SIGINT, SIGTERM, SIGHUP}) signal(s, SIG_DFL);
    InstallExitCleanupHandlers();
    std::string error;
    const std::string big(512u << 20, 'x');
    for (;;) WriteFileUnder(dir.path, "big.json", big, &error);
  }
  bool seen = false;
  for (int i = 0; i < 3000 && !seen; ++i) {  // up to 30 s on a loaded machine
    usleep(10000);
    for (const auto& name : Entries(dir.path)) seen = seen || name.rfind(".feedcheck-", 0) == 0;
  }
  REQUIRE(seen);
  kill(pid, sig);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  CHECK(WIFSIGNALED(status));
  for (const auto& name : Entries(dir.path)) CHECK(name.rfind(".feedcheck-", 0) != 0);
}
