// `feedcheck compare A.json B.json` as a user runs it: two saved results in, what changed out, in
// each format; exit codes for a CI gate and for bad input.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/run_feedcheck.h"

namespace {

// A saved result as `preflight --json` writes it: a report with its verdict and its evidence.
std::string Facts(double gbps, double noise, double p99_ms, const char* verdict) {
  std::ostringstream s;
  s << R"({"kind": "feedcheck-report", "schema_version": 1, "title": "Pre-flight check",
    "verdict": ")"
    << verdict << R"(", "verdict_level": "warning", "findings": [],
    "evidence": {"schema_version": 1, "facts": [
    {"key": "probe.throughput.knee_gbps", "value": )"
    << gbps << R"(, "unit": "Gbit/s",
     "provenance": {"origin": "measured", "source": "probe throughput"}},
    {"key": "probe.throughput.knee_noise_gbps", "value": )"
    << noise << R"(, "unit": "Gbit/s",
     "provenance": {"origin": "measured", "source": "probe throughput"}},
    {"key": "probe.latency.ttfb_p99_ms", "value": )"
    << p99_ms << R"(, "unit": "ms",
     "provenance": {"origin": "measured", "source": "probe latency"}},
    {"key": "node.count", "value": 12, "unit": "count",
     "provenance": {"origin": "declared", "source": "--nodes"}}]}})";
  return s.str();
}

}  // namespace

