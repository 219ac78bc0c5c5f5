// Every HTTP probe against every fault (label faults): the real `feedcheck probe NAME URL --json`
// against tests/fault_server. Each run must end within its --duration plus a small grace, exit
// with a code that says what happened (0 ok, 3 unreachable, 4 probe failed), still print its
// JSON (partial results are kept), classify throttling by Azure's message, and never send more
// requests or receive more body bytes than its budget allows, counted on the server's side.
#include <catch2/catch.hpp>
#include <string>

#include "tests/fault_server/server_process.h"
#include "tests/support/subprocess.h"

using namespace feedcheck::testing;

namespace {

constexpr double kDurationS = 3;
// Process start, the probe's own shutdown, and a request already in flight when the budget
// ends (its timeout is capped by the remaining budget, so this stays small).
constexpr double kGraceS = 3;

std::string Feedcheck() { return EnvOr("FEEDCHECK", FEEDCHECK_BINARY_DIR "/feedcheck"); }

struct ProbeRun {
  CommandResult result;
  std::optional<nlohmann::json> json;
};

ProbeRun RunProbe(const std::string& probe, const std::string& url, const std::string& extra) {
  std::string command = ShellQuote(Feedcheck()) + " probe " + probe + " " + ShellQuote(url) +
                        " --auth anonymous --json " + extra;
  ProbeRun run;
  // The outer timeout only keeps a hung probe from hanging the suite; the checks below are
  // much tighter.
  run.result = RunCommand("timeout -s KILL 60 " + command);
  run.json = ParseJson(run.result.out);
  return run;
}

// The URL each probe is pointed at: an object for the GET probes, a container (prefix) for
// the listing.
std::string TargetFor(const FaultServerProcess& server, const std::string& probe,
                      const std::string& fault) {
  std::string base = "/devstoreaccount1/fault-" + fault;
  if (probe == "list") return server.Url(base + "/");
  return server.Url(base + "/blob-1.bin");
}

// One probe against one fault.
void CheckProbeOnFault(const std::string& probe, const std::string& fault) {
  FaultServerProcess server(FAULT_SERVER,
                            {"--object-bytes", "16777216", "--slow-first-byte-ms", "10000"});
  const uint64_t max_requests = 400;
  const uint64_t max_bytes = 64ull << 20;
  ProbeRun run = RunProbe(probe, TargetFor(server, probe, fault),
                          "--duration 3s --max-requests " + std::to_string(max_requests) +
                              " --max-bytes " + std::to_string(max_bytes));
  INFO("probe " << probe << " on fault " << fault << ": exit " << run.result.exit_code << " in "
                << run.result.wall_s << " s\nstderr: " << run.result.err
                << "\nstdout: " << run.result.out.substr(0, 2000));

  CHECK(run.result.wall_s <= kDurationS + kGraceS);
  // Never a crash or a usage error; a fault is 0 (measured despite it), 3 or 4.
  CHECK((run.result.exit_code == 0 || run.result.exit_code == 3 || run.result.exit_code == 4));
  CHECK(run.json.has_value());
  CHECK_FALSE(run.result.err.empty());  // the budget statement, and what went wrong

  ServerStats stats = server.Stats();
  REQUIRE(stats.ok);
  CHECK(stats.requests <= max_requests);
  CHECK(stats.body_bytes <= max_bytes);

  // Faults that make every request fail cannot be a success.
  bool always_fails = fault.rfind("busy-", 0) == 0 || fault == "timeout500" ||
                      fault == "redirect-loop" || fault == "stall" ||
                      (fault == "truncated-list" && probe == "list") ||
                      (fault == "forbidden-some" && probe != "list");
  if (always_fails) CHECK(run.result.exit_code == 4);

  if (run.json && fault == "busy-egress") {
    auto egress = FindFactNumber(*run.json, "probe.errors.throttled_egress");
    CHECK(egress.value_or(0) >= 1);
  }
  if (run.json && fault == "busy-ops") {
    auto ops = FindFactNumber(*run.json, "probe.errors.throttled_requests");
    CHECK(ops.value_or(0) >= 1);
  }
}

void CheckProbeOnAllFaults(const std::string& probe) {
  for (const char* fault :
       {"busy-egress", "busy-ops", "busy-server", "timeout500", "reset", "stall", "wrong-length",
        "truncated-list", "forbidden-some", "redirect-loop", "slow-first-byte"}) {
    DYNAMIC_SECTION(probe << " on " << fault) { CheckProbeOnFault(probe, fault); }
  }
}

}  // namespace

// One test case per probe so ctest can run them in parallel.
TEST_CASE("throughput ends within budget on every fault", "[faults][probes]") {
  CheckProbeOnAllFaults("throughput");
}
TEST_CASE("latency ends within budget on every fault", "[faults][probes]") {
  CheckProbeOnAllFaults("latency");
}
TEST_CASE("list ends within budget on every fault", "[faults][probes]") {
  CheckProbeOnAllFaults("list");
}
TEST_CASE("smallfiles ends within budget on every fault", "[faults][probes]") {
  CheckProbeOnAllFaults("smallfiles");
}

TEST_CASE("--max-requests and --max-bytes hold exactly, counted by the server",
          "[faults][probes][budget]") {
  const std::string probe = GENERATE(as<std::string>{}, "throughput", "latency", "smallfiles");
  FaultServerProcess server(FAULT_SERVER, {"--object-bytes", "268435456"});
  SECTION("requests") {
    ProbeRun run = RunProbe(probe, server.Url("/devstoreaccount1/c/blob.bin"),
                            "--duration 10s --max-requests 37");
    INFO(probe << ": exit " << run.result.exit_code << "\n" << run.result.err);
    ServerStats stats = server.Stats();
    REQUIRE(stats.ok);
    CHECK(stats.requests <= 37);
    CHECK(stats.requests >= 1);
    CHECK(run.result.wall_s <= 10 + kGraceS);
  }
  SECTION("bytes") {
    const uint64_t max_bytes = 20ull << 20;
    ProbeRun run = RunProbe(probe, server.Url("/devstoreaccount1/c/blob.bin"),
                            "--duration 10s --max-bytes " + std::to_string(max_bytes));
    INFO(probe << ": exit " << run.result.exit_code << "\n" << run.result.err);
    ServerStats stats = server.Stats();
    REQUIRE(stats.ok);
    CHECK(stats.body_bytes <= max_bytes);
    CHECK(stats.body_bytes >= 1);
  }
}

TEST_CASE("a throttled probe retries with backoff, boundedly, and counts the retries",
          "[faults][probes][retry]") {
  FaultServerProcess server(FAULT_SERVER);
  ProbeRun run = RunProbe("latency", server.Url("/devstoreaccount1/fault-busy-server/blob.bin"),
                          "--duration 4s --max-requests 10000");
  INFO("exit " << run.result.exit_code << "\n" << run.result.err << "\n" << run.result.out);
  ServerStats stats = server.Stats();
  REQUIRE(stats.ok);
  // Without backoff a loopback client sends thousands of requests in 4 s; with any backoff
  // policy worth the name it sends far fewer.
  CHECK(stats.requests >= 1);
  CHECK(stats.requests <= 200);
  CHECK(run.result.exit_code == 4);
}
