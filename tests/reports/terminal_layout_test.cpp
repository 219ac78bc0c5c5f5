// The terminal report's layout rules on made-up reports: one screen by default (it says less at
// each fold level until it fits 40 lines), tables as grids when they fit and records when not,
// long headers wrapped, paths cut after a slash, a nodes column in one unit.
#include "reports/terminal_layout.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <sstream>
#include <string>

#include "reports/report_text.h"
#include "reports/terminal_reporter.h"
#include "reports/text_table.h"
#include "reports/text_wrap.h"
#include "tests/reports/sample_report.h"

using namespace feedcheck;

namespace {

size_t Lines(const std::string& text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

size_t Widest(const std::string& text) {
  size_t widest = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) widest = std::max(widest, DisplayWidth(line));
  return widest;
}

std::string Render(const Report& r, bool verbose = false, size_t width = 100,
                   size_t budget = kTerminalLineBudget) {
  std::ostringstream out;
  TerminalReporter(false, verbose, width, budget).Render(r, out);
  return out.str();
}

// A report with `n` findings whose messages run to several sentences each.
Report Wordy(size_t n) {
  Report r = feedcheck::testing::MakeSampleReport(5);
  r.findings.clear();
  for (size_t i = 0; i < n; ++i) {
    Finding f;
    f.rule_id = "rule-" + std::to_string(i);
    f.severity = i == 0 ? Severity::kCritical : Severity::kWarning;
    f.title = "Finding number " + std::to_string(i) + " with a title of some length";
    f.message = "The first sentence says what was found, at some length so that it wraps. " +
                std::string("The second sentence says why, with figures: 12 nodes x 24 Gbit/s. ") +
                "The third says what to change. And a fourth for good measure, to be sure.";
    r.findings.push_back(f);
  }
  return r;
}

}  // namespace

TEST_CASE("the first sentence of a message, marked as cut", "[reports][terminal]") {
  CHECK(FirstSentence("One. Two.") == "One. ...");
  CHECK(FirstSentence("About 16.7 Gbit/s. At full rate") == "About 16.7 Gbit/s. ...");
  CHECK(FirstSentence("Reads 1.44x its limit. 12 nodes x 24") == "Reads 1.44x its limit. ...");
  CHECK(FirstSentence("Only one sentence.") == "Only one sentence.");
  CHECK(FirstSentence("e.g. this stays") == "e.g. this stays");
  CHECK(WithDetail("A. B", TextDetail::kNone).empty());
  CHECK(WithDetail("A. B", TextDetail::kWhole) == "A. B");
}

TEST_CASE("a long report says less until it fits one screen; -v says all", "[reports][terminal]") {
  const Report r = Wordy(8);
  const std::string full = Render(r, false, 100, 0);  // no budget: the default level
  const std::string screen = Render(r);
  const std::string all = Render(r, /*verbose=*/true);
  CHECK(Lines(full) > 40);
  CHECK(Lines(screen) <= 40);
  CHECK(Widest(screen) <= 100);
  // The most severe finding is there, with its cost line and title; the rest counted.
  CHECK(screen.find("[rule-0]") != std::string::npos);
  CHECK(screen.find("more findings; -v lists them") != std::string::npos);
  CHECK(screen.find("The third says what to change") == std::string::npos);
  // -v: every finding, every sentence.
  for (size_t i = 0; i < 8; ++i)
    CHECK(all.find("[rule-" + std::to_string(i) + "]") != std::string::npos);
  CHECK(all.find("The third says what to change") != std::string::npos);
  // It ends with the verdict and the line pointing at the rest, whatever it left out.
  CHECK(screen.rfind("Verdict: ") > screen.rfind("[rule-0]"));
  CHECK(screen.find("-v: every finding") != std::string::npos);
  // A short report keeps every sentence.
  const std::string short_one = Render(Wordy(1));
  CHECK(short_one.find("The third says what to change") != std::string::npos);
}

