#include "app/analyze_workflow.h"

#include <catch2/catch.hpp>

#include "app_test_support.h"
#include "core/diagnostic_codes.h"

using namespace feedcheck;
using namespace feedcheck::app;
using namespace feedcheck::app::testing;

TEST_CASE("analyze: a job folder's sources, counts and facts", "[app][analyze]") {
  AnalyzeRequest request;
  request.paths = {SourcePath("tests/data/joblogs/job-demo")};
  Outcome out = RunAnalyze(request);
  REQUIRE(out.status == ExitStatus::kOk);
  REQUIRE(out.has_report);
  const Report& r = out.report;
  const ReportTable* sources = FindTable(r, "Sources");
  REQUIRE(sources);
  REQUIRE_FALSE(sources->rows.empty());
  double files = 0, lines = 0;
  for (size_t i = 0; i < sources->rows.size(); ++i) {
    files += Cell(*sources, i, "files")->value.value_or(0);
    lines += Cell(*sources, i, "lines")->value.value_or(0);
  }
  // The headline counts are the table's sums: one reckoning, two views.
  CHECK(ResultNumber(r, "files") == files);
  CHECK(ResultNumber(r, "lines") == lines);
  CHECK(ResultNumber(r, "sources") == static_cast<double>(sources->rows.size()));
  CHECK(ResultNumber(r, "facts") == static_cast<double>(r.evidence.facts.size()));
  CHECK(r.evidence.facts.size() > 0);
}

TEST_CASE("analyze: nothing readable is an input error, an unknown file a warning",
          "[app][analyze][errors]") {
  AnalyzeRequest request;
  request.paths = {WriteTempFile("notes.txt", "nothing a job writes\n")};
  Outcome out = RunAnalyze(request);
  CHECK(out.status == ExitStatus::kInputError);
  CHECK(HasDiagnostic(out.diagnostics, codes::kNothingReadable, "nothing readable"));
  CHECK(HasDiagnostic(out.diagnostics, codes::kNotRead, "notes.txt"));
  CHECK(ResultNumber(out.report, "not_read") == 1);
}
