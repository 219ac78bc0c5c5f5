// Every storage probe (throughput, latency, list, smallfiles), and preflight, which runs them
// all in one budget, against every fault (label faults): the real `feedcheck probe NAME URL
// --json` against tests/fault_server. Each run must end within its --duration plus a small
// grace, exit with a code that says what happened (0 ok, 3 unreachable, 4 probe failed), still
// print its JSON (partial results are kept), classify throttling by Azure's message, and never
// send more requests or receive more body bytes than its budget allows, counted on the server's
// side.
#include <catch2/catch.hpp>
#include <optional>
#include <set>
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

// Every run carries a SAS (fake, distinctive): whatever a fault does, its signature must never
// be printed (CheckProbeOnFault searches both streams).
const std::string kSasSig = "ZmF1bHRTZXJ2ZXJTYXNTaWduYXR1cmUtaG9zdGlsZQ%3D%3D";
const std::string kSas = "sv=2023-11-03&ss=b&srt=sco&sp=rl&se=2030-01-01T00:00:00Z&sig=" + kSasSig;

ProbeRun RunProbe(const std::string& probe, const std::string& url, const std::string& extra) {
  std::string command = "env AZURE_STORAGE_SAS_TOKEN=" + ShellQuote(kSas) + " " +
                        ShellQuote(Feedcheck()) + " probe " + probe + " " + ShellQuote(url) +
                        " --auth sas --json " + extra;
  ProbeRun run;
  // The outer timeout only keeps a hung probe from hanging the suite; the checks below are
  // much tighter.
  run.result = RunCommand("timeout -s KILL 60 " + command);
  run.json = ParseJson(run.result.out);
  return run;
}

// The URL each probe is pointed at: an object for the GET probes and smallfiles (which lists
// the container, then reads its objects), a container (prefix) for the listing.
std::string TargetFor(const FaultServerProcess& server, const std::string& probe,
                      const std::string& fault) {
  std::string base = "/devstoreaccount1/fault-" + fault;
  if (probe == "list") return server.Url(base + "/");
  return server.Url(base + "/blob-1.bin");
}

// The list probe meets the body faults in its listing pages (three pages, so the flaky faults
// hit the second); the others meet them in object reads.
std::vector<std::string> ServerArgsFor(const std::string& probe) {
  std::vector<std::string> args = {"--object-bytes", "16777216", "--slow-first-byte-ms", "10000"};
  if (probe == "list") {
    for (const char* a : {"--list-body-faults", "1", "--list-pages", "3"}) args.push_back(a);
  }
  return args;
}

bool HasSeriesPoints(const nlohmann::json& j, const std::string& key) {
  if (!j.contains("evidence") || !j["evidence"].contains("series")) return false;
  for (const auto& s : j["evidence"]["series"])
    if (s.value("key", "") == key && s.contains("points") && !s["points"].empty()) return true;
  return false;
}