TEST_CASE("a table too wide for the terminal prints as records", "[reports][terminal]") {
  Report r = feedcheck::testing::MakeSampleReport(5);
  r.findings.clear();
  r.sections.clear();
  ReportTable t;
  t.title = "Problems";
  t.columns = {{"file", "File", false},
               {"line", "Line", true},
               {"code", "Code", false},
               {"message", "Problem", false},
               {"change", "Change", false}};
  for (int i = 0; i < 3; ++i)
    t.rows.push_back({{"examples/jobs/train-images-12-nodes.yml", {}},
                      {std::to_string(14 + i), 14.0 + i},
                      {"L00" + std::to_string(i), {}},
                      {"RSLEX_DOWNLOADER_THREADS is 8; rule downloader-threads-low recommends 384 "
                       "for a node of this size, which reads many files at once",
                       {}},
                      {"RSLEX_DOWNLOADER_THREADS: 8 -> RSLEX_DOWNLOADER_THREADS: 384, in the "
                       "job's environment_variables, so the downloader keeps the NIC busy",
                       {}}});
  r.tables.push_back(t);
  const std::string text = Render(r);
  INFO(text);
  CHECK(Widest(text) <= 100);
  // The short cells on one line (a number says its column), the long ones labelled under it.
  CHECK(text.find("  examples/jobs/train-images-12-nodes.yml line 14 L000\n") != std::string::npos);
  CHECK(text.find("    Problem: RSLEX_DOWNLOADER_THREADS is 8;") != std::string::npos);
  CHECK(text.find("    Change: RSLEX_DOWNLOADER_THREADS: 8 -> ") != std::string::npos);
  // At 200 columns the same table is a grid.
  const std::string wide = Render(r, false, 200);
  CHECK(wide.find("File  ") != std::string::npos);
  CHECK(wide.find("Problem:") == std::string::npos);
}

TEST_CASE("long headers wrap before a column narrows past its longest word",
          "[reports][terminal]") {
  TextTable t({"Size", "Full-rate nodes", "Degrades from"});
  t.AlignRight(1);
  t.AlignRight(2);
  t.FitTo(34);
  t.AddRow({"Standard_ND96isr_MI300X_v5", "2", "3"});
  const std::string text = t.Render();
  INFO(text);
  // The size name (26) cannot wrap; the headers do, onto a second line: 2 + 26 + 2 + 9 + 2 + 8.
  CHECK(Widest(text) == 49);
  CHECK(text.find("Full-rate  Degrades\n") != std::string::npos);
  CHECK(text.find("nodes      from\n") != std::string::npos);
  CHECK(text.find("Standard_ND96isr_MI300X_v5") != std::string::npos);
  size_t tallest = 0;
  t.Render(2, &tallest);
  CHECK(tallest == 1);
}

TEST_CASE("prose cuts a long path after a slash, never a URL", "[reports][terminal]") {
  const std::string path =
      "tests/data/joblogs/throttled-other-account-metrics/system_logs/data_capability/"
      "rslex.log.2025-12-04-22:118";
  std::vector<std::string> lines = WrapText("see " + path + " here", 60, 0, "  ");
  for (const auto& l : lines) CHECK(DisplayWidth(l) <= 60);
  std::string joined;
  for (size_t i = 0; i < lines.size(); ++i) joined += i == 0 ? lines[i] : lines[i].substr(2);
  CHECK(joined.find(path) != std::string::npos);  // only line breaks were added
  const std::string url =
      "https://learn.microsoft.com/azure/virtual-machines/sizes/gpu-accelerated/x";
  lines = WrapText(url, 40, 0, "  ");
  REQUIRE(lines.size() == 1);
  CHECK(lines[0] == url);
}

TEST_CASE("a nodes column of GPU time is in one unit", "[reports][terminal]") {
  CHECK(GpuTimeText(0, 3780) == "0 GPU-minutes");
  CHECK(GpuTimeText(3780, 3780) == "63 GPU-minutes");
  CHECK(GpuTimeText(40) == "40 GPU-seconds");
}

TEST_CASE("a confidence without GPU samples keeps the cause's and says GPU time is unmeasured",
          "[reports][terminal]") {
  const std::string confidence = GENERATE("confirmed", "likely", "inconclusive");
  CHECK(ConfidenceText(confidence, true) == confidence);
  const std::string unmeasured = ConfidenceText(confidence, false);
  CHECK(unmeasured.rfind(confidence + "; ", 0) == 0);  // the cause's confidence leads
  CHECK(unmeasured.find(kGpuTimeNotMeasured) != std::string::npos);
  CHECK(ConfidenceText("", false) == kGpuTimeNotMeasured);
}

TEST_CASE("headline values read in their unit, three significant digits", "[reports][terminal]") {
  CHECK(ResultValueText({"ttfb_p50_ms", 0.05499, "ms", ""}) == "55 \xC2\xB5s");
  CHECK(ResultValueText({"ttfb_p99_ms", 5.732, "ms", ""}) == "5.73 ms");
  CHECK(ResultValueText({"bytes", 3514027852.0, "bytes", ""}) == "3.27 GiB");
  CHECK(ResultValueText({"peak_gbps", 23.14, "Gbit/s", ""}) == "23.1 Gbit/s");
  CHECK(ResultValueText({"requests", 549316.0, "", ""}) == "549,316");
}