TEST_CASE("compare says what got better, worse, or stayed inside its noise", "[cli][compare]") {
  std::string before = WriteTempFile("before.json", Facts(0.90, 0.03, 25.0, "at risk"));
  std::string after = WriteTempFile("after.json", Facts(0.92, 0.03, 40.0, "ready"));
  // The p99 has no noise band: judged only beyond the floor asked for.
  RunResult unjudged = RunFeedcheck({"compare", before, after});
  CHECK(Has(unjudged.out, "Verdict: WITHIN NOISE"));
  CHECK(Has(unjudged.out, "no noise band"));
  RunResult r = RunFeedcheck({"compare", before, after, "--floor", "50%"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(Has(r.out, "Verdict: WORSE"));
  CHECK(Has(r.out, "The results' verdicts: at risk -> ready"));
  CHECK(Has(r.out, "within noise"));  // 0.02 inside ±0.042
  CHECK(Has(r.out, "worse"));
  CHECK(Has(r.out, "probe.latency.ttfb_p99_ms"));
  CHECK(Has(r.out, "+60.0%"));
  CHECK_FALSE(Has(r.out, "node.count"));  // the same in both: counted, not listed
  CHECK(Has(r.out, "Unchanged: 1 row; -v lists them"));
  CHECK_FALSE(Has(r.out, "\x1b["));  // not a terminal: no colour

  RunResult j = RunFeedcheck({"compare", before, after, "--floor", "50%", "--json"});
  REQUIRE(j.exit_code == 0);
  auto doc = j.Json();
  CHECK(doc["schema_version"] == 1);
  CHECK(doc["kind"] == "feedcheck-report");
  CHECK(doc["result"]["worse"] == 1);
  CHECK(doc["result"]["verdict_changed"] == true);
  bool found = false, same = false;
  for (const auto& t : doc["tables"])
    for (const auto& c : t["rows"]) {
      if (c["key"] == "probe.throughput.knee_gbps") {
        found = true;
        CHECK(t["title"] == "Results that changed");
        CHECK(c["change"] == "within noise");
        CHECK(c["noise"].get<double>() == Approx(0.0424).epsilon(0.01));
      }
      same |= t["title"] == "Unchanged" && c["key"] == "node.count";
    }
  CHECK(found);
  CHECK(same);

  // A CI gate: worse beyond its band is exit 1.
  CHECK(RunFeedcheck({"compare", before, after, "--floor", "50%", "--fail-on-worse"}).exit_code ==
        1);
  CHECK(RunFeedcheck({"compare", before, after, "--fail-on-worse"}).exit_code == 0);
  CHECK(RunFeedcheck({"compare", before, after, "--floor", "0"}).exit_code == 2);
  CHECK(RunFeedcheck({"compare", after, after, "--fail-on-worse"}).exit_code == 0);
}

TEST_CASE("compare writes Markdown and HTML, picked by -o's extension", "[cli][compare]") {
  std::string before = WriteTempFile("b1.json", Facts(0.50, 0.01, 25.0, "at risk"));
  std::string after = WriteTempFile("a1.json", Facts(0.90, 0.01, 25.0, "ready"));
  std::string dir = WriteTempFile("placeholder", "");
  std::string html = dir + ".html", md = dir + ".md";
  REQUIRE(RunFeedcheck({"compare", before, after, "-o", html}).exit_code == 0);
  std::string page = Slurp(html);
  CHECK(Has(page, "<!doctype html>"));
  CHECK(Has(page, "Results that changed"));
  CHECK(Has(page, "+80.0%"));
  REQUIRE(RunFeedcheck({"compare", before, after, "-o", md}).exit_code == 0);
  std::string text = Slurp(md);
  CHECK(Has(text, "| probe.throughput.knee_gbps | better | 500 Mbit/s | 900 Mbit/s | +80.0% |"));
  std::remove(html.c_str());
  std::remove(md.c_str());
}

TEST_CASE("compare refuses what it cannot read or cannot mean", "[cli][compare]") {
  std::string good = WriteTempFile("good.json", Facts(0.9, 0.01, 20, "ready"));
  std::string broken = WriteTempFile("broken.json", "{\"facts\": [\n  {\"key\": 1,,}\n]}");
  RunResult r = RunFeedcheck({"compare", good, broken});
  CHECK(r.exit_code == 3);
  CHECK(Has(r.err, "broken.json"));
  CHECK(RunFeedcheck({"compare", good, "/nonexistent/x.json"}).exit_code == 3);
  r = RunFeedcheck({"compare", good, good, "--json", "-f", "md"});
  CHECK(r.exit_code == 2);
  CHECK(Has(r.err, "ask for two formats"));
  CHECK(RunFeedcheck({"compare", good, good, "--tolerance", "150%"}).exit_code == 2);
}

TEST_CASE("compare names the fact of every row, in every format", "[cli][compare]") {
  // Two saved single-job post-mortems of the corpus: dozens of facts changed, some keys long.
  const std::string corpus = std::string(FEEDCHECK_SOURCE_DIR) + "/tests/data/joblogs/";
  RunResult a = RunFeedcheck({"--fail-on", "never", "postmortem", corpus + "job-demo", "--json"});
  RunResult b =
      RunFeedcheck({"--fail-on", "never", "postmortem", corpus + "egress-throttled-download",
                    "--sku", "Standard_ND96asr_v4", "--nodes", "3", "--json"});
  REQUIRE(a.exit_code == 0);
  REQUIRE(b.exit_code == 0);
  const std::string before = WriteTempFile("pm-a.json", a.out);
  const std::string after = WriteTempFile("pm-b.json", b.out);

  // JSON: every row carries its key and, for a registered key, what the fact is.
  RunResult j = RunFeedcheck({"compare", before, after, "--json"});
  REQUIRE(j.exit_code == 0);
  std::vector<std::string> keys, first_keys;  // every row's; each table shown's first row's
  const nlohmann::json doc = j.Json();
  for (const auto& t : doc["tables"])
    for (const auto& row : t["rows"]) {
      INFO(t["title"] << ": " << row.dump());
      REQUIRE(row.contains("key"));
      const std::string key = row["key"].get<std::string>();
      CHECK_FALSE(key.empty());
      CHECK(row.contains("description"));
      if (key == "account.egress_gbps") CHECK(row["description"] == "account egress limit");
      if (&row == &t["rows"].front() && !t.value("folded", false)) first_keys.push_back(key);
      keys.push_back(key);
    }
  REQUIRE(keys.size() > 20);
  REQUIRE(first_keys.size() >= 2);

  // Markdown: each row opens with its fact's key.
  RunResult md = RunFeedcheck({"compare", before, after, "-f", "md"});
  REQUIRE(md.exit_code == 0);
  for (const std::string& key : keys) CHECK(Has(md.out, "| " + key + " |"));
  CHECK(Has(md.out, "| account egress limit |"));

  // Terminal, wide and narrow, folded and whole: every row shown begins with a key.
  for (const char* columns : {"100", "80"})
    for (bool verbose : {false, true}) {
      setenv("COLUMNS", columns, 1);
      std::vector<std::string> args = {"compare", before, after};
      if (verbose) args.insert(args.begin(), "-v");
      RunResult term = RunFeedcheck(args);
      INFO(columns << " columns" << (verbose ? ", -v" : "") << "\n" << term.out);
      REQUIRE(term.exit_code == 0);
      // A row, laid out as a grid or as a record, starts with its fact's key.
      for (const std::string& key : verbose ? keys : first_keys)
        CHECK(Has(term.out, "\n  " + key + " "));
      if (verbose) CHECK(Has(term.out, "account egress limit"));
    }
  unsetenv("COLUMNS");
}
