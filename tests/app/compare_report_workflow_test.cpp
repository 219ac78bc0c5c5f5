// app::RunCompare and app::RunReport on saved results: what got better, worse or stayed inside
// its noise, as a Report; a saved result read back as it was; bad files and flags refused.
#include <catch2/catch.hpp>
#include <sstream>

#include "app/compare_workflow.h"
#include "app/facts_workflow.h"
#include "app/report_output.h"
#include "app/report_workflow.h"
#include "app_test_support.h"
#include "core/diagnostic_codes.h"

using namespace feedcheck;
using namespace feedcheck::app::testing;

namespace {

// A saved result as `preflight --json` writes it: a report with its verdict and its evidence.
std::string Saved(double gbps, double noise, double p99_ms, const char* verdict) {
  std::ostringstream s;
  s << R"({"kind": "feedcheck-report", "schema_version": 1, "title": "Pre-flight check",
    "verdict": ")"
    << verdict << R"(", "verdict_level": "warning", "findings": [],
    "result": {"per_node_gbps": )"
    << gbps << R"(},
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

const TableCell* RowOf(const ReportTable& t, const std::string& key, const std::string& column) {
  for (size_t i = 0; i < t.rows.size(); ++i)
    if (Cell(t, i, "key")->text == key) return Cell(t, i, column);
  return nullptr;
}

}  // namespace

TEST_CASE("compare: worse beyond the band, within noise, the same; verdicts and counts",
          "[app][compare]") {
  app::CompareRequest request;
  request.a = WriteTempFile("before.json", Saved(0.90, 0.03, 25.0, "at risk"));
  request.b = WriteTempFile("after.json", Saved(0.92, 0.03, 40.0, "ready"));
  // The p99 carries no noise band: by default it is not judged at all, whatever its change.
  app::Outcome unjudged = app::RunCompare(request);
  REQUIRE(unjudged.has_report);
  CHECK(unjudged.report.verdict == "within noise");
  CHECK(ResultNumber(unjudged.report, "worse") == 0);
  CHECK(ResultNumber(unjudged.report, "no_band") == 1);
  CHECK(unjudged.report.verdict_detail.find("1 changed with no noise band known (not judged") !=
        std::string::npos);
  const ReportTable* unjudged_rows = FindTable(unjudged.report, "Results that changed");
  REQUIRE(unjudged_rows);
  CHECK(RowOf(*unjudged_rows, "probe.latency.ttfb_p99_ms", "change")->text == "no noise band");
  // Beyond a stated floor it is.
  request.floor = "50%";
  app::Outcome out = app::RunCompare(request);
  REQUIRE(out.has_report);
  CHECK(out.status == ExitStatus::kOk);
  const Report& r = out.report;
  CHECK(r.verdict == "worse");
  CHECK(r.verdict_level == VerdictLevel::kBad);
  CHECK(r.verdict_detail.find("The results' verdicts: at risk -> ready") != std::string::npos);
  CHECK(ResultNumber(r, "worse") == 1);
  CHECK(ResultNumber(r, "better") == 0);
  CHECK(ResultNumber(r, "within_noise") == 1);
  CHECK(ResultBool(r, "verdict_changed") == true);
  CHECK(ResultText(r, "a_verdict") == "at risk");
  CHECK(ResultNumber(r, "tolerance") == Approx(0.02));
  CHECK(ResultNumber(r, "floor") == Approx(0.5));

  const ReportTable* changed = FindTable(r, "Results that changed");
  REQUIRE(changed);
  CHECK(RowOf(*changed, "probe.latency.ttfb_p99_ms", "change")->text == "worse");
  CHECK(RowOf(*changed, "probe.latency.ttfb_p99_ms", "relative")->text == "+60.0%");
  CHECK(RowOf(*changed, "probe.latency.ttfb_p99_ms", "relative")->value == Approx(0.6));
  CHECK(RowOf(*changed, "probe.latency.ttfb_p99_ms", "a")->value == 25.0);
  CHECK(RowOf(*changed, "probe.latency.ttfb_p99_ms", "b")->value == 40.0);
  CHECK(RowOf(*changed, "probe.latency.ttfb_p99_ms", "better")->text == "lower");
  CHECK(RowOf(*changed, "probe.throughput.knee_gbps", "change")->text == "within noise");
  CHECK(RowOf(*changed, "probe.throughput.knee_gbps", "noise")->value ==
        Approx(0.0424).epsilon(0.01));
  CHECK(RowOf(*changed, "node.count", "change") == nullptr);

  // What did not change is kept, folded: the terminal counts it, JSON lists it.
  const ReportTable* same = FindTable(r, "Unchanged");
  REQUIRE(same);
  CHECK(same->folded);
  CHECK(RowOf(*same, "node.count", "change")->text == "same");
  CHECK(FindTable(r, "Inputs that differ (a different setup, not a result)") == nullptr);

  request.fail_on_worse = true;
  CHECK(app::RunCompare(request).status == ExitStatus::kFindings);
  request.b = request.a;
  out = app::RunCompare(request);
  CHECK(out.status == ExitStatus::kOk);
  CHECK(out.report.verdict == "no change");
}

TEST_CASE("compare: a different setup is an input that differs, not a worse result",
          "[app][compare]") {
  std::string twelve = Saved(0.9, 0.01, 20, "ready");
  std::string six = twelve;
  six.replace(six.find("\"value\": 12"), 11, "\"value\": 6");
  app::CompareRequest request;
  request.a = WriteTempFile("twelve.json", twelve);
  request.b = WriteTempFile("six.json", six);
  app::Outcome out = app::RunCompare(request);
  const ReportTable* inputs =
      FindTable(out.report, "Inputs that differ (a different setup, not a result)");
  REQUIRE(inputs);
  CHECK(RowOf(*inputs, "node.count", "a")->value == 12);
  CHECK(RowOf(*inputs, "node.count", "b")->value == 6);
  CHECK(ResultNumber(out.report, "worse") == 0);
}

TEST_CASE("compare refuses what it cannot read or cannot mean", "[app][compare]") {
  app::CompareRequest request;
  request.a = WriteTempFile("good.json", Saved(0.9, 0.01, 20, "ready"));
  request.b = WriteTempFile("broken.json", "{\"facts\": [\n  {\"key\": 1,,}\n]}");
  app::Outcome out = app::RunCompare(request);
  CHECK(out.status == ExitStatus::kInputError);
  CHECK_FALSE(out.has_report);
  CHECK(HasDiagnostic(out.diagnostics, codes::kUnreadableResult, "broken.json"));
  bool located = false;
  for (const auto& d : out.diagnostics.kept()) located |= d.location.line == 2;
  CHECK(located);  // the JSON syntax error's line

  request.b = request.a;
  request.tolerance = "150%";
  out = app::RunCompare(request);
  CHECK(out.status == ExitStatus::kUsage);
  CHECK(HasDiagnostic(out.diagnostics, codes::kBadFlag, "--tolerance '150%'"));
}

TEST_CASE("report: a saved result reads back as it was; a non-report is exit 3", "[app][report]") {
  std::string saved = WriteTempFile("saved.json", Saved(0.9, 0.01, 20, "at risk"));
  app::Outcome out = app::RunReport({saved});
  REQUIRE(out.has_report);
  CHECK(out.status == ExitStatus::kOk);
  CHECK(out.report.title == "Pre-flight check");
  CHECK(out.report.verdict == "at risk");
  CHECK(ResultNumber(out.report, "per_node_gbps") == Approx(0.9));
  CHECK(out.report.evidence.facts.Number("probe.latency.ttfb_p99_ms") == 20);

  // Rendered again as JSON it is the same result.
  auto json = app::RenderReport(out.report, "json", {});
  REQUIRE(json);
  CHECK(json->find("\"per_node_gbps\": 0.9") != std::string::npos);
  CHECK_FALSE(app::RenderReport(out.report, "yaml", {}));

  out = app::RunReport({WriteTempFile("not-a-report.json", "{\"kind\": \"something\"}")});
  CHECK(out.status == ExitStatus::kInputError);
  CHECK_FALSE(out.has_report);
  CHECK(HasDiagnostic(out.diagnostics, codes::kUnreadableResult, "not-a-report.json"));
  CHECK(app::RunReport({"/nonexistent/x.json"}).status == ExitStatus::kInputError);
}

TEST_CASE("report output: a stopped workflow still gives JSON its one shape", "[app][report]") {
  app::Outcome stopped = app::Stopped(ExitStatus::kUsage, codes::kBadFlag, "--x: bad");
  CHECK_FALSE(app::ReportToShow(stopped, "term", "egress"));
  auto json = app::ReportToShow(stopped, "json", "egress");
  REQUIRE(json);
  CHECK(ResultText(*json, "error") == "--x: bad");
  CHECK(json->evidence.diagnostics.total() == 1);

  app::Outcome done = app::RunFactsList({"egress."});
  done.diagnostics.Add({codes::kNotRead, DiagnosticSeverity::kWarning, "w", {}, "", ""});
  CHECK(app::ReportToShow(done, "term", "facts list")->evidence.diagnostics.total() == 0);
  CHECK(app::ReportToShow(done, "md", "facts list")->evidence.diagnostics.total() == 1);
  CHECK(app::DisplaySafe("https://a.blob.core.windows.net/c?sv=1&sig=SECRET\x1b[31m")
            .find("SECRET") == std::string::npos);
  CHECK(app::DisplaySafe("\x1b[31m").find('\x1b') == std::string::npos);
}
