#include "reports/report_json.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/evidence_json.h"
#include "reports/json_reporter.h"
#include "tests/reports/sample_report.h"

using namespace feedcheck;
using nlohmann::json;

namespace {

std::string TempFile(const std::string& name, const std::string& text) {
  std::string path = std::string(FEEDCHECK_BINARY_DIR) + "/report_json_test_" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

std::string AllMessages(const DiagnosticList& d) {
  std::string out;
  for (const auto& x : d.kept()) out += FormatDiagnostic(x) + "\n";
  return out;
}

}  // namespace

TEST_CASE("a report round-trips through JSON unchanged", "[reports][json]") {
  Report sample = feedcheck::testing::MakeSampleReport(10);
  json first = ReportToJson(sample);
  CHECK(first["schema_version"] == kReportSchemaVersion);
  CHECK(first["kind"] == kReportKind);
  CHECK(first["verdict_level"] == "bad");
  Report back;
  DiagnosticList diags;
  REQUIRE(ReportFromJson(first, "mem.json", &back, &diags));
  INFO(AllMessages(diags));
  CHECK(diags.total() == 0);
  CHECK(ReportToJson(back) == first);
  // Evidence keeps the rule's order, not key order.
  REQUIRE(back.findings.size() == 3);
  CHECK(back.findings[0].evidence[0].key == "metrics.egress_gbps_peak");
  CHECK(back.findings[0].evidence[2].key == "gpu.starved_fraction");
  CHECK(back.findings[1].severity == Severity::kWarning);
  CHECK(back.context.target == sample.context.target);
  CHECK(back.evidence.series.size() == sample.evidence.series.size());
  // The headline result keeps each value's type.
  CHECK(first["result"]["gpu_idle_fraction"] == 0.31);
  CHECK(first["result"]["cause"] == "account egress");
  CHECK(first["result"]["confirmed"] == true);
  REQUIRE(back.result.size() == 3);
}

TEST_CASE("the codes a report describes and a stopped run survive the round trip",
          "[reports][json]") {
  Report sample = feedcheck::testing::MakeSampleReport(3);
  CHECK_FALSE(ReportToJson(sample).contains("codes"));  // most reports describe none
  CHECK_FALSE(ReportToJson(sample).contains("complete"));
  sample.codes.uri = "https://example.org/guide";
  sample.codes.codes = {{"L001", "InputMode", "A mode", "Change it.", "warning"}};
  sample.complete = false;
  const json first = ReportToJson(sample);
  Report back;
  DiagnosticList diags;
  REQUIRE(ReportFromJson(first, "mem.json", &back, &diags));
  CHECK(diags.total() == 0);
  CHECK_FALSE(back.complete);
  CHECK(back.codes.uri == "https://example.org/guide");
  REQUIRE(back.codes.codes.size() == 1);
  CHECK(back.codes.codes[0].name == "InputMode");
  CHECK(back.codes.codes[0].level == "warning");
  CHECK(ReportToJson(back) == first);
  json broken = first;
  broken["codes"] = "L001";
  Report bad;
  DiagnosticList bad_diags;
  ReportFromJson(broken, "mem.json", &bad, &bad_diags);
  CHECK(AllMessages(bad_diags).find("'codes' should be an object") != std::string::npos);
}

TEST_CASE("a finding's gauge round-trips; a broken one is dropped with a warning",
          "[reports][json]") {
  Report charted = feedcheck::testing::MakeChartSampleReport(10);
  json first = ReportToJson(charted);
  REQUIRE(first["findings"][0]["gauge"].is_object());
  CHECK(first["findings"][0]["gauge"]["demand"] == 549316);
  CHECK(first["findings"][0]["gauge"]["unit"] == "/s");
  Report back;
  DiagnosticList diags;
  REQUIRE(ReportFromJson(first, "mem.json", &back, &diags));
  CHECK(diags.total() == 0);
  REQUIRE(back.findings[0].gauge);
  CHECK(back.findings[0].gauge->limit == 40000);
  CHECK(back.findings[0].gauge->unit == Unit::kPerSecond);
  CHECK(ReportToJson(back) == first);
  first["findings"][0]["gauge"]["unit"] = "furlongs";
  Report broken;
  DiagnosticList warned;
  REQUIRE(ReportFromJson(first, "edited.json", &broken, &warned));
  CHECK_FALSE(broken.findings[0].gauge);
  CHECK(AllMessages(warned).find("gauge") != std::string::npos);
}

TEST_CASE("a saved file loads back", "[reports][json]") {
  std::string path =
      TempFile("saved.json", ReportToJson(feedcheck::testing::MakeSampleReport(5)).dump(2));
  Report back;
  DiagnosticList diags;
  REQUIRE(LoadReportFile(path, &back, &diags));
  CHECK(back.verdict == "account egress limit");
  CHECK(back.evidence.FindSeries("gpu.util")->points.size() == 5);
  std::remove(path.c_str());
}

TEST_CASE("a bare facts.json renders as a report without a verdict", "[reports][json]") {
  Evidence e = feedcheck::testing::MakeSampleReport(5).evidence;
  Report back;
  DiagnosticList diags;
  REQUIRE(ReportFromJson(EvidenceToJson(e), "facts.json", &back, &diags));
  CHECK(back.title == "Facts");
  CHECK(back.verdict.empty());
  CHECK(back.evidence.facts.size() == e.facts.size());
}

TEST_CASE("unreadable input fails with the file named", "[reports][json]") {
  Report out;
  SECTION("missing file") {
    DiagnosticList diags;
    CHECK_FALSE(LoadReportFile("/nonexistent/result.json", &out, &diags));
    CHECK(AllMessages(diags).find("/nonexistent/result.json") != std::string::npos);
    CHECK(AllMessages(diags).find("cannot open") != std::string::npos);
  }
  SECTION("not JSON: line and column") {
    std::string path = TempFile("broken.json", "{\n  \"kind\": \"feedcheck-report\",\n  oops\n}");
    DiagnosticList diags;
    CHECK_FALSE(LoadReportFile(path, &out, &diags));
    REQUIRE(diags.total() == 1);
    CHECK(diags.kept()[0].location.file == path);
    CHECK(diags.kept()[0].location.line == 3);
    CHECK(diags.kept()[0].location.column >= 3);
    std::remove(path.c_str());
  }
  SECTION("JSON that is not a report") {
    DiagnosticList diags;
    CHECK_FALSE(ReportFromJson(json{{"hello", 1}}, "x.json", &out, &diags));
    CHECK(AllMessages(diags).find("not a feedcheck report") != std::string::npos);
    CHECK_FALSE(ReportFromJson(json::array({1, 2}), "x.json", &out, &diags));
  }
  SECTION("empty file") {
    std::string path = TempFile("empty.json", "");
    DiagnosticList diags;
    CHECK_FALSE(LoadReportFile(path, &out, &diags));
    CHECK(AllMessages(diags).find("not valid JSON") != std::string::npos);
    std::remove(path.c_str());
  }
}

TEST_CASE("wrong types become diagnostics and the rest is kept", "[reports][json]") {
  json j = ReportToJson(feedcheck::testing::MakeSampleReport(4));
  j["title"] = 42;
  j["findings"][1]["severity"] = "catastrophic";
  j["findings"][2] = "not an object";
  j["skipped"] = "nope";
  j["result"] = json::array({1, 2});
  Report back;
  DiagnosticList diags;
  REQUIRE(ReportFromJson(j, "edited.json", &back, &diags));
  std::string all = AllMessages(diags);
  CHECK(all.find("/title") != std::string::npos);
  CHECK(all.find("/findings/1/severity") != std::string::npos);
  CHECK(all.find("/findings/2") != std::string::npos);
  CHECK(all.find("/skipped") != std::string::npos);
  CHECK(all.find("/result") != std::string::npos);
  CHECK(all.find("edited.json") != std::string::npos);
  CHECK(back.title.empty());
  CHECK(back.findings.size() == 2);
  CHECK(back.findings[1].severity == Severity::kInfo);
  CHECK(back.verdict == "account egress limit");
}

TEST_CASE("a newer schema_version is read with a warning", "[reports][json]") {
  json j = ReportToJson(feedcheck::testing::MakeSampleReport(4));
  j["schema_version"] = kReportSchemaVersion + 1;
  Report back;
  DiagnosticList diags;
  REQUIRE(ReportFromJson(j, "new.json", &back, &diags));
  CHECK(diags.errors() == 0);
  CHECK(diags.total() == 1);
}

TEST_CASE("the JSON document puts schema_version, verdict and result first", "[reports][json]") {
  Report sample = feedcheck::testing::MakeSampleReport(5);
  std::ostringstream out;
  JsonReporter().Render(sample, out);
  const std::string text = out.str();
  const size_t schema = text.find("\"schema_version\"");
  const size_t verdict = text.find("\"verdict\"");
  const size_t result = text.find("\"result\"");
  // The first three keys, in this order, before any other (the text a person or `head` reads).
  CHECK(schema == text.find('"'));
  CHECK(schema < verdict);
  CHECK(verdict < result);
  for (const char* later : {"\"kind\"", "\"title\"", "\"findings\"", "\"evidence\"", "\"context\"",
                            "\"verdict_level\""}) {
    INFO(later);
    CHECK(text.find(later) > result);
  }
  // The result keeps the order the run showed its values in.
  CHECK(text.find("\"gpu_idle_fraction\"") < text.find("\"cause\""));
}