// One probe against one fault.
void CheckProbeOnFault(const std::string& probe, const std::string& fault) {
  std::vector<std::string> server_args = ServerArgsFor(probe);
  std::optional<FaultServerProcess> elsewhere;  // where "redirect-away" points
  if (fault == "redirect-away") {
    elsewhere.emplace(FAULT_SERVER);
    server_args.push_back("--redirect-to");
    server_args.push_back(elsewhere->Url(""));
  }
  FaultServerProcess server(FAULT_SERVER, server_args);
  const uint64_t max_requests = 400;
  const uint64_t max_bytes = 1ull << 30;  // lets the flaky runs measure past warm-up
  ProbeRun run = RunProbe(probe, TargetFor(server, probe, fault),
                          "--duration 3s --max-requests " + std::to_string(max_requests) +
                              " --max-bytes " + std::to_string(max_bytes));
  INFO("probe " << probe << " on fault " << fault << ": exit " << run.result.exit_code << " in "
                << run.result.wall_s << " s\nstderr: " << run.result.err
                << "\nstdout: " << run.result.out.substr(0, 2000));

  CHECK(run.result.wall_s <= kDurationS + kGraceS);
  bool lister = probe == "list" || probe == "smallfiles";  // GETs a listing first
  // Never a crash or a usage error; a fault is 0 (measured despite it) or 4 (reached, but
  // nothing measured); never 3: the server answered. Except a target that is no HTTP server,
  // or an object whose HEAD names no size: the target is wrong (3).
  bool target_error = fault == "not-http" || (fault == "bad-chunked" && !lister);
  if (target_error) {
    CHECK(run.result.exit_code == 3);
  } else {
    CHECK((run.result.exit_code == 0 || run.result.exit_code == 4));
  }
  CHECK(run.json.has_value());
  CHECK_FALSE(run.result.err.empty());  // the budget statement, and what went wrong

  ServerStats stats = server.Stats();
  REQUIRE(stats.ok);
  CHECK(stats.requests <= max_requests);
  CHECK(stats.body_bytes <= max_bytes);

  // Faults that make every request fail cannot be a success: exit 4 (probe failed), never 3
  // (the server was reached: even a 10 s first byte comes after a TCP connection).
  // The answers that contradict the request: object reads meet them (the list probe, whose
  // listing is healthy, does not), and listings meet the hostile pages.
  bool wrong_read = fault == "ignore-range" || fault == "range-mismatch" || fault == "gzip";
  bool hostile_page = fault == "entity-bomb" || fault == "whitespace-list";
  bool always_fails =
      fault.rfind("busy-", 0) == 0 || fault == "timeout500" || fault == "redirect-loop" ||
      fault == "stall" || fault == "slow-first-byte" || fault == "forbidden" || fault == "reset" ||
      fault == "wrong-length" || fault == "huge-header" || fault == "endless-headers" ||
      fault == "trickle" || fault == "redirect-away" || fault == "retry-after" ||
      (wrong_read && (probe != "list" || fault == "gzip")) || (hostile_page && lister) ||
      (fault == "bad-chunked" && lister) || (fault == "truncated-list" && lister) ||
      (fault == "forbidden-some" && probe != "list" && probe != "smallfiles");
  if (!lister && (fault == "reset" || fault == "wrong-length")) always_fails = false;
  if (always_fails) CHECK(run.result.exit_code == 4);
  if (!run.json) return;
  if (always_fails) CHECK((*run.json)["result"]["status"] == "failed");
  // A broken response head is named in the result, in words a user can act on.
  const std::string message = (*run.json)["result"].value("message", "");
  if (fault == "huge-header" || fault == "endless-headers")
    CHECK(message.find("response headers too large") != std::string::npos);
  if (fault == "not-http") CHECK(message.find("did not answer in HTTP") != std::string::npos);
  if (fault == "trickle")
    CHECK(message.find(lister ? "timed out" : "sends too slowly") != std::string::npos);
  if (fault == "bad-chunked")
    CHECK(message.find(lister ? "chunked" : "Content-Length 0 or missing") != std::string::npos);
  // What the server did, in words; never its SAS.
  for (const std::string& stream : {run.result.out, run.result.err}) {
    CHECK(stream.find(kSasSig) == std::string::npos);
    CHECK(stream.find(kSasSig.substr(0, 16)) == std::string::npos);
  }
  auto says = [&](const std::string& words) {
    INFO("the message should say: " << words);
    CHECK(message.find(words) != std::string::npos);
  };
  if (fault == "ignore-range" && probe != "list") says("ignored the Range: HTTP 200 announcing");
  if (fault == "range-mismatch" && probe != "list") says("Content-Range disagrees with the Range");
  if (fault == "gzip") says("Content-Encoding: gzip");
  if (fault == "redirect-away") {
    says("a redirect to " + elsewhere->Url("") + ", not followed");
    ServerStats other = elsewhere->Stats();
    REQUIRE(other.ok);
    CHECK(other.requests == 0);  // nothing followed it there
  }
  if (fault == "retry-after") {
    says("Retry-After 86400 s");
    says("would pass the end of the time budget");
  }
  if (hostile_page && lister) {
    says(fault == "entity-bomb" ? "DOCTYPE" : "bytes where at most");
  }
  if (fault == "marker-loop" && probe == "list") {
    CHECK(run.result.exit_code == 0);  // what was listed once is kept
    CHECK((*run.json)["result"]["status"] == "partial");
    says("leads back to page 2");
  }
  auto fact = [&](const char* key) { return FindFactNumber(*run.json, key).value_or(0); };
  // Throttling is recognised as such. A HEAD's 503 has no body, so the GET probes' first
  // request (a HEAD) sees ServerBusy; a listing GET carries Azure's message and tells egress
  // from request-rate throttling.
  if (fault.rfind("busy-", 0) == 0 && !lister) CHECK(fact("probe.errors.server_busy") >= 1);
  if (lister) {
    if (fault == "busy-egress") CHECK(fact("probe.errors.throttled_egress") >= 1);
    if (fault == "busy-ops") CHECK(fact("probe.errors.throttled_requests") >= 1);
    if (fault == "busy-server" || fault == "timeout500")
      CHECK(fact("probe.errors.server_busy") >= 1);
    if (fault == "forbidden") CHECK(fact("probe.errors.http.403") >= 1);
    if (fault == "redirect-loop") CHECK(fact("probe.errors.http.302") >= 1);
    if (always_fails) CHECK(fact("probe.errors.total") >= 1);
  }
  if (fault == "forbidden-some" && probe == "smallfiles") {
    // Some objects refused: the others are measured, the refusals counted; partial, exit 0.
    CHECK(run.result.exit_code == 0);
    CHECK(fact("probe.errors.http.403") >= 1);
    CHECK(HasSeriesPoints(*run.json, "probe.smallfile.time_by_size"));
  }
  if (fault == "forbidden-some" && probe == "list") CHECK(run.result.exit_code == 0);
  // Nothing of a wrong answer is data, and it is not asked for again: the first one ends the
  // probe (the HEAD or listing, then one read).
  if (wrong_read && probe != "list") {
    CHECK(stats.requests <= 2);
    // Only a listing's bytes arrived (smallfiles); a HEAD has no body.
    if (!lister) CHECK((*run.json)["result"].value("bytes", uint64_t{0}) == 0);
    CHECK_FALSE(HasSeriesPoints(*run.json, "probe.smallfile.time_by_size"));
  }
  if (fault == "retry-after") CHECK(stats.requests == 1);  // the wait is past the budget
  if (fault == "marker-loop" && probe == "list") {
    CHECK(stats.requests == 3);  // pages 1, 2, 3; page 3 points back to page 2
    CHECK(fact("probe.list.entries") == 60);
  }
  if (fault.rfind("flaky-", 0) == 0) {
    // Every second request fails: the probe measures anyway and keeps its result. Throughput
    // and the listing retry the failed request; latency and smallfiles do not retry a timed
    // read (a retried sample would hide the failure it measures) but count every failure.
    CHECK(run.result.exit_code == 0);
    CHECK(fact("probe.errors.total") >= 1);
    if (probe == "throughput" || probe == "list") CHECK(fact("probe.errors.retries") >= 1);
    if (probe == "smallfiles") {
      CHECK(HasSeriesPoints(*run.json, "probe.smallfile.time_by_size"));
    } else {
      const char* main_fact = probe == "throughput" ? "probe.throughput.gbps"
                              : probe == "latency"  ? "probe.latency.ttfb_p50_ms"
                                                    : "probe.list.entries_per_s";
      CHECK(FindFactNumber(*run.json, main_fact).has_value());
    }
    if (probe == "list") CHECK(fact("probe.list.entries") == 60);  // all three pages
  }
  if (fault == "flaky-egress") CHECK(fact("probe.errors.throttled_egress") >= 1);
  if (fault == "flaky-ops") CHECK(fact("probe.errors.throttled_requests") >= 1);
}

