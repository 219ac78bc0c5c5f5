// The second safety pass, writing and credentials (label safety): --create-test-data inside the
// budgets and cleaned up after SIGHUP/SIGUSR1/SIGPIPE, `feedcheck cleanup` removing only this
// tool's leftovers, credentials refused over plain http, and input files that never end
// (/dev/zero, a FIFO). Writes go to the fault server's in-memory blob store (fault-store), which
// counts every request and uploaded byte on the server's side.
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <string>
#include <thread>

#include "tests/fault_server/server_process.h"
#include "tests/support/subprocess.h"

using namespace feedcheck::testing;

namespace {

using Clock = std::chrono::steady_clock;

std::string Feedcheck() { return EnvOr("FEEDCHECK", FEEDCHECK_BINARY_DIR "/feedcheck"); }

// Azurite's published development key: the store does not check it, the signer needs one.
const std::string kKeyEnv =
    "AZURE_STORAGE_KEY=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/"
    "K1SZFPTOtr/KBHBeksoGMGw== ";

std::string Describe(const CommandResult& r) {
  return "exit " + std::to_string(r.exit_code) + " in " + std::to_string(r.wall_s) +
         " s\nstderr: " + r.err.substr(0, 3000) + "\nstdout: " + r.out.substr(0, 3000);
}

CommandResult Run(const std::string& args, const std::string& env = kKeyEnv) {
  return RunCommand(env + " timeout -s KILL 60 " + ShellQuote(Feedcheck()) + " " + args);
}

std::string Store(const FaultServerProcess& s) { return s.Url("/devstoreaccount1/fault-store/"); }

// Blob names in the store under `prefix` (a List Blobs request of its own: take the server's
// stats before calling this).
int CountBlobs(const FaultServerProcess& s, const std::string& prefix = "") {
  CommandResult r = RunCommand("curl -sS --max-time 5 " +
                               ShellQuote(s.Url("/devstoreaccount1/fault-store?restype=container"
                                                "&comp=list&prefix=" +
                                                prefix)));
  int n = 0;
  for (size_t at = 0; (at = r.out.find("<Name>", at)) != std::string::npos; ++at) ++n;
  return n;
}

void Put(const FaultServerProcess& s, const std::string& name) {
  CommandResult r = RunCommand("curl -sS --max-time 5 -X PUT --data-binary xyz " +
                               ShellQuote(s.Url("/devstoreaccount1/fault-store/" + name)));
  REQUIRE(r.exit_code == 0);
}

// Starts feedcheck in the background (exec'd by sh, so the pid is feedcheck's).
pid_t Spawn(const std::string& args) {
  pid_t pid = fork();
  if (pid == 0) {
    std::string command =
        "exec env " + kKeyEnv + ShellQuote(Feedcheck()) + " " + args + " >/dev/null 2>/dev/null";
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  return pid;
}

int WaitExit(pid_t pid, double limit_s) {
  auto t0 = Clock::now();
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) != pid) {
    if (Clock::now() - t0 > std::chrono::duration<double>(limit_s)) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

TEST_CASE("test data: a budget that cannot fit it is refused before anything is written",
          "[safety][test-data]") {
  FaultServerProcess server(FAULT_SERVER);
  for (const char* budget : {"--max-requests 5", "--max-bytes 1MiB"}) {
    CommandResult r = Run("probe smallfiles " + ShellQuote(Store(server)) +
                          " --create-test-data --json " + budget);
    INFO(budget << ": " << Describe(r));
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("cannot fit the test data") != std::string::npos);
    ServerStats stats = server.Stats();
    REQUIRE(stats.ok);
    CHECK(stats.requests == 0);
    CHECK(stats.upload_bytes == 0);
  }
}

TEST_CASE("test data: setup and cleanup count in the budget, as the server counts",
          "[safety][test-data]") {
  FaultServerProcess server(FAULT_SERVER);
  const uint64_t max_requests = 40, max_bytes = 8ull << 20;
  const double duration_s = 5;
  for (const char* probe : {"smallfiles", "list"}) {
    ServerStats before = server.Stats();
    std::string sizes = std::string(probe) == "smallfiles" ? " --sizes 4KiB,64KiB" : "";
    CommandResult r =
        Run(std::string("probe ") + probe + " " + ShellQuote(Store(server)) +
            " --create-test-data --json --duration 5s --max-requests " +
            std::to_string(max_requests) + " --max-bytes " + std::to_string(max_bytes) + sizes);
    INFO(probe << ": " << Describe(r));
    CHECK(r.exit_code == 0);
    ServerStats after = server.Stats();
    REQUIRE(after.ok);
    uint64_t requests = after.requests - before.requests;
    CHECK(requests > 4);  // it did create, probe and remove
    CHECK(requests <= max_requests);
    CHECK(after.upload_bytes - before.upload_bytes + after.body_bytes - before.body_bytes <=
          max_bytes);
    CHECK(r.wall_s <= duration_s + 3);
    CHECK(CountBlobs(server) == 0);  // removed
  }
}

TEST_CASE("SIGHUP, SIGUSR1 and SIGPIPE leave no test data behind", "[safety][test-data]") {
  const int sig = GENERATE(SIGHUP, SIGUSR1, SIGPIPE);
  FaultServerProcess server(FAULT_SERVER);
  pid_t pid = Spawn("probe smallfiles " + ShellQuote(Store(server)) +
                    " --create-test-data --sizes 4KiB,64KiB,256KiB --requests-per-size 100000 "
                    "--concurrency 1 --duration 20s --json");
  // Once the data is there, mid-run.
  auto t0 = Clock::now();
  while (CountBlobs(server, "feedcheck-test-") < 3 && Clock::now() - t0 < std::chrono::seconds(10))
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  kill(pid, sig);
  int code = WaitExit(pid, sig == SIGPIPE ? 30 : 10);
  INFO("signal " << sig << ": exit " << code);
  if (sig == SIGPIPE) {
    CHECK(code == 0);  // ignored: the run went on to its end and cleaned up
  } else {
    CHECK(code == 128 + sig);
  }
  CHECK(CountBlobs(server) == 0);
}

TEST_CASE("feedcheck cleanup removes only the tool's own leftover prefixes, after listing",
          "[safety][test-data]") {
  FaultServerProcess server(FAULT_SERVER);
  const std::string left = "feedcheck-test-20261122T035500Z-4242-1a2b3c4d/";
  Put(server, left + "d0/a.bin");
  Put(server, left + "d1/b.bin");
  Put(server, "data/" + left + "c.bin");  // under a deeper prefix, as --create-test-data makes
  Put(server, "feedcheck-test-notours/keep.bin");       // not the generated shape
  Put(server, "data/feedcheck-test-20261122T035500Z");  // a blob named like one, no slash
  Put(server, "train/img-0001.jpg");

  CommandResult dry = Run("cleanup " + ShellQuote(Store(server)) + " --dry-run --json");
  INFO(Describe(dry));
  CHECK(dry.exit_code == 0);
  auto j = ParseJson(dry.out);
  REQUIRE(j);
  CHECK((*j)["result"]["blobs_found"] == 3);
  CHECK((*j)["result"]["blobs_deleted"] == 0);
  CHECK((*j)["result"]["prefixes"] == 2);
  CHECK((*j)["tables"][0]["rows"].size() == 2);
  CHECK(CountBlobs(server) == 6);  // a dry run deletes nothing

  CommandResult real = Run("cleanup " + ShellQuote(Store(server)));
  INFO(Describe(real));
  CHECK(real.exit_code == 0);
  CHECK(real.out.find("3 blobs found, 3 deleted") != std::string::npos);
  CHECK(CountBlobs(server) == 3);
  CHECK(CountBlobs(server, "feedcheck-test-notours/") == 1);
  CHECK(CountBlobs(server, "train/") == 1);
  CHECK(CountBlobs(server, "data/feedcheck-test-20261122T035500Z") == 1);
}

TEST_CASE("credentials are never sent in cleartext over http:// to a remote host",
          "[safety][credentials]") {
  const std::string sas = "AZURE_STORAGE_SAS_TOKEN='sv=2023-11-03&sp=rl&sig=c2VjcmV0' ";
  CommandResult r =
      Run("probe throughput http://acct.blob.core.windows.net/c/blob.bin --json", sas);
  INFO(Describe(r));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("plain http://") != std::string::npos);
  CommandResult token = Run("probe list http://acct.blob.core.windows.net/c/",
                            "AZURE_STORAGE_BEARER_TOKEN=eyJhbGciOiJub25lIn0.e30.c2ln ");
  CHECK(token.exit_code == 2);
  CommandResult wasb = Run("probe list wasb://c@acct.blob.core.windows.net/data/", sas);
  INFO(Describe(wasb));
  CHECK(wasb.exit_code == 2);
  CHECK(wasb.err.find("wasbs://c@acct.blob.core.windows.net/data/") != std::string::npos);
  // Loopback (an emulator, the fault server) stays allowed.
  FaultServerProcess server(FAULT_SERVER, {"--object-bytes", "4194304"});
  CommandResult local =
      Run("probe latency " + ShellQuote(server.Url("/devstoreaccount1/c/blob-1.bin")) +
              " --json --duration 1s",
          sas);
  INFO(Describe(local));
  CHECK(local.exit_code == 0);
}

