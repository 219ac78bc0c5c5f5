#include "core/evidence_json.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace feedcheck;

TEST_CASE("evidence round-trips through JSON", "[core][json]") {
  Evidence e;
  e.facts.Set(NumberFact("probe.throughput.gbps", 0.95, Unit::kGbps,
                         {FactOrigin::kMeasured, "probe throughput", "", 0, "node1", 2}));
  e.facts.Set(TextFact("runtime.mode", "download", {FactOrigin::kObserved, "log", "a.log", 3}));
  e.facts.Set(BoolFact("plan.fits_on_disk", true, {FactOrigin::kDerived, "plan"}));
  e.series.push_back({"s", "t", "x", Unit::kCount, "y", Unit::kGbps, {{1, 0.5}, {2, 0.9}}});
  e.timeline.push_back({"data-runtime", "download", 10, 12.5, "Success", "x.log:2"});
  e.diagnostics.Add({"A201", DiagnosticSeverity::kWarning, "bad line", {"f.log", 7, 0}, "", ""});

  nlohmann::json j = EvidenceToJson(e);
  CHECK(j["schema_version"] == kEvidenceSchemaVersion);
  Evidence back;
  DiagnosticList diags;
  REQUIRE(EvidenceFromJson(j, "mem.json", &back, &diags));
  CHECK(diags.total() == 0);
  CHECK(*back.facts.Number("probe.throughput.gbps") == 0.95);
  CHECK(back.facts.Find("probe.throughput.gbps")->provenance.rank == 2);
  CHECK(back.facts.Find("probe.throughput.gbps")->provenance.host == "node1");
  CHECK(*back.facts.Text("runtime.mode") == "download");
  CHECK(*back.facts.Bool("plan.fits_on_disk"));
  REQUIRE(back.series.size() == 1);
  CHECK(back.series[0].points[1].y == 0.9);
  REQUIRE(back.timeline.size() == 1);
  CHECK(back.timeline[0].end_epoch_s == 12.5);
  CHECK(back.diagnostics.total() == 1);
}

TEST_CASE("a command's report is read as a facts file through its evidence", "[core][json]") {
  Evidence e;
  e.facts.Set(NumberFact("probe.latency.ttfb_p50_ms", 12, Unit::kMilliseconds,
                         {FactOrigin::kMeasured, "probe latency"}));
  nlohmann::json report = {{"schema_version", 1},
                           {"kind", "feedcheck-report"},
                           {"result", {{"ttfb_p50_ms", 12}}},
                           {"evidence", EvidenceToJson(e)}};
  Evidence back;
  DiagnosticList diags;
  REQUIRE(EvidenceFromJson(report, "probe.json", &back, &diags));
  CHECK(back.facts.Number("probe.latency.ttfb_p50_ms") == std::optional<double>(12));
  CHECK(diags.total() == 0);
  // Neither facts nor evidence: still not a facts file.
  Evidence none;
  CHECK_FALSE(EvidenceFromJson(nlohmann::json{{"result", {}}}, "x.json", &none, &diags));
}

TEST_CASE("a bad fact is reported and the rest kept", "[core][json]") {
  auto j = nlohmann::json::parse(R"({"schema_version":1,"facts":[
      {"key":"a.b","value":1,"unit":"parsecs"},
      {"value":2},
      {"key":"node.count","value":4,"unit":"count"}]})");
  Evidence e;
  DiagnosticList diags;
  REQUIRE(EvidenceFromJson(j, "f.json", &e, &diags));
  CHECK(*e.facts.Number("node.count") == 4);
  CHECK(e.facts.size() == 1);
  CHECK(diags.total() == 2);
  CHECK(diags.kept()[0].message.find("unknown unit 'parsecs'") != std::string::npos);
  CHECK(diags.kept()[0].context == "/facts/0");
}

TEST_CASE("diagnostics render with file, line and caret", "[core][diagnostics]") {
  Diagnostic d{"R104",
               DiagnosticSeverity::kError,
               "unknown fact 'node.cont'",
               {"rules/x.yaml", 4, 9},
               "rule 'r' > when",
               "  when: node.cont > 3"};
  std::string s = FormatDiagnostic(d);
  CHECK(s.find("rules/x.yaml:4:9: error[R104]: unknown fact 'node.cont' (rule 'r' > when)") == 0);
  CHECK(s.find("\n    " + std::string(8, ' ') + "^") != std::string::npos);
}

TEST_CASE("diagnostic list is bounded but counts everything", "[core][diagnostics]") {
  DiagnosticList list(3);
  for (int i = 0; i < 10; ++i) list.Add({"A1", DiagnosticSeverity::kWarning, "x", {}, "", ""});
  CHECK(list.kept().size() == 3);
  CHECK(list.total() == 10);
  CHECK(list.dropped() == 7);
}
