#include "app/report_redaction.h"

#include <catch2/catch.hpp>

#include "app/report_output.h"
#include "core/fact.h"

using namespace feedcheck;

namespace {

Report WithSecrets() {
  Report r;
  r.title = "Analysis";
  r.verdict = "at risk";
  r.verdict_detail = "GET https://a.blob.core.windows.net/c?sv=1&sig=U2VjcmV0U2ln failed";
  Provenance p;
  p.source = "job j.yml";
  r.evidence.facts.Set(TextFact("runtime.setting.AZURE_STORAGE_KEY", "a2V5a2V5a2V5", p));
  r.evidence.facts.Set(TextFact("runtime.setting.RSLEX_DOWNLOADER_THREADS", "32", p));
  r.evidence.diagnostics.Add({"A201",
                              DiagnosticSeverity::kWarning,
                              "malformed line",
                              {"x.log", 3, 0},
                              "rslex",
                              "conn AccountKey=QWNjb3VudEtleQ==;x"});
  r.env.push_back({"CLIENT_SECRET", "c2VjcmV0c2VjcmV0"});
  return r;
}

}  // namespace

TEST_CASE("every format renders a report's secrets redacted, the rest intact", "[app][redaction]") {
  Report report = WithSecrets();
  // Verbose, so the terminal lists every fact too (by default it folds them behind a count).
  app::RenderOptions everything;
  everything.verbose = true;
  for (const std::string& format : app::ReportFormatNames()) {
    auto text = app::RenderReport(report, format, everything);
    REQUIRE(text);
    INFO(format << ":\n" << text->substr(0, 3000));
    for (const char* secret : {"U2VjcmV0U2ln", "a2V5a2V5a2V5", "QWNjb3VudEtleQ", "c2VjcmV0c2Vj"})
      CHECK(text->find(secret) == std::string::npos);
    // SARIF carries only located problems and error diagnostics: none of the facts to check.
    if (format == "sarif") continue;
    CHECK(text->find("RSLEX_DOWNLOADER_THREADS") != std::string::npos);
    CHECK(text->find("REDACTED") != std::string::npos);
  }
  Report redacted = app::RedactReport(report);
  CHECK(redacted.verdict == "at risk");
  REQUIRE(redacted.evidence.facts.Find("runtime.setting.RSLEX_DOWNLOADER_THREADS"));
  CHECK(redacted.evidence.facts.Find("runtime.setting.AZURE_STORAGE_KEY") != nullptr);
  REQUIRE(redacted.evidence.diagnostics.kept().size() == 1);
  CHECK(redacted.evidence.diagnostics.kept()[0].snippet == "conn AccountKey=REDACTED;x");
  CHECK(redacted.evidence.diagnostics.kept()[0].location.line == 3);
}

TEST_CASE("a report without a secret is rendered as it is", "[app][redaction]") {
  Report r;
  r.title = "Plan";
  r.verdict_detail = "a token bucket of 10 per second, keys by name";
  Report same = app::RedactReport(r);
  CHECK(same.verdict_detail == r.verdict_detail);
}
