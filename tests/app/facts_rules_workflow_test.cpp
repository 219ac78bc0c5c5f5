// app::RunFactsList, app::RunRulesList and app::RunRulesValidate: the registry and the rules as
// Reports, with their counts in `result` and the rows by key.
#include <catch2/catch.hpp>
#include <filesystem>
#include <set>

#include "app/facts_workflow.h"
#include "app/rules_workflow.h"
#include "app_test_support.h"
#include "core/diagnostic_codes.h"
#include "core/fact_registry.h"

using namespace feedcheck;
using namespace feedcheck::app::testing;

TEST_CASE("facts list: every registry key, with unit, origin and meaning", "[app][facts]") {
  app::Outcome out = app::RunFactsList({});
  REQUIRE(out.has_report);
  CHECK(out.status == ExitStatus::kOk);
  const ReportTable* table = FindTable(out.report, "Fact keys");
  REQUIRE(table);
  const auto& specs = FactRegistry::Builtin().all();
  REQUIRE(table->rows.size() == specs.size());
  CHECK(ResultNumber(out.report, "keys") == static_cast<double>(specs.size()));
  std::set<std::string> keys;
  double families = 0;
  for (size_t i = 0; i < table->rows.size(); ++i) {
    keys.insert(Cell(*table, i, "key")->text);
    if (Cell(*table, i, "key")->text.find(".<") != std::string::npos) ++families;
    CHECK_FALSE(Cell(*table, i, "description")->text.empty());
  }
  CHECK(keys.count("egress.full_rate_nodes"));
  CHECK(families > 0);
  CHECK(ResultNumber(out.report, "families") == families);
  for (size_t i = 0; i < table->rows.size(); ++i)
    if (Cell(*table, i, "key")->text == "probe.throughput.knee_gbps") {
      CHECK(Cell(*table, i, "unit")->text == "Gbit/s");
      CHECK(Cell(*table, i, "origin")->text == "measured");
    }
}

TEST_CASE("facts list PREFIX: only those keys; an unknown prefix names the known ones",
          "[app][facts]") {
  app::Outcome out = app::RunFactsList({"probe.throughput."});
  REQUIRE(out.has_report);
  const ReportTable* table = FindTable(out.report, "Fact keys");
  REQUIRE(table);
  CHECK(table->rows.size() >= 5);
  for (size_t i = 0; i < table->rows.size(); ++i)
    CHECK(Cell(*table, i, "key")->text.rfind("probe.throughput.", 0) == 0);

  out = app::RunFactsList({"prob.through"});
  CHECK(out.status == ExitStatus::kUsage);
  CHECK_FALSE(out.has_report);
  CHECK(HasDiagnostic(out.diagnostics, codes::kBadFlag, "keys start with"));
  CHECK(HasDiagnostic(out.diagnostics, codes::kBadFlag, "probe"));
}

TEST_CASE("rules list: the built-ins with file and line, their sources folded", "[app][rules]") {
  app::Outcome out = app::RunRulesList({});
  REQUIRE(out.has_report);
  CHECK(out.status == ExitStatus::kOk);
  const ReportTable* rules = FindTable(out.report, "Rules");
  const ReportTable* sources = FindTable(out.report, "Sources");
  REQUIRE(rules);
  REQUIRE(sources);
  CHECK(sources->folded);
  CHECK_FALSE(rules->folded);
  CHECK(rules->rows.size() >= 40);
  CHECK(sources->rows.size() == rules->rows.size());
  CHECK(ResultNumber(out.report, "rules") == static_cast<double>(rules->rows.size()));
  CHECK(*ResultNumber(out.report, "critical") + *ResultNumber(out.report, "warnings") +
            *ResultNumber(out.report, "info") ==
        static_cast<double>(rules->rows.size()));
  bool scenario = false;
  for (size_t i = 0; i < rules->rows.size(); ++i) {
    if (Cell(*rules, i, "id")->text != "mount-large-random-seeks") continue;
    scenario = true;
    CHECK(Cell(*rules, i, "file")->text.rfind("rules/builtin/", 0) == 0);
    CHECK(Cell(*rules, i, "line")->value > 0);
    CHECK(Cell(*sources, i, "source")->text.find("https://") != std::string::npos);
  }
  CHECK(scenario);
}

