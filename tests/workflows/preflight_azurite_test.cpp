// `feedcheck preflight` end to end against a real Azurite (ctest fixture) seeded by the real
// `feedcheck-seed`: each verdict with its exit code, the budget kept, the report's charts, the
// target errors, and no secret in any output.
#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/subprocess.h"

using namespace feedcheck::testing;

namespace {

// Azurite's well-known development key (public, documented by Microsoft): not a secret, but
// the probes must treat it as one, so the secrets case searches for it.
const std::string kKey =
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
const std::string kWrongKey =
    "V3JvbmdLZXktZmVlZGNoZWNrLXByZWZsaWdodC10ZXN0LTAxMjM0NTY3ODlBQkNERUZHSElKS0xNTk9QUQ==";

std::string Azurite() {
  std::string base = EnvOr("FEEDCHECK_TEST_AZURITE", "");
  REQUIRE_FALSE(base.empty());
  return base;
}

std::string Bin(const std::string& name) { return std::string(FEEDCHECK_BINARY_DIR) + "/" + name; }

std::string Unique(const std::string& stem) {
  return stem + "-" +
         std::to_string(std::chrono::steady_clock::now().time_since_epoch().count() % 100000000);
}

std::string Env(const std::string& key = kKey) {
  return "env AZURE_STORAGE_ACCOUNT=devstoreaccount1 AZURE_STORAGE_KEY=" + ShellQuote(key) + " ";
}

// A container with `small` files of 16 KiB and `large` files of `large_bytes`; returns its URL.
std::string Seed(const std::string& stem, int small, int large, const std::string& large_bytes) {
  std::string url = Azurite() + "/devstoreaccount1/" + Unique(stem);
  CommandResult r =
      RunCommand(Env() + ShellQuote(Bin("feedcheck-seed")) + " " + ShellQuote(url) + " --small " +
                 std::to_string(small) + " --small-bytes 16KiB --large " + std::to_string(large) +
                 " --large-bytes " + large_bytes);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return url;
}

CommandResult Preflight(const std::string& url, const std::string& args,
                        const std::string& key = kKey) {
  return RunCommand("timeout -s KILL 120 " + Env(key) + ShellQuote(Bin("feedcheck")) +
                    " preflight " + ShellQuote(url) + " " + args);
}

std::set<std::string> Fired(const nlohmann::json& j) {
  std::set<std::string> ids;
  for (const auto& f : j["findings"]) ids.insert(f["rule_id"].get<std::string>());
  return ids;
}

// What fired, for the message of a failed check: each finding's rule and title.
std::string FindingsSaid(const std::string& out) {
  auto j = ParseJson(out);
  if (!j || !j->contains("findings")) return "(no findings in the output)";
  std::string said;
  for (const auto& f : (*j)["findings"])
    said += "\n  " + f.value("rule_id", std::string("?")) + ": " + f.value("title", std::string());
  return said.empty() ? "(no finding)" : said;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string ScratchDir() {
  std::string dir = std::string(FEEDCHECK_BINARY_DIR) + "/" + Unique("preflight-test");
  RunCommand("mkdir -p " + ShellQuote(dir));
  return dir;
}

}  // namespace

TEST_CASE("preflight verdicts: ready, at risk, will starve the GPUs, with their exit codes",
          "[.][azurite][verdicts]") {
  const std::string budget = " --duration 12s --max-concurrency 4 --region eastus ";
  const std::string scratch = ScratchDir();

  SECTION("large files, one small node: ready, exit 0 even at --fail-on warning") {
    std::string url = Seed("pf-large", 0, 4, "32MiB");
    // A size still offered: a retired one (NC6s_v3) is itself a warning (vm-size-retired).
    CommandResult r = Preflight(
        url, "--sku Standard_NC24ads_A100_v4 --nodes 1" + budget + "--fail-on warning --json");
    INFO(r.err << "findings:" << FindingsSaid(r.out) << "\n" << r.out.substr(0, 3000));
    REQUIRE(r.exit_code == 0);
    auto j = ParseJson(r.out);
    REQUIRE(j.has_value());
    CHECK((*j)["verdict"] == "ready");
    CHECK((*j)["verdict_level"] == "good");
    CHECK((*j)["title"] == "Pre-flight check");
    // Azurite on loopback: the figures are marked as the emulator's, in the verdict banner.
    REQUIRE(j->contains("measurement_caveat"));
    CHECK((*j)["measurement_caveat"].get<std::string>().find("storage emulator") !=
          std::string::npos);
    // Every stage measured, and the whole run kept its stated budget.
    for (const char* key : {"probe.list.entries", "probe.latency.ttfb_p50_ms",
                            "probe.smallfile.overhead_ms", "probe.throughput.gbps"}) {
      INFO(key);
      CHECK(FindFactNumber(*j, key).has_value());
    }
    CHECK(FindFactNumber(*j, "dataset.files") == 4);
    CHECK(FindFactNumber(*j, "preflight.elapsed_s").value_or(99) <= 12 + 2);
    CHECK(r.wall_s < 12 + 10);
    CHECK(FindFactNumber(*j, "preflight.requests").value_or(1e9) <= 50000);
    // The one-node rate is capped by nothing here: supply is what was measured.
    CHECK(FindFactNumber(*j, "supply.per_node_gbps") ==
          FindFactNumber(*j, "probe.throughput.gbps"));
  }

  SECTION("the node's side: the NIC that routes to the target and, with --cache-dir, the disk") {
    std::string url = Seed("pf-node", 20, 1, "8MiB");
    const std::string cache = scratch + "/cache";
    RunCommand("mkdir -p " + ShellQuote(cache));
    CommandResult r =
        Preflight(url, "--sku Standard_NC6s_v3 --nodes 1" + budget + "--cache-dir " +
                           ShellQuote(cache) + " --cache-test-bytes 64MiB --fail-on never --json");
    INFO(r.err << "findings:" << FindingsSaid(r.out) << "\n" << r.out.substr(0, 3000));
    REQUIRE(r.exit_code == 0);
    CHECK(r.err.find("probes list, latency, smallfiles, throughput, nic, disk") !=
          std::string::npos);
    auto j = ParseJson(r.out);
    REQUIRE(j.has_value());
    // Loopback target: the route goes over lo; the size's bandwidth comes from the knowledge base.
    CHECK(FindFactText(*j, "probe.nic.interface") == "lo");
    CHECK(FindFactNumber(*j, "probe.nic.expected_gbps") == 24);
    CHECK(FindFactNumber(*j, "probe.disk.write_gbps").value_or(0) > 0);
    CHECK(FindFactNumber(*j, "probe.disk.read_gbps").value_or(0) > 0);
    CHECK(FindFactText(*j, "probe.disk.kind").has_value());
    // The test file is gone (that its bytes are not storage bytes: workflows_tests).
    CHECK(RunCommand("test -z \"$(ls -A " + ShellQuote(cache) + ")\"").exit_code == 0);
    CHECK(FindFactNumber(*j, "preflight.elapsed_s").value_or(99) <= 12 + 2);
  }

  SECTION("many small files on 12 big nodes: far over the request limit; 12 nodes alone at risk") {
    std::string url = Seed("pf-small", 300, 2, "8MiB");
    std::string html = scratch + "/preflight.html";
    CommandResult r = Preflight(url, "--sku Standard_ND96asr_v4 --nodes 12" + budget +
                                         "--fail-on warning --format html -o " + ShellQuote(html));
    INFO(r.err);
    CHECK(r.exit_code == 1);
    // 12 x 24 Gbit/s of 16 KiB files is about 55x the account's 40,000 requests/s: more than
    // 2x over a hard account limit is critical.
    CHECK(r.err.find("verdict 'will starve the GPUs'") != std::string::npos);
    // The report draws every probe chart and the predicted ramp against the account limit.
    std::string page = ReadFile(html);
    for (const char* title : {"Throughput vs concurrency", "Latency distribution (CDF)",
                              "Time per request vs object size", "Aggregate throughput vs nodes",
                              "Listing: entries over time"}) {
      INFO(title);
      CHECK(page.find(title) != std::string::npos);
    }
    // The markers that answer the verdict: the request rate needed against the account's
    // limit (the critical finding), the sweep's knee, the small-file break-even.
    for (const char* marker : {"requests-beyond-account", "knee", "break-even", "limit"}) {
      INFO(marker);
      CHECK(page.find(std::string("data-marker=\"") + marker + "\"") != std::string::npos);
    }
    // The charts answer the verdict before the findings do.
    CHECK(page.find("<h2>Charts</h2>") < page.find("<h2>Findings</h2>"));
    CHECK(page.find("not drawn: this result has no <code>probe.") == std::string::npos);
    CHECK(page.find("account egress limit") != std::string::npos);

    // The terminal report of the same run fits one screen of 100 columns: the verdict, the top
    // findings with their cost, ending with the verdict again and where the rest is.
    CommandResult term = RunCommand("timeout -s KILL 120 env COLUMNS=100 " + Env() +
                                    ShellQuote(Bin("feedcheck")) + " preflight " + ShellQuote(url) +
                                    " --sku Standard_ND96asr_v4 --nodes 12" + budget);
    INFO(term.err << term.out);
    CHECK(term.exit_code == 1);
    std::istringstream lines(term.out);
    std::vector<std::string> shown;
    for (std::string line; std::getline(lines, line);) {
      size_t columns = 0;
      for (unsigned char ch : line) columns += (ch & 0xC0) != 0x80;
      INFO(line);
      if (columns > 100) CHECK(line.find("://") != std::string::npos);  // only a long URL
      shown.push_back(line);
    }
    CHECK(shown.size() <= 40);  // it printed 203 lines once, then 72
    REQUIRE(shown.size() >= 3);
    CHECK(shown[1] == "Verdict: WILL STARVE THE GPUS");
    CHECK(shown[shown.size() - 2] == "Verdict: WILL STARVE THE GPUS");
    CHECK(shown.back().find("-v: every finding") != std::string::npos);
    CHECK(term.out.find("CRITICAL") != std::string::npos);
    CHECK(term.out.find("[requests-beyond-account]") != std::string::npos);

    CommandResult critical = Preflight(
        url, "--sku Standard_ND96asr_v4 --nodes 12" + budget + "--probes list,latency --json");
    INFO(critical.err);
    CHECK(critical.exit_code == 1);  // a critical finding; --fail-on critical by default
    auto c = ParseJson(critical.out);
    REQUIRE(c.has_value());
    REQUIRE((*c)["findings"].size() >= 2);
    CHECK((*c)["findings"][0]["rule_id"] == "requests-beyond-account");  // the farthest over
    CHECK((*c)["findings"][0]["severity"] == "critical");
    CHECK_FALSE(FindFactNumber(*c, "probe.throughput.gbps").has_value());  // not run

    // Without the listing the file sizes are unknown: only the egress warning (1.44x) is left.
    CommandResult json =
        Preflight(url, "--sku Standard_ND96asr_v4 --nodes 12" + budget + "--probes latency --json");
    INFO(json.err);
    CHECK(json.exit_code == 0);  // warnings only; --fail-on critical by default
    auto j = ParseJson(json.out);
    REQUIRE(j.has_value());
    CHECK((*j)["verdict"] == "at risk");
    CHECK(Fired(*j).count("egress-nodes-beyond-account") == 1);
  }

  SECTION("GPUs that need more than storage gives: will starve the GPUs, exit 1") {
    std::string url = Seed("pf-starve", 0, 2, "16MiB");
    std::string profile = scratch + "/unet3d.yaml";
    std::ofstream(profile) << "name: UNet3D on 8 A100 nodes\nnodes: 8\nsku: Standard_ND96asr_v4\n"
                              "region: eastus\ngpu:\n  preset: unet3d\n";
    CommandResult r = Preflight(
        url, "--profile " + ShellQuote(profile) + " --duration 12s --max-concurrency 4 --json");
    INFO(r.err << r.out.substr(0, 2000));
    CHECK(r.exit_code == 1);
    auto j = ParseJson(r.out);
    REQUIRE(j.has_value());
    CHECK((*j)["verdict"] == "will starve the GPUs");
    CHECK((*j)["verdict_level"] == "bad");
    CHECK(Fired(*j).count("gpu-demand-far-exceeds-supply") == 1);
    CHECK(FindFactNumber(*j, "node.count") == 8);  // from the profile
  }
  RunCommand("rm -rf " + ShellQuote(scratch));
}

TEST_CASE("preflight exit codes: unreachable 3, refused 4, usage 2; budgets hold",
          "[.][azurite][exits]") {
  const std::string cluster = " --sku Standard_NC6s_v3 --nodes 1 --duration 8s ";
  // Nothing listens on port 1 of loopback.
  CommandResult down = Preflight("http://127.0.0.1:1/devstoreaccount1/data", cluster + "--json");
  INFO(down.err);
  CHECK(down.exit_code == 3);
  auto dj = ParseJson(down.out);
  REQUIRE(dj.has_value());
  CHECK((*dj)["verdict"] == "target unreachable");
  CHECK(down.wall_s < 8 + 5);

  std::string url = Seed("pf-exits", 50, 1, "8MiB");
  CommandResult refused = Preflight(url, cluster + "--json", kWrongKey);
  INFO(refused.err);
  CHECK(refused.exit_code == 4);
  auto rj = ParseJson(refused.out);
  REQUIRE(rj.has_value());
  CHECK((*rj)["verdict"] == "nothing measured");

  CHECK(Preflight(url, "--nodes 1").exit_code == 2);                      // no --sku
  CHECK(Preflight(url, "--sku Standard_NC6s_v3").exit_code == 2);         // no --nodes
  CHECK(Preflight(url, cluster + "--probes list,cache").exit_code == 2);  // unknown probe
  CommandResult no_dir = Preflight(url, cluster + "--probes list,disk");
  CHECK(no_dir.exit_code == 2);
  CHECK(no_dir.err.find("--probes disk needs --cache-dir") != std::string::npos);
  CHECK(Preflight(url, cluster + "--cache-dir /nonexistent/feedcheck").exit_code == 2);
  CHECK(Preflight(url, "--sku Standard_NoSuch --nodes 1").exit_code == 2);
  CommandResult sas = Preflight(url + "?sv=2021-08-06&sig=abc", cluster);
  CHECK(sas.exit_code == 2);
  CHECK(sas.err.find("abc") == std::string::npos);

  // A small request budget holds across all four stages.
  CommandResult tight = Preflight(url, cluster + "--max-requests 40 --json --fail-on never");
  INFO(tight.err);
  REQUIRE(tight.exit_code == 0);
  auto tj = ParseJson(tight.out);
  REQUIRE(tj.has_value());
  CHECK(FindFactNumber(*tj, "preflight.requests").value_or(1e9) <= 40);
}

TEST_CASE("a full preflight prints no secret in any output or file", "[.][azurite][secrets]") {
  std::string url = Seed("pf-secrets", 40, 1, "8MiB");
  const std::string scratch = ScratchDir();
  std::vector<std::string> outputs;
  int n = 0;
  for (const std::string& key : {kKey, kWrongKey}) {
    for (const char* format : {"term", "json", "md", "html"}) {
      std::string file = scratch + "/report-" + std::to_string(n++) + "." + format;
      CommandResult r =
          Preflight(url,
                    std::string("--sku Standard_NC6s_v3 --nodes 2 --duration 6s --fail-on never ") +
                        "--format " + format + " -o " + ShellQuote(file),
                    key);
      INFO(format << ": " << r.err);
      CHECK(r.exit_code == (key == kKey ? 0 : 4));
      outputs.push_back(r.out);
      outputs.push_back(r.err);
      outputs.push_back(ReadFile(file));
      CHECK_FALSE(outputs.back().empty());
    }
    CommandResult j = Preflight(url, "--sku Standard_NC6s_v3 --nodes 2 --duration 6s --json", key);
    outputs.push_back(j.out);
    outputs.push_back(j.err);
  }
  for (const std::string& secret : {kKey, kKey.substr(0, 24), kKey.substr(kKey.size() - 24),
                                    kWrongKey, kWrongKey.substr(0, 24)}) {
    for (const std::string& text : outputs) {
      INFO("secret fragment " << secret << " in:\n" << text.substr(0, 2000));
      CHECK(text.find(secret) == std::string::npos);
    }
  }
  RunCommand("rm -rf " + ShellQuote(scratch));
}

TEST_CASE("feedcheck-seed refuses a prefix that holds blobs unless --overwrite",
          "[azurite][seed]") {
  std::string url = Seed("seed-twice", 3, 0, "1MiB");
  std::string again = Env() + ShellQuote(Bin("feedcheck-seed")) + " " + ShellQuote(url) +
                      " --small 3 --small-bytes 16KiB --large 0";
  CommandResult refused = RunCommand(again);
  INFO(refused.err);
  CHECK(refused.exit_code == 3);
  CHECK(refused.err.find("already holds blobs") != std::string::npos);
  CommandResult forced = RunCommand(again + " --overwrite");
  INFO(forced.err);
  CHECK(forced.exit_code == 0);
}
