// A closed stdout (a pager or `head` that quit), label safety: the command ends quietly, exit
// 141 (128 + SIGPIPE, what a shell shows) or its own status, never an abort, a core or a
// "terminate called" line, and its cleanup is done (test data it created is gone). The
// binaries run with stdout the write end of a pipe whose read end is already closed.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <string>

#include "tests/fault_server/server_process.h"
#include "tests/support/subprocess.h"

using namespace feedcheck::testing;

namespace {

struct Closed {
  int exit_code = -1;  ///< 128 + N when killed by signal N
  bool signaled = false;
  std::string err;
};

// Runs `command` (through /bin/sh) with stdout a pipe nobody reads: its read end is closed
// before the command starts.
Closed RunWithClosedStdout(const std::string& command) {
  int p[2];
  REQUIRE(pipe(p) == 0);
  close(p[0]);
  char err_path[] = "/tmp/feedcheck-closed-XXXXXX";
  const int err_fd = mkstemp(err_path);
  REQUIRE(err_fd >= 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    dup2(p[1], 1);
    dup2(err_fd, 2);
    // As a shell would start it: SIGPIPE at its default action.
    signal(SIGPIPE, SIG_DFL);
    execl("/bin/sh", "sh", "-c", ("exec " + command).c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(p[1]);
  close(err_fd);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  Closed c;
  c.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  c.signaled = WIFSIGNALED(status);
  std::ifstream in(err_path);
  c.err.assign(std::istreambuf_iterator<char>(in), {});
  unlink(err_path);
  return c;
}

std::string Bin(const std::string& name) {
  return ShellQuote(std::string(FEEDCHECK_BINARY_DIR) + "/" + name);
}

// What a command that ended quietly looks like: no abort (134), no signal death, no C++
// exception text.
void CheckQuiet(const Closed& c) {
  INFO("exit " << c.exit_code << "\nstderr: " << c.err.substr(0, 3000));
  CHECK(c.exit_code != 134);
  CHECK_FALSE(c.signaled);  // not killed by SIGPIPE before its cleanup
  CHECK(c.err.find("terminate called") == std::string::npos);
  CHECK(c.err.find("Aborted") == std::string::npos);
  CHECK(c.err.find("core dumped") == std::string::npos);
}

const char* kBudget = " --auth anonymous --duration 2s --max-requests 200 ";

}  // namespace

TEST_CASE("closed stdout: probe latency, list and smallfiles end quietly", "[safety][stdout]") {
  FaultServerProcess server(FAULT_SERVER, {"--object-bytes", "65536"});
  const std::string format = GENERATE(std::string(""), std::string(" --json"));
  SECTION("probe latency") {
    CheckQuiet(RunWithClosedStdout(Bin("feedcheck") + " probe latency " +
                                   ShellQuote(server.Url("/devstoreaccount1/c/blob.bin")) +
                                   kBudget + format));
  }
  SECTION("probe list") {
    CheckQuiet(RunWithClosedStdout(Bin("feedcheck") + " probe list " +
                                   ShellQuote(server.Url("/devstoreaccount1/fault-store/")) +
                                   kBudget + format));
  }
  SECTION("probe smallfiles --create-test-data: its test data is removed") {
    const auto c = RunWithClosedStdout(Bin("feedcheck") + " probe smallfiles " +
                                       ShellQuote(server.Url("/devstoreaccount1/fault-store/")) +
                                       kBudget + format + " --create-test-data --sizes 4KiB");
    CheckQuiet(c);
    const auto listing = RunCommand(
        "curl -sS --max-time 5 " +
        ShellQuote(server.Url("/devstoreaccount1/fault-store?restype=container&comp=list")));
    CHECK(listing.out.find("feedcheck-test-") == std::string::npos);
  }
}

TEST_CASE("closed stdout: every command that prints a report ends quietly", "[safety][stdout]") {
  const std::string args = GENERATE(
      std::string("egress --sku Standard_ND96asr_v4 --region eastus --nodes 12"),
      std::string("plan --sku Standard_ND96asr_v4 --region eastus --nodes 12 --dataset 1TB"),
      std::string("rules list"), std::string("facts"), std::string("--help"));
  const auto c = RunWithClosedStdout(Bin("feedcheck") + " " + args);
  INFO(args);
  CheckQuiet(c);
  CHECK((c.exit_code == 0 || c.exit_code == 141 || c.exit_code == 2));
}
