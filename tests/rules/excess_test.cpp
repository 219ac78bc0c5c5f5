// The rule field `excess:` (how far past a limit, a ratio), `critical_above:` (the excess past
// which a finding is critical) and the order of findings they give; `demand:` and `limit:`, the
// two sides of the ratio a chart draws.
#include <catch2/catch.hpp>

#include "rules/rule_set.h"
#include "test_facts.h"

using namespace feedcheck;
using namespace feedcheck::rules;
using feedcheck::rules::test::Facts;

namespace {

const char* kRules = R"(
- id: note-first-in-file
  severity: warning
  title: a warning with no excess
  when: node.count > 1
  say: many nodes
  source: test
- id: small-excess
  severity: warning
  title: a little over
  when: node.count * node.nic_gbps > account.egress_gbps
  say: over
  excess: node.count * node.nic_gbps / account.egress_gbps
  source: test
- id: hard-limit
  severity: warning
  title: far over a hard limit
  when: node.count * node.nic_gbps / dataset.median_file_bytes > account.requests_per_s
  say: requests
  excess: node.count * node.nic_gbps / dataset.median_file_bytes / account.requests_per_s
  critical_above: 2
  source: test
)";

}  // namespace

TEST_CASE("findings of one severity are ordered by excess", "[rules][excess]") {
  RuleSet set;
  DiagnosticList d;
  REQUIRE(set.LoadText("excess.yaml", kRules, &d));
  // 12 x 24 Gbit/s = 288 of 200 (1.44x); requests 12 x 3e9 B/s / 64 KiB = 549,316 of 40,000.
  auto result = set.Evaluate(
      Facts({"node.count=12", "node.nic_gbps=24Gbit/s", "account.egress_gbps=200Gbit/s",
             "account.requests_per_s=40000", "dataset.median_file_bytes=64KiB"}));
  REQUIRE(result.findings.size() == 3);
  CHECK(result.findings[0].rule_id == "hard-limit");
  CHECK(result.findings[0].severity == Severity::kCritical);
  CHECK(result.findings[0].escalated);
  REQUIRE(result.findings[0].excess);
  CHECK(*result.findings[0].excess == Approx(13.733).epsilon(0.001));
  CHECK(result.findings[1].rule_id == "small-excess");
  REQUIRE(result.findings[1].excess);
  CHECK(*result.findings[1].excess == Approx(1.44));
  CHECK_FALSE(result.findings[1].escalated);
  CHECK(result.findings[2].rule_id == "note-first-in-file");  // no excess: after
  CHECK_FALSE(result.findings[2].excess);

  // At 1.5x the hard limit the rule keeps its own severity.
  auto mild =
      set.Evaluate(Facts({"node.count=1", "node.nic_gbps=24Gbit/s", "account.egress_gbps=200Gbit/s",
                          "account.requests_per_s=40000", "dataset.median_file_bytes=50000B"}));
  for (const auto& f : mild.findings) {
    if (f.rule_id != "hard-limit") continue;
    CHECK(f.severity == Severity::kWarning);
    CHECK(*f.excess == Approx(1.5));
  }
}

TEST_CASE("excess must be a ratio, critical_above a number above 1", "[rules][excess]") {
  auto load = [](const std::string& extra) {
    RuleSet set;
    DiagnosticList d;
    std::string yaml =
        "- id: r\n  severity: warning\n  title: t\n  when: node.count > 1\n"
        "  say: s\n  source: x\n" +
        extra;
    bool ok = set.LoadText("bad.yaml", yaml, &d);
    std::string all;
    for (const auto& diag : d.kept()) all += FormatDiagnostic(diag) + "\n";
    return std::make_pair(ok, all);
  };
  auto rate = load("  excess: node.count * node.nic_gbps\n");
  CHECK_FALSE(rate.first);
  CHECK(rate.second.find("excess must be a ratio without unit") != std::string::npos);
  CHECK(rate.second.find("bad.yaml:7:") != std::string::npos);
  auto lone = load("  critical_above: 2\n");
  CHECK_FALSE(lone.first);
  CHECK(lone.second.find("needs an 'excess' expression") != std::string::npos);
  auto low = load("  excess: node.count / 2\n  critical_above: 0.5\n");
  CHECK_FALSE(low.first);
  auto unknown = load("  excess: node.cont / 2\n");
  CHECK_FALSE(unknown.first);
  CHECK(unknown.second.find("did you mean 'node.count'") != std::string::npos);
  CHECK(load("  excess: node.count / 2\n  critical_above: 3\n").first);
}

