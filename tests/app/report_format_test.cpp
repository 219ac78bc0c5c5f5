#include "app/report_format.h"

#include <catch2/catch.hpp>

using feedcheck::app::ChooseReportFormat;
using feedcheck::app::FormatFlags;

namespace {
std::string Choose(FormatFlags flags) {
  std::string error;
  auto format = ChooseReportFormat(flags, &error);
  return format ? *format : "error: " + error;
}
}  // namespace

TEST_CASE("format: -f wins, then the extension of -o, then --json, then term", "[app][format]") {
  CHECK(Choose({false, "", ""}) == "term");
  CHECK(Choose({true, "", ""}) == "json");
  CHECK(Choose({false, "md", ""}) == "md");
  CHECK(Choose({false, "", "report.json"}) == "json");
  CHECK(Choose({false, "", "out/Report.HTML"}) == "html");
  CHECK(Choose({false, "", "report.md"}) == "md");
  CHECK(Choose({false, "", "report.txt"}) == "term");
  CHECK(Choose({false, "", "lint.sarif"}) == "sarif");
  CHECK(Choose({false, "sarif", ""}) == "sarif");
  CHECK(Choose({false, "", "dir.v2/report"}) == "term");  // a dot in a folder is no extension
  CHECK(Choose({false, "", "-"}) == "term");
  CHECK(Choose({false, "json", "report.md"}) == "json");  // -f says otherwise
  CHECK(Choose({true, "", "report.md"}) == "json");       // --json is explicit too
  CHECK(Choose({true, "json", ""}) == "json");
}

TEST_CASE("format: --json with another -f is an error naming both flags", "[app][format]") {
  std::string message = Choose({true, "md", ""});
  CHECK(message.rfind("error: ", 0) == 0);
  CHECK(message.find("--json") != std::string::npos);
  CHECK(message.find("--format md") != std::string::npos);
  CHECK(Choose({false, "pdf", ""}).find("unknown format 'pdf'") != std::string::npos);
}

TEST_CASE("format: -o with an extension no format has is refused, naming the flag",
          "[app][format]") {
  // report.pdf would otherwise get terminal text under a name that promises a PDF.
  std::string message = Choose({false, "", "out/report.pdf"});
  CHECK(message.rfind("error: ", 0) == 0);
  CHECK(message.find("--output out/report.pdf") != std::string::npos);
  CHECK(message.find(".json, .md, .html, .sarif, .txt") != std::string::npos);
  CHECK(message.find("-f/--format") != std::string::npos);
  // An explicit format decides: -f, or --json.
  CHECK(Choose({false, "html", "report.pdf"}) == "html");
  CHECK(Choose({true, "", "report.pdf"}) == "json");
  // SARIF is a format of every report (the problems a report locates); a command's own extra
  // format is picked by its extension too.
  CHECK(Choose({false, "", "results.sarif"}) == "sarif");
  CHECK(Choose({false, "", "trace.otlp", {"otlp"}}) == "otlp");
  CHECK(Choose({false, "", "trace.otlp"}).rfind("error: ", 0) == 0);
  CHECK(Choose({false, "", "notes.text"}) == "term");
  CHECK(feedcheck::app::OutputExtensionProblem("report.pdf", {}).find(".pdf") != std::string::npos);
  CHECK(feedcheck::app::OutputExtensionProblem("report.HTML", {}).empty());
  CHECK(feedcheck::app::OutputExtensionProblem("-", {}).empty());
}
