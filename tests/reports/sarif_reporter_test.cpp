// The SARIF reporter: a report's located-problem tables as results, its code descriptions as the
// tool's rules, its diagnostics as notifications, paths relative to the base directory.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>

#include "reports/reporter.h"

using namespace feedcheck;
using nlohmann::json;

namespace {

Report Located() {
  Report r;
  r.context.tool_version = "9.9.9";
  r.codes.uri = "https://example.org/guide";
  r.codes.codes = {{"L001", "InputMode", "A mode", "Change it.", "warning"},
                   {"L010", "NodeSizeUnknown", "No size", "Give --sku.", "note"}};
  ReportTable t;
  t.title = "Problems";
  t.columns = {{"file", "File"},   {"line", "Line", true}, {"severity", "Severity"},
               {"code", "Code"},   {"message", "Problem"}, {"change", "Change"},
               {"rule_id", "Rule"}};
  t.rows.push_back({{"jobs/a.yml", std::nullopt},
                    {"12", 12},
                    {"critical", std::nullopt},
                    {"L001", std::nullopt},
                    {"mode is wrong", std::nullopt},
                    {"mode: download", std::nullopt},
                    {"prefer-download", std::nullopt}});
  t.rows.push_back({{"/src/jobs/b yml", std::nullopt},
                    {"", std::nullopt},
                    {"info", std::nullopt},
                    {"L010", std::nullopt},
                    {"no size", std::nullopt},
                    {"give --sku", std::nullopt},
                    {"", std::nullopt}});
  t.rows.push_back({{"/elsewhere/c.yml", std::nullopt},
                    {"3", 3},
                    {"warning", std::nullopt},
                    {"X999", std::nullopt},
                    {"other", std::nullopt},
                    {"fix", std::nullopt},
                    {"", std::nullopt}});
  r.tables.push_back(t);
  // A table without the located columns gives no results.
  ReportTable plain;
  plain.columns = {{"sku", "Size"}, {"code", "Code"}};
  plain.rows.push_back({{"x", std::nullopt}, {"L001", std::nullopt}});
  r.tables.push_back(plain);
  r.evidence.diagnostics.Add({"W006", DiagnosticSeverity::kWarning, "skipped one", {}, "", ""});
  r.evidence.diagnostics.Add(
      {"R303", DiagnosticSeverity::kError, "bad job", {"/src/jobs/a.yml", 4, 2}, "", ""});
  return r;
}

json Render(const Report& r) {
  ReporterOptions options;
  options.base_dir = "/src";
  auto reporter = MakeReporter("sarif", options);
  REQUIRE(reporter);
  std::ostringstream out;
  reporter->Render(r, out);
  return json::parse(out.str());
}

}  // namespace

TEST_CASE("sarif: located problems become results on their lines", "[reports][sarif]") {
  const json log = Render(Located());
  CHECK(log["version"] == "2.1.0");
  const json& run = log["runs"][0];
  CHECK(run["tool"]["driver"]["version"] == "9.9.9");
  CHECK(run["tool"]["driver"]["informationUri"] == "https://example.org/guide");
  REQUIRE(run["tool"]["driver"]["rules"].size() == 2);
  CHECK(run["tool"]["driver"]["rules"][1]["name"] == "NodeSizeUnknown");
  CHECK(run["tool"]["driver"]["rules"][1]["defaultConfiguration"]["level"] == "note");
  CHECK(run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == "file:///src/");
  const json& results = run["results"];
  REQUIRE(results.size() == 3);
  // A relative path is under the base directory; severity names map onto SARIF's levels.
  CHECK(results[0]["level"] == "error");
  CHECK(results[0]["ruleIndex"] == 0);
  CHECK(results[0]["message"]["text"] == "mode is wrong Change: mode: download");
  const json& where = results[0]["locations"][0]["physicalLocation"];
  CHECK(where["artifactLocation"]["uri"] == "jobs/a.yml");
  CHECK(where["artifactLocation"]["uriBaseId"] == "%SRCROOT%");
  CHECK(where["region"]["startLine"] == 12);
  CHECK(results[0]["properties"]["feedcheckRule"] == "prefer-download");
  CHECK_FALSE(results[0]["properties"].contains("wholeFile"));
  // No line: the whole file, placed on line 1; a space in the name is escaped.
  CHECK(results[1]["level"] == "note");
  CHECK(results[1]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] ==
        "jobs/b%20yml");
  CHECK(results[1]["locations"][0]["physicalLocation"]["region"]["startLine"] == 1);
  CHECK(results[1]["properties"]["wholeFile"] == true);
  CHECK_FALSE(results[1]["properties"].contains("feedcheckRule"));
  // Outside the base directory: an absolute file URI; a code with no description: no ruleIndex.
  CHECK(results[2]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] ==
        "file:///elsewhere/c.yml");
  CHECK_FALSE(results[2].contains("ruleIndex"));
}

TEST_CASE("sarif: a complete run lists its error diagnostics, a stopped one all",
          "[reports][sarif]") {
  Report r = Located();
  json invocation = Render(r)["runs"][0]["invocations"][0];
  CHECK(invocation["executionSuccessful"] == true);
  REQUIRE(invocation["toolExecutionNotifications"].size() == 1);
  const json& n = invocation["toolExecutionNotifications"][0];
  CHECK(n["descriptor"]["id"] == "R303");
  CHECK(n["level"] == "error");
  CHECK(n["locations"][0]["physicalLocation"]["region"]["startLine"] == 4);

  r.complete = false;
  invocation = Render(r)["runs"][0]["invocations"][0];
  CHECK(invocation["executionSuccessful"] == false);
  CHECK(invocation["toolExecutionNotifications"].size() == 2);
  CHECK(invocation["toolExecutionNotifications"][0]["level"] == "warning");
}

TEST_CASE("sarif: a report without codes or problems is still a log", "[reports][sarif]") {
  const Report empty;
  const json log = Render(empty);
  CHECK(log["runs"][0]["results"].empty());
  CHECK(log["runs"][0]["tool"]["driver"]["rules"].empty());
  CHECK(log["runs"][0]["tool"]["driver"]["name"] == "feedcheck");
  CHECK_FALSE(log["runs"][0]["tool"]["driver"].contains("informationUri"));
}