TEST_CASE("rules list --rules DIR: a user's rules join; a broken file is exit 3 with the rest",
          "[app][rules]") {
  std::string good = WriteTempFile("user-rules/rules.yaml", R"(- id: my-rule
  severity: info
  title: Mine
  when: node.count > 100
  say: many nodes
  source: me
)");
  app::RulesListRequest request;
  request.knowledge.rules_dirs = {std::filesystem::path(good).parent_path().string()};
  app::Outcome out = app::RunRulesList(request);
  CHECK(out.status == ExitStatus::kOk);
  const ReportTable* rules = FindTable(out.report, "Rules");
  REQUIRE(rules);
  CHECK(Cell(*rules, rules->rows.size() - 1, "id")->text == "my-rule");

  std::string bad = WriteTempFile("bad-rules/rules.yaml", "- id: x\n  when: [\n");
  request.knowledge.rules_dirs = {std::filesystem::path(bad).parent_path().string()};
  out = app::RunRulesList(request);
  CHECK(out.status == ExitStatus::kInputError);
  REQUIRE(out.has_report);
  CHECK(out.diagnostics.has_errors());
  CHECK(ResultNumber(out.report, "rules") >= 40);  // the built-ins still listed
}

TEST_CASE("rules validate: Ok, Ok with warnings, Invalid; the verdict and counts say which",
          "[app][rules]") {
  std::string ok = WriteTempFile("ok.yaml", R"(- id: a
  severity: info
  title: t
  when: node.count > 1
  say: s
  source: x
)");
  std::string warn = WriteTempFile("warn.yaml", R"(- id: a
  severity: info
  title: t
  when: node.count > 1
  say: s
  source: x
  tags: [x]
)");
  std::string bad = WriteTempFile("bad.yaml", R"(- id: a
  severity: warning
  title: t
  when: dataset.median_file_bytes < 24Gbit/s and node.cont > 3
  say: "hello {dataset.files"
  source: x
)");
  app::Outcome out = app::RunRulesValidate({{ok}});
  CHECK(out.status == ExitStatus::kOk);
  CHECK(out.report.verdict == "valid");
  CHECK(ResultBool(out.report, "valid") == true);

  out = app::RunRulesValidate({{ok, warn}});
  CHECK(out.status == ExitStatus::kOk);
  CHECK(out.report.verdict == "valid, with warnings");
  CHECK(ResultNumber(out.report, "with_warnings") == 1);
  CHECK(HasDiagnostic(out.diagnostics, "R005", "unknown field 'tags'"));

  out = app::RunRulesValidate({{ok, warn, bad, "/nonexistent.yaml"}});
  CHECK(out.status == ExitStatus::kInputError);
  CHECK(out.report.verdict == "invalid");
  CHECK(out.report.verdict_level == VerdictLevel::kBad);
  CHECK(ResultBool(out.report, "valid") == false);
  CHECK(ResultNumber(out.report, "invalid") == 2);
  CHECK(ResultNumber(out.report, "files") == 4);
  const ReportTable* files = FindTable(out.report, "Files");
  REQUIRE(files);
  REQUIRE(files->rows.size() == 4);
  CHECK(Cell(*files, 0, "status")->text == "Ok");
  CHECK(Cell(*files, 1, "status")->text == "Ok, with warnings");
  CHECK(Cell(*files, 2, "status")->text == "Invalid");
  CHECK(Cell(*files, 2, "errors")->value == 3);
  CHECK(Cell(*files, 3, "status")->text == "Invalid");
  // The diagnostics name the file, line and column of each error.
  bool unit_mismatch = false;
  for (const auto& d : out.diagnostics.kept())
    if (d.code == "R104") {
      unit_mismatch = true;
      CHECK(d.location.file == bad);
      CHECK(d.location.line == 4);
      CHECK(d.location.column == 37);
    }
  CHECK(unit_mismatch);
}
