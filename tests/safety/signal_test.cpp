// Ctrl-C and SIGTERM on the read-only probes (label nginx, safety): `feedcheck probe throughput`
// and `latency` against a real nginx, killed mid-run by a real signal. They must stop within
// about a second, still print what they measured (JSON, status "partial") and exit 128 +
// the signal (130 for SIGINT, 143 for SIGTERM), as docs/safety.md states.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/subprocess.h"

using namespace feedcheck::testing;

namespace {

using Clock = std::chrono::steady_clock;

std::string Nginx() { return EnvOr("FEEDCHECK_TEST_NGINX", "http://127.0.0.1:18000"); }

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Killed {
  int exit_code = -1;
  double stop_s = 0;  ///< from the signal to the exit
  std::string out, err;
};

// Starts feedcheck with `args` (fork + exec, so the signal is not ignored as it would be for
// a shell's background job), sends `sig` after `after_s` (or, with `ready`, as soon as it
// holds, polled for at most 20 s), waits for the exit.
Killed RunAndSignal(const std::vector<std::string>& args, int sig, double after_s,
                    const std::function<bool()>& ready = {}) {
  std::string stem = std::string(FEEDCHECK_BINARY_DIR) + "/signal-test-" +
                     std::to_string(::getpid()) + "-" + std::to_string(sig);
  std::string out_path = stem + ".out", err_path = stem + ".err";
  pid_t pid = fork();
  if (pid == 0) {
    if (!freopen(out_path.c_str(), "w", stdout) || !freopen(err_path.c_str(), "w", stderr))
      _exit(127);
    std::string bin = std::string(FEEDCHECK_BINARY_DIR) + "/feedcheck";
    std::vector<std::string> copy = args;
    std::vector<char*> argv{bin.data()};
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(bin.c_str(), argv.data());
    _exit(127);
  }
  Killed k;
  if (ready) {
    auto start = Clock::now();
    while (!ready() && Clock::now() - start < std::chrono::seconds(20))
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
  } else {
    std::this_thread::sleep_for(std::chrono::duration<double>(after_s));
  }
  kill(pid, sig);
  auto t0 = Clock::now();
  int status = 0;
  // Bounded wait: a probe that ignores the signal is killed after 20 s and the test fails.
  for (;;) {
    pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (Clock::now() - t0 > std::chrono::seconds(20)) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  k.stop_s = std::chrono::duration<double>(Clock::now() - t0).count();
  k.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  k.out = ReadFile(out_path);
  k.err = ReadFile(err_path);
  std::remove(out_path.c_str());
  std::remove(err_path.c_str());
  return k;
}

}  // namespace

TEST_CASE("throughput and latency stop on SIGINT/SIGTERM, print a partial result, exit 128+N",
          "[safety][signals]") {
  const int sig = GENERATE(SIGINT, SIGTERM);
  const std::string probe = GENERATE(as<std::string>{}, "throughput", "latency");
  std::vector<std::string> args = {"probe", probe, "--json", "--duration", "60s"};
  if (probe == "throughput") {
    // 256 MiB object, 2 connections for a minute: the signal lands mid-transfer.
    for (const char* a : {"--concurrency", "2", "--warmup", "0.5s"}) args.push_back(a);
    args.insert(args.begin() + 2, Nginx() + "/256m.bin");
  } else {
    for (const char* a : {"--requests", "10000000"}) args.push_back(a);
    args.insert(args.begin() + 2, Nginx() + "/4k.bin");
  }
  Killed k = RunAndSignal(args, sig, 2.0);
  INFO(probe << " signal " << sig << ": exit " << k.exit_code << " after " << k.stop_s
             << " s\nstderr: " << k.err << "\nstdout: " << k.out.substr(0, 1500));
  CHECK(k.exit_code == 128 + sig);
  CHECK(k.stop_s < 2.0);  // promptly: in-flight transfers are aborted, not waited for
  CHECK(k.err.find(sig == SIGINT ? "SIGINT" : "SIGTERM") != std::string::npos);
  auto json = ParseJson(k.out);
  REQUIRE(json.has_value());
  CHECK((*json)["result"]["status"] == "partial");
  CHECK((*json)["result"]["message"].get<std::string>().find(
            sig == SIGINT ? "stopped by SIGINT" : "stopped by SIGTERM") != std::string::npos);
  // What was measured before the signal is kept.
  const char* fact = probe == "throughput" ? "probe.throughput.gbps" : "probe.latency.ttfb_p50_ms";
  auto value = FindFactNumber(*json, fact);
  REQUIRE(value.has_value());
  CHECK(*value > 0);
  // A stop is not a storage failure: the aborted transfer is not counted as an error.
  CHECK(FindFactNumber(*json, "probe.errors.total").value_or(-1) == 0);
}

TEST_CASE("a stopped probe prints its human summary too", "[safety][signals]") {
  Killed k = RunAndSignal(
      {"probe", "latency", Nginx() + "/4k.bin", "--requests", "10000000", "--duration", "60s"},
      SIGINT, 1.5);
  INFO(k.err << k.out);
  CHECK(k.exit_code == 130);
  // The terminal report of what was measured before the stop.
  CHECK(k.out.find("Probe: latency") != std::string::npos);
  CHECK(k.out.find("First byte p50") != std::string::npos);
  CHECK(k.err.find("partial") != std::string::npos);
}

// Preflight writes one thing, the disk stage's test file in --cache-dir: stopped while writing
// it, the file is gone afterwards. A local directory is the target, so no service is needed.
TEST_CASE("preflight's cache-disk test file is removed on SIGINT and SIGTERM",
          "[safety][signals-local]") {
  const int sig = GENERATE(SIGINT, SIGTERM);
  namespace fs = std::filesystem;
  char dir_template[] = "/tmp/feedcheck-signal-cache-XXXXXX";
  REQUIRE(mkdtemp(dir_template));
  const fs::path cache = dir_template;
  auto has_file = [&] { return !fs::is_empty(cache); };
  Killed k = RunAndSignal(
      {"preflight", cache.string(), "--sku", "Standard_D4s_v5", "--nodes", "1", "--probes", "disk",
       "--cache-dir", cache.string(), "--cache-test-bytes", "2GiB", "--duration", "60s", "--json"},
      sig, 0, has_file);
  INFO("signal " << sig << ": exit " << k.exit_code << " after " << k.stop_s
                 << " s\nstderr: " << k.err << "\nstdout: " << k.out.substr(0, 1500));
  CHECK(k.exit_code == 128 + sig);
  CHECK(k.stop_s < 5.0);
  CHECK(k.err.find("test file of up to 2.00 GiB") != std::string::npos);
  CHECK(fs::is_empty(cache));  // the test file is removed
  fs::remove(cache);
}