TEST_CASE("/dev/zero or a FIFO as an input file is refused at once, naming the limit",
          "[safety][limits]") {
  char dir[] = "/tmp/feedcheck-fifo-XXXXXX";
  REQUIRE(mkdtemp(dir) != nullptr);
  std::string fifo = std::string(dir) + "/input.yaml";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  for (const std::string& input : {std::string("/dev/zero"), fifo}) {
    for (const std::string& args : {"rules validate " + input, "report " + input + " -f term",
                                    "--kb " + input + " egress --all --account-egress-gbps 120",
                                    "advise --profile " + input, "lint " + input}) {
      CommandResult r = Run(args, "");
      INFO(args << ": " << Describe(r));
      CHECK(r.wall_s < 10);
      CHECK(r.exit_code == 3);
      CHECK((r.out + r.err).find("not a regular file") != std::string::npos);
    }
  }
  RunCommand("rm -rf " + ShellQuote(dir));
}

TEST_CASE("a secret given to a misspelled flag or as a key file's name is not echoed",
          "[safety][credentials]") {
  const std::string secret = "c2VjcmV0LXBhc3RlZC1ieS1taXN0YWtl";
  for (const std::string& args :
       {"probe list https://acct.blob.core.windows.net/c/ --sas-tokn " + secret,
        "probe list https://acct.blob.core.windows.net/c/ --sas-tokn=" + secret,
        "probe throughput https://acct.blob.core.windows.net/c/b --key-file " + secret,
        "cleanup https://acct.blob.core.windows.net/c/ --token-file=" + secret}) {
    CommandResult r = Run(args, "");
    INFO(args << ": " << Describe(r));
    CHECK(r.exit_code == 2);
    CHECK((r.out + r.err).find(secret.substr(0, 12)) == std::string::npos);
    CHECK(!r.err.empty());  // still says what was wrong
  }
}
