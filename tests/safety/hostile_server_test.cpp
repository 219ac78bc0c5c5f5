// The second safety pass against hostile servers (labels safety, faults): the real CLI against
// tests/fault_server answering like a broken or malicious storage account. Each case is a way a
// docs/safety.md promise used to break: error bodies counted as data, impossible sizes, invalid
// UTF-8, long names, echoed secrets, terminal and Markdown injection, bodies larger than asked
// for, a listing marker that never moves, bytes cut at the deadline counted whole, a server that
// accepts and says nothing (a stalled TLS handshake), and a listing's entity-expansion bomb.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/fault_server/server_process.h"
#include "tests/support/subprocess.h"

using namespace feedcheck::testing;

namespace {

std::string Feedcheck() { return EnvOr("FEEDCHECK", FEEDCHECK_BINARY_DIR "/feedcheck"); }

// The outer timeout only keeps a hung run from hanging the suite.
CommandResult Run(const std::string& args, const std::string& env = "") {
  return RunCommand(env + " timeout -s KILL 60 " + ShellQuote(Feedcheck()) + " " + args);
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string TempDir() {
  char dir[] = "/tmp/feedcheck-hostile-XXXXXX";
  REQUIRE(mkdtemp(dir) != nullptr);
  return dir;
}

std::string Describe(const CommandResult& r) {
  return "exit " + std::to_string(r.exit_code) + " in " + std::to_string(r.wall_s) +
         " s\nstderr: " + r.err.substr(0, 3000) + "\nstdout: " + r.out.substr(0, 3000);
}

bool HasFact(const nlohmann::json& j, const std::string& key) {
  return FindFactNumber(j, key).has_value();
}

std::string Prefix(const FaultServerProcess& s, const std::string& fault) {
  return ShellQuote(s.Url("/devstoreaccount1/fault-" + fault + "/"));
}

const char* kBudget = " --auth anonymous --json --duration 3s --max-requests 400 ";

}  // namespace

TEST_CASE("a SAS that can list but not read measures nothing: exit 4, never ready",
          "[safety][faults][hostile]") {
  FaultServerProcess server(FAULT_SERVER, {"--object-bytes", "16777216"});
  CommandResult r = Run("probe throughput " + Prefix(server, "list-only") + kBudget);
  INFO(Describe(r));
  CHECK(r.exit_code == 4);
  auto j = ParseJson(r.out);
  REQUIRE(j);
  CHECK((*j)["result"]["status"] == "failed");
  // The 403 bodies are not data: no rate is reported from them.
  CHECK_FALSE(HasFact(*j, "probe.throughput.gbps"));
  CHECK(FindFactNumber(*j, "probe.throughput.bytes").value_or(-1) == 0);
  CHECK(FindFactNumber(*j, "probe.errors.http.403").value_or(0) >= 1);

  // Throughput alone: nothing measured, exit 4. With a listing that works beside it: the run
  // measured something, but never enough to call the cluster ready.
  for (const char* probes : {"throughput", "list,throughput"}) {
    CommandResult p = Run("preflight " + Prefix(server, "list-only") + " --probes " + probes +
                          " --sku Standard_NC6s_v3 --nodes 2 --fail-on never" + kBudget);
    INFO(probes << ": " << Describe(p));
    auto pj = ParseJson(p.out);
    REQUIRE(pj);
    REQUIRE(pj->contains("verdict"));
    CHECK((*pj)["verdict"] != "ready");
    if (std::string(probes) == "throughput") CHECK(p.exit_code == 4);
  }
}

TEST_CASE("a blob size of 2^64-1 is refused with a message, no crash, a whole report",
          "[safety][faults][hostile]") {
  FaultServerProcess server(FAULT_SERVER, {"--object-bytes", "16777216"});
  for (const char* probe : {"throughput", "latency", "list", "smallfiles"}) {
    CommandResult r =
        Run(std::string("probe ") + probe + " " + Prefix(server, "huge-size") + kBudget);
    INFO(probe << ": " << Describe(r));
    CHECK(r.exit_code < 128);  // no SIGFPE
    CHECK((r.exit_code == 0 || r.exit_code == 4));
    CHECK(ParseJson(r.out).has_value());
    CHECK(r.out.find("larger than any Azure blob") != std::string::npos);
  }
  // The object itself answering HEAD with that size.
  CommandResult head =
      Run("probe throughput " +
          ShellQuote(server.Url("/devstoreaccount1/fault-huge-size/blob-1.bin")) + kBudget);
  INFO(Describe(head));
  CHECK(head.exit_code < 128);
  CHECK(ParseJson(head.out).has_value());

  std::string dir = TempDir();
  std::string out = dir + "/report.json";
  CommandResult p = Run("preflight " + Prefix(server, "huge-size") +
                        " --probes throughput,list --sku Standard_NC6s_v3 --nodes 2 --fail-on "
                        "never -o " +
                        out + kBudget);
  INFO(Describe(p));
  CHECK(p.exit_code < 128);
  CHECK(ParseJson(ReadFile(out)).has_value());
  RunCommand("rm -rf " + ShellQuote(dir));
}

TEST_CASE("invalid UTF-8 from the server or in a path: valid JSON, reports written whole",
          "[safety][faults][hostile]") {
  FaultServerProcess server(FAULT_SERVER, {"--object-bytes", "8388608"});
  for (const char* probe : {"throughput", "list", "smallfiles"}) {
    CommandResult r = Run(std::string("probe ") + probe + " " + Prefix(server, "bad-utf8") +
                          kBudget + "--max-bytes 256MiB");
    INFO(probe << ": " << Describe(r));
    CHECK(r.exit_code == 0);
    auto j = ParseJson(r.out);  // nlohmann's parser rejects invalid UTF-8
    CHECK(j.has_value());
  }
  std::string dir = TempDir();
  for (const char* format : {"json", "md", "html", "term"}) {
    std::string out = dir + "/report." + format;
    CommandResult p =
        Run("preflight " + Prefix(server, "bad-utf8") +
            " --probes list,throughput --sku Standard_NC6s_v3 --nodes 2 "
            "--fail-on never -f " +
            format + " -o " + out + " --auth anonymous --duration 3s --max-bytes 256MiB");
    INFO(format << ": " << Describe(p));
    CHECK(p.exit_code < 128);
    struct stat st {};
    REQUIRE(stat(out.c_str(), &st) == 0);
    CHECK(st.st_size > 0);
    if (std::string(format) == "json") CHECK(ParseJson(ReadFile(out)).has_value());
  }
  // A local directory whose name is not UTF-8.
  std::string bad = dir + "/data-\xff\xfe";
  REQUIRE(mkdir(bad.c_str(), 0755) == 0);
  std::ofstream(bad + "/f.bin") << "x";
  CommandResult l = Run("probe list " + ShellQuote(bad) + " --json");
  INFO(Describe(l));
  CHECK(l.exit_code == 0);
  CHECK(ParseJson(l.out).has_value());
  RunCommand("rm -rf " + ShellQuote(dir));
}

TEST_CASE("a 5,000-entry page of 1,024-character names parses", "[safety][faults][hostile]") {
  FaultServerProcess server(FAULT_SERVER, {"--list-entries", "5000", "--object-bytes", "4096"});
  CommandResult l = Run("probe list " + Prefix(server, "long-names") + kBudget);
  INFO(Describe(l));
  CHECK(l.exit_code == 0);
  auto j = ParseJson(l.out);
  REQUIRE(j);
  CHECK(FindFactNumber(*j, "probe.list.entries").value_or(0) == 5000);
  CommandResult s = Run("probe smallfiles " + Prefix(server, "long-names") + kBudget +
                        "--sizes 4KiB --requests-per-size 8");
  INFO(Describe(s));
  CHECK(s.exit_code == 0);
  CHECK(s.out.find("larger than the") == std::string::npos);
}

TEST_CASE("a secret echoed by the server in x-ms-error-code or <Code> never leaves the process",
          "[safety][faults][hostile]") {
  FaultServerProcess server(FAULT_SERVER, {"--object-bytes", "8388608"});
  const std::string sig = "RWNob2VkU2VjcmV0U2lnbmF0dXJl";
  const std::string env =
      "AZURE_STORAGE_SAS_TOKEN=" + ShellQuote("sv=2023-11-03&sp=rl&se=2030-01-01&sig=" + sig) + " ";
  std::string dir = TempDir();
  std::string all;
  for (const char* probe : {"throughput", "latency", "list", "smallfiles"}) {
    for (const char* json : {" --json", ""}) {
      CommandResult r =
          RunCommand(env + " timeout -s KILL 60 " + ShellQuote(Feedcheck()) + " probe " + probe +
                     " " + Prefix(server, "echo-secret") + " --duration 3s" + json);
      INFO(probe << json << ": " << Describe(r));
      CHECK(r.exit_code == 4);
      all += r.out + r.err;
    }
  }
  for (const char* format : {"json", "md", "html", "term"}) {
    std::string out = dir + "/report." + format;
    CommandResult p = RunCommand(env + " timeout -s KILL 60 " + ShellQuote(Feedcheck()) +
                                 " preflight " + Prefix(server, "echo-secret") +
                                 " --sku Standard_NC6s_v3 --nodes 2 --fail-on never --duration "
                                 "3s -f " +
                                 format + " -o " + out);
    all += p.out + p.err + ReadFile(out);
  }
  CHECK(all.find(sig) == std::string::npos);
  CHECK(all.find(sig.substr(0, 16)) == std::string::npos);
  CHECK(all.find("UnrecognizedErrorCode") != std::string::npos);  // counted, not shown as sent
  RunCommand("rm -rf " + ShellQuote(dir));
}

TEST_CASE("escape sequences from the server are shown escaped, not obeyed",
          "[safety][faults][hostile]") {
  FaultServerProcess server(FAULT_SERVER);
  std::string dir = TempDir();
  std::string all;
  for (const char* probe : {"throughput", "list", "smallfiles"}) {
    CommandResult r = Run(std::string("probe ") + probe + " " + Prefix(server, "escape") +
                          " --auth anonymous --duration 3s");
    INFO(probe << ": " << Describe(r));
    CHECK(r.exit_code == 4);
    all += r.out + r.err;
  }
  // A saved report carrying an ESC in a fact (as from another tool's facts.json) rendered for
  // the terminal.
  std::string facts = dir + "/facts.json";
  std::ofstream(facts) << R"({"schema_version":1,"facts":[{"key":"node.sku","value":)"
                       << R"("a\u001b]0;pwned\u0007b\u001b[2J","unit":"text",)"
                       << R"("provenance":{"origin":"declared","source":"x\u009b31m"}}]})";
  CommandResult t = Run("report " + ShellQuote(facts) + " -f term -v");
  INFO(Describe(t));
  all += t.out + t.err;
  CHECK(t.out.find("pwned") != std::string::npos);  // the text is shown...
  CHECK(all.find('\x1b') == std::string::npos);     // ...with no ESC to act on
  CHECK(all.find('\x07') == std::string::npos);
  CHECK(all.find("\xc2\x9b") == std::string::npos);
  RunCommand("rm -rf " + ShellQuote(dir));
}

TEST_CASE("backticks and fences from the server stay inside Markdown code",
          "[safety][faults][hostile]") {
  FaultServerProcess server(FAULT_SERVER);
  std::string dir = TempDir();
  std::string out = dir + "/report.md";
  CommandResult p = Run("preflight " + Prefix(server, "markdown") +
                        " --probes list --sku Standard_NC6s_v3 --nodes 2 --fail-on never "
                        "--auth anonymous --duration 3s -f md -o " +
                        out);
  INFO(Describe(p));
  std::string md = ReadFile(out);
  INFO(md);
  CHECK(!md.empty());
  CHECK(md.find("\n# injected") == std::string::npos);
  // Whatever a code does to a fact key, a facts file with backticks in its values renders with
  // every table row still a row.
  std::string facts = dir + "/facts.json";
  std::ofstream(facts) << R"({"schema_version":1,"facts":[{"key":"node.sku","value":)"
                       << R"("x` | **y** ```\n# z","unit":"text",)"
                       << R"("provenance":{"origin":"declared","source":"s"}}]})";
  CommandResult t = Run("report " + ShellQuote(facts) + " -f md");
  INFO(t.out);
  CHECK(t.out.find("\n# z") == std::string::npos);
  CHECK(t.out.find("\\`") != std::string::npos);
  RunCommand("rm -rf " + ShellQuote(dir));
}

TEST_CASE("more body than asked for is cut the moment it exceeds, within --max-bytes",
          "[safety][faults][hostile]") {
  SECTION("an endless chunked listing") {
    FaultServerProcess server(FAULT_SERVER);
    const uint64_t max_bytes = 96ull << 20;
    CommandResult r = Run("probe list " + Prefix(server, "endless-list") + kBudget +
                          "--max-bytes " + std::to_string(max_bytes));
    INFO(Describe(r));
    CHECK(r.exit_code == 4);
    ServerStats stats = server.Stats();
    REQUIRE(stats.ok);
    CHECK(stats.requests == 1);  // not retried: more of the same would follow
    CHECK(stats.body_bytes <= max_bytes);
  }
  SECTION("a 206 sending 64 times the requested range") {
    FaultServerProcess server(FAULT_SERVER, {"--object-bytes", "67108864"});
    const uint64_t max_bytes = 96ull << 20;
    CommandResult r =
        Run("probe throughput " + Prefix(server, "big-206") + kBudget +
            "--block-size 1MiB --concurrency 4 --max-bytes " + std::to_string(max_bytes));
    INFO(Describe(r));
    auto j = ParseJson(r.out);
    REQUIRE(j);
    CHECK((*j)["result"]["status"] != "ok");
    ServerStats stats = server.Stats();
    REQUIRE(stats.ok);
    CHECK(stats.body_bytes <= max_bytes);
    CHECK(stats.requests <= 1 + 4);  // the listing, then one attempt per connection: no retry
  }
}

TEST_CASE("a NextMarker that never changes ends the listing with a diagnostic",
          "[safety][faults][hostile]") {
  FaultServerProcess server(FAULT_SERVER, {"--list-entries", "100"});
  CommandResult r = Run("probe list " + Prefix(server, "stuck-marker") + kBudget);
  INFO(Describe(r));
  CHECK(r.exit_code == 0);  // partial: what was listed is kept
  auto j = ParseJson(r.out);
  REQUIRE(j);
  CHECK((*j)["result"]["status"] == "partial");
  CHECK(FindFactNumber(*j, "probe.list.pages").value_or(0) <= 2);
  CHECK(r.out.find("NextMarker did not change") != std::string::npos);
}

TEST_CASE("bytes cut at the deadline are counted as received, not whole",
          "[safety][faults][hostile]") {
  // Each 8 MiB range stalls after half: every transfer is cut by the 2 s deadline.
  FaultServerProcess server(FAULT_SERVER, {"--object-bytes", "67108864"});
  CommandResult r = Run("probe throughput " + Prefix(server, "stall") +
                        " --auth anonymous --json --duration 2s --block-size 8MiB "
                        "--concurrency 2");
  INFO(Describe(r));
  auto j = ParseJson(r.out);
  REQUIRE(j);
  ServerStats stats = server.Stats();
  REQUIRE(stats.ok);
  CHECK((*j)["result"]["status"] != "ok");  // no block completed: never "ok"
  uint64_t reported = (*j)["result"]["bytes"].get<uint64_t>();
  CHECK(reported > 0);
  // What the server sent bounds what arrived; two whole ranges would be 16 MiB.
  CHECK(reported <= stats.body_bytes);
  CHECK(reported < (16ull << 20));
}

TEST_CASE("a listed name with ../ is read inside its container, never outside",
          "[safety][faults][hostile]") {
  FaultServerProcess server(FAULT_SERVER, {"--object-bytes", "4194304"});
  for (const char* probe : {"throughput", "smallfiles"}) {
    CommandResult r = Run(std::string("probe ") + probe + " " + Prefix(server, "dotdot") + kBudget +
                          "--max-bytes 64MiB");
    INFO(probe << ": " << Describe(r));
    CHECK(r.exit_code == 0);
  }
  CommandResult stats = RunCommand("curl -sS --max-time 5 " + ShellQuote(server.Url("/__stats")));
  INFO(stats.out);
  CHECK(stats.out.find("\"418\"") == std::string::npos);  // no request left the container
}

// A server that accepts the connection and then never reads or answers: over http a request
// with no answer (reached: 4), over https a TLS handshake that never comes (no HTTP at all: 3).
// Every probe, both schemes, side by side (each run waits out its budget).
TEST_CASE("a server that accepts and says nothing: within budget, no TLS is a target error",
          "[safety][faults][hostile]") {
  FaultServerProcess server(FAULT_SERVER);
  struct Case {
    std::string probe, scheme;
    CommandResult result;
  };
  std::vector<Case> cases;
  for (const char* probe : {"throughput", "latency", "list", "smallfiles"})
    for (const char* scheme : {"http", "https"}) cases.push_back({probe, scheme, {}});
  std::vector<std::thread> runs;
  for (Case& c : cases) {
    runs.emplace_back([&c, &server] {
      std::string path = c.probe == "list" ? "/devstoreaccount1/c/" : "/devstoreaccount1/c/b.bin";
      c.result = Run("probe " + c.probe + " " + ShellQuote(server.SilentUrl(c.scheme, path)) +
                     " --auth anonymous --json --duration 2s");
    });
  }
  for (auto& t : runs) t.join();
  for (const Case& c : cases) {
    INFO(c.probe << " over " << c.scheme << ": " << Describe(c.result));
    CHECK(c.result.wall_s <= 2 + 3);
    auto j = ParseJson(c.result.out);
    REQUIRE(j);
    std::string message = (*j)["result"].value("message", "");
    if (c.scheme == "https") {
      CHECK(c.result.exit_code == 3);
      CHECK(message.find("no TLS handshake within") != std::string::npos);
    } else {
      CHECK(c.result.exit_code == 4);
      CHECK(message.find("timed out") != std::string::npos);
    }
  }
  ServerStats stats = server.Stats();
  REQUIRE(stats.ok);
  CHECK(stats.silent_connections >= cases.size());  // each run did connect
  CHECK(stats.silent_connections <= 4 * cases.size());
}

// A listing page with the "billion laughs": refused whole, never expanded, by every probe that
// lists (the throughput probe's discovery of a prefix too).
TEST_CASE("a listing with an entity-expansion bomb is refused, never expanded",
          "[safety][faults][hostile]") {
  FaultServerProcess server(FAULT_SERVER);
  for (const char* probe : {"throughput", "latency", "list", "smallfiles"}) {
    CommandResult r =
        Run(std::string("probe ") + probe + " " + Prefix(server, "entity-bomb") + kBudget);
    INFO(probe << ": " << Describe(r));
    CHECK(r.exit_code == 4);
    CHECK(r.wall_s < 3 + 3);
    auto j = ParseJson(r.out);
    REQUIRE(j);
    CHECK((*j)["result"].value("message", "").find("DOCTYPE") != std::string::npos);
  }
}