void CheckProbeOnAllFaults(const std::string& probe) {
  for (const char* fault : {"busy-egress",    "busy-ops",    "busy-server",    "timeout500",
                            "reset",          "stall",       "wrong-length",   "truncated-list",
                            "forbidden-some", "forbidden",   "redirect-loop",  "slow-first-byte",
                            "flaky-egress",   "flaky-ops",   "huge-header",    "endless-headers",
                            "not-http",       "bad-chunked", "trickle",        "ignore-range",
                            "range-mismatch", "gzip",        "redirect-away",  "retry-after",
                            "marker-loop",    "entity-bomb", "whitespace-list"}) {
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

// The latency probe's raw lane with several connections in flight: a fault met by all of them
// at once still ends in time, within budget, counts only bytes that arrived, and an answer that
// contradicts the request stops every lane after the reads already in flight.
TEST_CASE("latency --concurrency 4 on the raw lane ends within budget on read faults",
          "[faults][probes]") {
  for (const char* fault :
       {"ignore-range", "range-mismatch", "gzip", "reset", "wrong-length", "stall"}) {
    DYNAMIC_SECTION("latency --concurrency 4 on " << fault) {
      FaultServerProcess server(FAULT_SERVER, {"--object-bytes", "16777216"});
      ProbeRun run = RunProbe("latency", TargetFor(server, "latency", fault),
                              "--concurrency 4 --duration 2s --max-requests 400");
      INFO(fault << ": exit " << run.result.exit_code << " in " << run.result.wall_s
                 << " s\nstderr: " << run.result.err);
      CHECK(run.result.wall_s <= 2 + kGraceS);
      REQUIRE(run.json.has_value());
      // Every ranged GET fails, so no GET latency; a reset or short body still lets the HEADs
      // be measured (partial, exit 0), the others end the run (nothing measured, 4).
      std::string fault_name = fault;
      bool heads_measured = fault_name == "reset" || fault_name == "wrong-length";
      CHECK(run.result.exit_code == (heads_measured ? 0 : 4));
      CHECK_FALSE(FindFactNumber(*run.json, "probe.latency.ttfb_p50_ms").has_value());
      if (fault_name == "stall")  // cut by the probe's own deadline: said so, not an error
        CHECK((*run.json)["result"].value("message", "").find("duration budget") !=
              std::string::npos);
      else
        CHECK(FindFactNumber(*run.json, "probe.errors.total").value_or(0) >= 1);
      ServerStats stats = server.Stats();
      REQUIRE(stats.ok);
      CHECK(stats.requests <= 400);
      CHECK((*run.json)["result"].value("bytes", uint64_t{0}) <= stats.body_bytes);
      if (fault_name == "ignore-range" || fault_name == "range-mismatch" || fault_name == "gzip") {
        CHECK(stats.requests <= 1 + 4);  // the HEAD, then one read per lane at most
        CHECK((*run.json)["result"].value("bytes", uint64_t{0}) == 0);
      }
      CHECK(run.result.err.find(kSasSig.substr(0, 16)) == std::string::npos);
    }
  }
}

TEST_CASE("budgets hold exactly: requests and bytes counted by the server",
          "[faults][probes][budget]") {
  const std::string probe = GENERATE(as<std::string>{}, "throughput", "latency");
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

// A request still in flight when the probe's --duration ends is cut by the probe itself, not
// by slow storage: neither probe counts it as a timeout or an error (every response here takes
// 150 ms, far inside the 60 s / 10 s request timeouts). The latency probe, which could not
// measure every request it was asked for, says the budget ended it.
TEST_CASE("a probe's own deadline cut is not a storage timeout", "[faults][probes][budget]") {
  const std::string probe = GENERATE(as<std::string>{}, "throughput", "latency");
  FaultServerProcess server(FAULT_SERVER,
                            {"--object-bytes", "16777216", "--slow-first-byte-ms", "150"});
  std::string extra = "--duration 2s";
  if (probe == "throughput") extra += " --concurrency 2 --warmup 0.2s";
  if (probe == "latency") extra += " --warmup-requests 1 --requests 200";
  ProbeRun run =
      RunProbe(probe, server.Url("/devstoreaccount1/fault-slow-first-byte/blob.bin"), extra);
  INFO(probe << ": exit " << run.result.exit_code << "\nstderr: " << run.result.err
             << "\nstdout: " << run.result.out.substr(0, 3000));
  REQUIRE(run.json.has_value());
  CHECK(run.result.exit_code == 0);
  CHECK_FALSE(FindFactNumber(*run.json, "probe.errors.total").value_or(0) > 0);
  CHECK_FALSE(FindFactNumber(*run.json, "probe.errors.timeouts").value_or(0) > 0);
  const nlohmann::json& result = (*run.json)["result"];
  std::string message = result.value("message", "");
  CHECK(message.find("failed") == std::string::npos);
  CHECK(message.find("timeout") == std::string::npos);
  if (probe == "latency") {
    // 2 s of 150 ms requests: some measured, far fewer than 200, the budget named as the cause.
    double measured = FindFactNumber(*run.json, "probe.latency.requests").value_or(0);
    CHECK(measured >= 3);
    CHECK(measured < 200);
    CHECK(result.value("status", "") == "partial");
    CHECK(message.find("duration budget reached") != std::string::npos);
  } else {
    CHECK(result.value("status", "") == "ok");
    CHECK(FindFactNumber(*run.json, "probe.throughput.gbps").value_or(0) > 0);
  }
  CHECK(run.result.wall_s <= 2 + kGraceS);
}

// The listing probes against a listing far longer than the budget: 1,000 pages of 2,000 blobs
// (~300 KB of XML a page) of 1 MiB objects.
TEST_CASE("list and smallfiles budgets hold exactly, counted by the server",
          "[faults][probes][budget]") {
  const std::string probe = GENERATE(as<std::string>{}, "list", "smallfiles");
  FaultServerProcess server(FAULT_SERVER, {"--object-bytes", "1048576", "--list-entries", "2000",
                                           "--list-pages", "1000"});
  std::string url = server.Url(probe == "list" ? "/devstoreaccount1/c/" : "/devstoreaccount1/c/x");
  std::string shape = probe == "list" ? " --max-pages 1000 --page-size 2000" : "";
  SECTION("requests") {
    ProbeRun run = RunProbe(probe, url, "--duration 10s --max-requests 9" + shape);
    INFO(probe << ": exit " << run.result.exit_code << "\n" << run.result.err);
    ServerStats stats = server.Stats();
    REQUIRE(stats.ok);
    CHECK(stats.requests <= 9);
    CHECK(stats.requests >= 2);        // it measured something before the budget ended it
    CHECK(run.result.exit_code == 0);  // partial, kept
    REQUIRE(run.json.has_value());
    CHECK((*run.json)["result"]["status"] == "partial");
    CHECK(run.result.wall_s <= 10 + kGraceS);
  }
  SECTION("bytes") {
    const uint64_t max_bytes = 6ull << 20;
    ProbeRun run =
        RunProbe(probe, url, "--duration 10s --max-bytes " + std::to_string(max_bytes) + shape);
    INFO(probe << ": exit " << run.result.exit_code << "\n" << run.result.err);
    ServerStats stats = server.Stats();
    REQUIRE(stats.ok);
    CHECK(stats.body_bytes <= max_bytes);
    CHECK(stats.body_bytes >= 1ull << 20);  // more than one page or object
    CHECK(run.result.exit_code == 0);
  }
}

// A listing that never ends (a billion entries in pages of 5,000, far more than --max-pages
// allows here): the time budget stops it, with what was listed kept.
TEST_CASE("a listing that never ends stops at --duration, partial", "[faults][probes][budget]") {
  FaultServerProcess server(FAULT_SERVER, {"--list-entries", "5000", "--list-pages", "200000"});
  ProbeRun run = RunProbe("list", server.Url("/devstoreaccount1/c/"),
                          "--duration 2s --max-pages 200000 --page-size 5000");
  INFO("exit " << run.result.exit_code << " in " << run.result.wall_s << " s\n" << run.result.err);
  CHECK(run.result.wall_s <= 2 + kGraceS);
  CHECK(run.result.exit_code == 0);
  REQUIRE(run.json.has_value());
  CHECK((*run.json)["result"]["status"] == "partial");
  CHECK((*run.json)["result"].value("message", "").find("duration budget reached") !=
        std::string::npos);
  ServerStats stats = server.Stats();
  REQUIRE(stats.ok);
  // Every page that was listed is counted once, and none that was not.
  double pages = FindFactNumber(*run.json, "probe.list.pages").value_or(0);
  CHECK(pages >= 1);
  CHECK(pages <= static_cast<double>(stats.requests));
  CHECK(FindFactNumber(*run.json, "probe.list.entries").value_or(0) == pages * 5000);
}

TEST_CASE("a throttled probe retries with backoff, boundedly, and counts the retries",
          "[faults][probes][retry]") {
  const std::string probe =
      GENERATE(as<std::string>{}, "throughput", "latency", "list", "smallfiles");
  FaultServerProcess server(FAULT_SERVER);
  ProbeRun run = RunProbe(probe, TargetFor(server, probe, "busy-server"),
                          "--duration 4s --max-requests 10000");
  INFO(probe << ": exit " << run.result.exit_code << "\n"
             << run.result.err << "\n"
             << run.result.out);
  ServerStats stats = server.Stats();
  REQUIRE(stats.ok);
  REQUIRE(run.json.has_value());
  auto retries = FindFactNumber(*run.json, "probe.errors.retries");
  REQUIRE(retries.has_value());
  // Retried (not given up at the first 503), bounded (a few attempts, not thousands), every
  // retry counted (server requests = first attempt + retries), and backed off (the waits
  // between attempts add up to more than a loopback round trip would).
  CHECK(*retries >= 1);
  CHECK(stats.requests <= 10);
  CHECK(stats.requests == static_cast<uint64_t>(*retries) + 1);
  CHECK(run.result.wall_s >= 0.1);
  CHECK(run.result.exit_code == 4);
}

// Exit codes (docs/safety.md), the same for every probe: a target that answers HTTP was
// reached, so a run that measured nothing because it was throttled or refused is "probe failed"
// (4); no connection at all is a target error (3).
TEST_CASE("every probe: throttled or refused first request exits 4, unreachable exits 3",
          "[faults][probes][exit]") {
  const std::string probe =
      GENERATE(as<std::string>{}, "throughput", "latency", "list", "smallfiles");
  FaultServerProcess server(FAULT_SERVER);
  for (const char* fault : {"busy-egress", "forbidden"}) {
    ProbeRun run = RunProbe(probe, TargetFor(server, probe, fault), "--duration 3s");
    INFO(probe << " on " << fault << ": exit " << run.result.exit_code << "\n" << run.result.err);
    CHECK(run.result.exit_code == 4);
    REQUIRE(run.json.has_value());
    CHECK((*run.json)["result"]["status"] == "failed");
  }
  // Port 1 on loopback: nothing listens, the connection is refused.
  std::string closed = probe == "list" ? "http://127.0.0.1:1/devstoreaccount1/c/"
                                       : "http://127.0.0.1:1/devstoreaccount1/c/blob-1.bin";
  ProbeRun run = RunProbe(probe, closed, "--duration 3s");
  INFO(probe << " on a closed port: exit " << run.result.exit_code << "\n" << run.result.err);
  CHECK(run.result.exit_code == 3);
  REQUIRE(run.json.has_value());
  CHECK((*run.json)["result"]["status"] == "unreachable");
}

namespace {

// `feedcheck preflight` on a container whose every request meets `fault`: all stages within
// one budget, a report whatever happens, and an exit code that matches the verdict.
void CheckPreflightOnFault(const std::string& fault) {
  FaultServerProcess server(FAULT_SERVER,
                            {"--object-bytes", "16777216", "--slow-first-byte-ms", "10000"});
  const double duration_s = 4;
  const uint64_t max_requests = 400, max_bytes = 1ull << 30;
  std::string command = ShellQuote(Feedcheck()) + " preflight " +
                        ShellQuote(server.Url("/devstoreaccount1/fault-" + fault + "/")) +
                        " --auth anonymous --sku Standard_NC6s_v3 --nodes 2 --fail-on never" +
                        " --json --duration 4s --max-requests " + std::to_string(max_requests) +
                        " --max-bytes " + std::to_string(max_bytes);
  CommandResult r = RunCommand("timeout -s KILL 60 " + command);
  INFO("preflight on fault " << fault << ": exit " << r.exit_code << " in " << r.wall_s
                             << " s\nstderr: " << r.err << "\nstdout: " << r.out.substr(0, 2000));
  CHECK(r.wall_s <= duration_s + kGraceS);
  auto j = ParseJson(r.out);
  REQUIRE(j.has_value());  // the report is written whatever the fault
  const std::string verdict = (*j)["verdict"].get<std::string>();
  if (fault == "not-http") {  // no HTTP server there: the target is wrong (3), and said so
    CHECK(r.exit_code == 3);
    CHECK(verdict == "target unreachable");
    CHECK((*j)["verdict_detail"].get<std::string>().find("did not answer in HTTP") !=
          std::string::npos);
    return;
  }
  CHECK((r.exit_code == 0 || r.exit_code == 4));
  CHECK((verdict == "nothing measured") == (r.exit_code == 4));
  // A broken response head fails the listing, and with it every stage.
  if (fault == "huge-header" || fault == "endless-headers" || fault == "bad-chunked" ||
      fault == "trickle")
    CHECK(r.exit_code == 4);
  ServerStats stats = server.Stats();
  REQUIRE(stats.ok);
  CHECK(stats.requests <= max_requests);
  CHECK(stats.body_bytes <= max_bytes);

  // Every request refused or throttled: nothing measured (4), and the report says why.
  bool always_fails = fault.rfind("busy-", 0) == 0 || fault == "timeout500" ||
                      fault == "forbidden" || fault == "redirect-loop" ||
                      fault == "slow-first-byte" || fault == "redirect-away" ||
                      fault == "retry-after" || fault == "entity-bomb";
  if (always_fails) {
    CHECK(r.exit_code == 4);
    CHECK_FALSE((*j)["verdict_detail"].get<std::string>().empty());
  }
  // The listing is healthy and only object reads fail: the dataset's shape is still measured
  // and the rules still run (exit 0 with --fail-on never).
  if (fault == "stall" || fault == "reset" || fault == "wrong-length" ||
      fault == "forbidden-some") {
    CHECK(r.exit_code == 0);
    CHECK(FindFactNumber(*j, "dataset.files") == 20);
  }
  // A probe that measured nothing is a finding, never a quiet "ready"; no data read at all will
  // starve the GPUs.
  std::set<std::string> fired;
  for (const auto& f : (*j)["findings"]) fired.insert(f["rule_id"].get<std::string>());
  if (r.exit_code == 0 && FindFactNumber(*j, "preflight.probes_failed").value_or(0) > 0) {
    CHECK(fired.count("preflight-probes-failed") == 1);
    CHECK(verdict != "ready");
  }
  // (A reset or short body still delivers part of each block: throughput is partial, not
  // failed, and the failed latency and small-file probes make the run "at risk".)
  if (fault == "stall") {
    CHECK(fired.count("preflight-no-data-read") == 1);
    CHECK(verdict == "will starve the GPUs");
  }
  // Reads answered with something else than what was asked for: the listing still measures the
  // dataset, but no byte of those answers is data, so the run is never "ready".
  if (fault == "ignore-range" || fault == "range-mismatch" || fault == "gzip") {
    CHECK(r.exit_code == 0);
    CHECK(FindFactNumber(*j, "dataset.files") == 20);
    CHECK_FALSE(FindFactNumber(*j, "probe.throughput.gbps").has_value());
    CHECK(verdict != "ready");
  }
  // The wait asked for is past the budget: no stage retries (each asks once: list, smallfiles,
  // and the listing of throughput and latency).
  if (fault == "retry-after") CHECK(stats.requests <= 4);
  if (fault == "marker-loop") CHECK(r.exit_code == 0);
  if (fault == "reset" || fault == "wrong-length") CHECK(verdict == "at risk");
  if (fault == "truncated-list") CHECK(fired.count("preflight-probes-failed") == 1);
  // Every second request throttled: retried or counted, and the run still measures.
  if (fault.rfind("flaky-", 0) == 0) {
    CHECK(r.exit_code == 0);
    CHECK(FindFactNumber(*j, "probe.errors.total").value_or(0) >= 1);
    CHECK(FindFactNumber(*j, "dataset.files") == 20);
  }
  if (fault == "busy-egress" || fault == "flaky-egress")
    CHECK(FindFactNumber(*j, "probe.errors.throttled_egress").value_or(0) >= 1);
  if (fault == "busy-ops" || fault == "flaky-ops")
    CHECK(FindFactNumber(*j, "probe.errors.throttled_requests").value_or(0) >= 1);
}

}  // namespace

// Two cases so ctest can run them side by side and each stays well inside its timeout.
TEST_CASE("preflight ends within budget on throttling and refusal faults", "[faults][preflight]") {
  for (const char* fault : {"busy-egress", "busy-ops", "busy-server", "timeout500", "forbidden",
                            "redirect-loop", "flaky-egress", "flaky-ops"}) {
    DYNAMIC_SECTION("preflight on " << fault) { CheckPreflightOnFault(fault); }
  }
}

TEST_CASE("preflight ends within budget on transport and listing faults", "[faults][preflight]") {
  for (const char* fault :
       {"reset", "stall", "wrong-length", "truncated-list", "forbidden-some", "slow-first-byte"}) {
    DYNAMIC_SECTION("preflight on " << fault) { CheckPreflightOnFault(fault); }
  }
}

TEST_CASE("preflight ends within budget on answers that contradict the request",
          "[faults][preflight]") {
  for (const char* fault : {"ignore-range", "range-mismatch", "gzip", "redirect-away",
                            "retry-after", "entity-bomb", "marker-loop"}) {
    DYNAMIC_SECTION("preflight on " << fault) { CheckPreflightOnFault(fault); }
  }
}

TEST_CASE("preflight ends within budget on broken response heads", "[faults][preflight]") {
  for (const char* fault :
       {"huge-header", "endless-headers", "not-http", "bad-chunked", "trickle"}) {
    DYNAMIC_SECTION("preflight on " << fault) { CheckPreflightOnFault(fault); }
  }
}