TEST_CASE("demand and limit give a finding its gauge, in the limit's unit", "[rules][excess]") {
  RuleSet set;
  DiagnosticList d;
  REQUIRE(set.LoadText("gauge.yaml", R"(
- id: requests
  severity: warning
  title: requests over the limit
  when: min(node.count * node.nic_gbps, account.egress_gbps) / dataset.median_file_bytes > account.requests_per_s
  say: requests
  excess: min(node.count * node.nic_gbps, account.egress_gbps) / dataset.median_file_bytes / account.requests_per_s
  demand: min(node.count * node.nic_gbps, account.egress_gbps) / dataset.median_file_bytes
  limit: account.requests_per_s
  source: test
- id: egress
  severity: warning
  title: NICs over egress
  when: node.count > 10
  say: egress
  demand: node.count * 24000Mbit/s
  limit: account.egress_gbps
  source: test
)",
                       &d));
  // 200 Gbit/s / 64 KiB = 381,470/s against 40,000; 12 x 24 Gbit/s = 288 against 200 Gbit/s.
  auto result = set.Evaluate(
      Facts({"node.count=12", "node.nic_gbps=24Gbit/s", "account.egress_gbps=200Gbit/s",
             "account.requests_per_s=40000/s", "dataset.median_file_bytes=64KiB"}));
  REQUIRE(result.findings.size() == 2);
  const Finding& requests = result.findings[0];
  REQUIRE(requests.gauge);
  CHECK(requests.gauge->demand == Approx(200e9 / 8 / 65536));
  CHECK(requests.gauge->limit == Approx(40000));
  CHECK(requests.gauge->unit == Unit::kPerSecond);
  CHECK(requests.gauge->demand / requests.gauge->limit == Approx(*requests.excess));
  const Finding& egress = result.findings[1];
  REQUIRE(egress.gauge);
  CHECK(egress.gauge->demand == Approx(288));  // converted from Mbit/s to the limit's Gbit/s
  CHECK(egress.gauge->limit == Approx(200));
  CHECK(egress.gauge->unit == Unit::kGbps);
  // A fact missing: the finding stands, without a gauge.
  auto partial = set.Evaluate(Facts({"node.count=12"}));
  REQUIRE(partial.findings.size() == 1);
  CHECK(partial.findings[0].rule_id == "egress");
  CHECK_FALSE(partial.findings[0].gauge);
}

TEST_CASE("demand and limit come together, in one dimension", "[rules][excess]") {
  auto load = [](const std::string& extra) {
    RuleSet set;
    DiagnosticList d;
    std::string yaml =
        "- id: r\n  severity: warning\n  title: t\n  when: node.count > 1\n"
        "  say: s\n  source: x\n" +
        extra;
    bool ok = set.LoadText("bad.yaml", yaml, &d);
    std::string all;
    for (const auto& diag : d.kept()) all += FormatDiagnostic(diag) + "\n";
    return std::make_pair(ok, all);
  };
  auto half = load("  demand: node.count * node.nic_gbps\n");
  CHECK_FALSE(half.first);
  CHECK(half.second.find("R004") != std::string::npos);
  CHECK(half.second.find("'demand' needs 'limit' too") != std::string::npos);
  CHECK(half.second.find("bad.yaml:7:") != std::string::npos);
  auto mixed = load("  demand: node.count * node.nic_gbps\n  limit: account.requests_per_s\n");
  CHECK_FALSE(mixed.first);
  CHECK(mixed.second.find("R104") != std::string::npos);
  CHECK(mixed.second.find("demand and limit must measure one thing") != std::string::npos);
  auto text = load("  demand: node.sku\n  limit: account.egress_gbps\n");
  CHECK_FALSE(text.first);
  CHECK(text.second.find("demand must be a number") != std::string::npos);
  CHECK(load("  demand: node.count * node.nic_gbps\n  limit: account.egress_gbps\n").first);
}

TEST_CASE("if() says only what its premise supports", "[rules][evaluator]") {
  RuleSet set;
  DiagnosticList d;
  REQUIRE(set.LoadText("if.yaml", R"(
- id: fits
  severity: info
  title: t
  when: node.count >= 1
  say: >
    {if(coalesce(dataset.bytes < node.local_disk_bytes, false), "fits", "does not fit")}
  source: x
)",
                       &d));
  auto fits =
      set.Evaluate(Facts({"node.count=1", "dataset.bytes=40GiB", "node.local_disk_bytes=64GiB"}));
  REQUIRE(fits.findings.size() == 1);
  CHECK(fits.findings[0].message == "fits");
  auto big =
      set.Evaluate(Facts({"node.count=1", "dataset.bytes=467GiB", "node.local_disk_bytes=64GiB"}));
  CHECK(big.findings[0].message == "does not fit");
  auto unknown = set.Evaluate(Facts({"node.count=1"}));
  CHECK(unknown.findings[0].message == "does not fit");  // coalesce(unknown, false)
}

TEST_CASE("if() of numbers: a quantity under a premise, in one dimension", "[rules][evaluator]") {
  auto load = [](const std::string& when, RuleSet* set) {
    DiagnosticList d;
    bool ok = set->LoadText(
        "ifn.yaml",
        "- id: r\n  severity: info\n  title: t\n  when: " + when + "\n  say: s\n  source: x\n", &d);
    std::string all;
    for (const auto& diag : d.kept()) all += FormatDiagnostic(diag) + "\n";
    return std::make_pair(ok, all);
  };
  RuleSet set;
  // 2 KiB is 2,048 B: the branch in KiB is scaled to the bytes of the first.
  REQUIRE(load("if(node.count > 1, 1000B, 2KiB) == 2048B", &set).first);
  CHECK(set.Evaluate(Facts({"node.count=1"})).findings.size() == 1);
  CHECK(set.Evaluate(Facts({"node.count=2"})).findings.empty());
  RuleSet bare;
  REQUIRE(load("if(node.count > 1, 0, 2KiB) > 1KiB", &bare).first);
  CHECK(bare.Evaluate(Facts({"node.count=1"})).findings.size() == 1);
  CHECK(bare.Evaluate(Facts({"node.count=3"})).findings.empty());
  RuleSet mixed;
  auto bad = load("if(node.count > 1, 2KiB, 3s) > 1KiB", &mixed);
  CHECK_FALSE(bad.first);
  CHECK(bad.second.find("unit mismatch") != std::string::npos);
  RuleSet half;
  auto plan = load(
      "account_plan(node.count, 24Gbit/s, 200Gbit/s, \"pytorch\", 8, \"standard_gpv2\", 1KiB) "
      "== \"x\"",
      &half);
  CHECK_FALSE(plan.first);
  CHECK(plan.second.find("the median file size and the request limit together") !=
        std::string::npos);
}
