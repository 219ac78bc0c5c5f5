#include "reports/terminal_reporter.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <sstream>

#include "reports/text_table.h"
#include "reports/text_wrap.h"
#include "tests/reports/sample_report.h"

using namespace feedcheck;

namespace {
std::string Render(bool color, bool verbose = false) {
  std::ostringstream out;
  TerminalReporter(color, verbose).Render(feedcheck::testing::MakeSampleReport(5), out);
  return out.str();
}
size_t LongestWord(const std::string& line) {
  size_t longest = 0, current = 0;
  for (unsigned char c : line) {
    current = c == ' ' ? 0 : current + ((c & 0xC0) != 0x80);
    longest = std::max(longest, current);
  }
  return longest;
}
}  // namespace

TEST_CASE("terminal report without colour has no escape codes", "[reports][terminal]") {
  std::string text = Render(false);
  CHECK(text.find('\x1b') == std::string::npos);
  // Verdict first.
  CHECK(text.rfind("feedcheck Post-mortem", 0) == 0);
  CHECK(text.find("Verdict: ACCOUNT EGRESS LIMIT") < text.find("Findings"));
  // Findings by severity, each with its evidence named and its source.
  size_t critical = text.find("CRITICAL");
  size_t warning = text.find("WARNING ");
  size_t info = text.find("INFO ");
  CHECK(critical < warning);
  CHECK(warning < info);
  CHECK(text.find("metrics.egress_gbps_peak") == std::string::npos);  // -v lists evidence
  // A finding's settings are pasted from "Settings to paste" below; -v shows them per finding.
  CHECK(text.find("set: RSLEX_DOWNLOADER_THREADS=64") == std::string::npos);
  CHECK(text.find("\n  RSLEX_DOWNLOADER_THREADS=64") != std::string::npos);
  // The facts, the rules not evaluated and the diagnostics: one line for all three.
  CHECK(text.find("cache-disk-too-small") == std::string::npos);
  CHECK(text.find("Key facts") == std::string::npos);
  CHECK(text.find("facts behind this report; 1 rule needs facts this run did not have; 2") !=
        std::string::npos);
  CHECK(text.find("(0 errors); -v lists them") != std::string::npos);
  CHECK(text.find("Settings to paste") != std::string::npos);
  CHECK(text.find("block-size-mb: 16") != std::string::npos);
  CHECK(text.find("warning: GPU samples cover 30 min") != std::string::npos);
  // Who ran it where and when: -v (JSON, Markdown and HTML carry it always).
  CHECK(text.find("on gpu-node-07 at 2025-11-22T03:40:00Z") == std::string::npos);
  // It ends with the verdict again, and where the rest is.
  CHECK(text.rfind("Verdict: ACCOUNT EGRESS LIMIT") > text.find("-v lists them"));
  CHECK(text.find("-v: every finding, fact and rule") != std::string::npos);
}

TEST_CASE("terminal report points at the HTML charts only when there is one to draw",
          "[reports][terminal]") {
  const std::string pointer = "-f html -o report.html: the charts";
  Report r = feedcheck::testing::MakeSampleReport(5);
  auto render = [](const Report& report) {
    std::ostringstream out;
    TerminalReporter(false, false).Render(report, out);
    return out.str();
  };
  CHECK(render(r).find(pointer) != std::string::npos);  // series and a timeline
  r.evidence.series.clear();
  r.evidence.timeline.clear();
  for (auto& f : r.findings) f.gauge.reset();
  const std::string none = render(r);
  CHECK(none.find(pointer) == std::string::npos);
  CHECK(none.find("-v: every finding, fact and rule") != std::string::npos);
  REQUIRE(!r.findings.empty());
  // A demand equal to its limit as people read them (119.6 and 120 are both "120 Gbit/s") is a
  // comparison that says nothing: no chart to point at.
  r.findings[0].gauge = FindingGauge{119.6, 120, Unit::kGbps};
  CHECK(render(r).find(pointer) == std::string::npos);
  r.findings[0].gauge = FindingGauge{96, 120, Unit::kGbps};
  CHECK(render(r).find(pointer) != std::string::npos);  // a finding's gauge
  r.findings[0].secondary = true;
  CHECK(render(r).find(pointer) == std::string::npos);  // a secondary one draws none
  r.findings[0].gauge.reset();
  ReportSection bars;
  bars.title = "By cause";
  bars.charts.push_back({"GPU-hours lost by cause", "", {{"egress", 2, "2 GPU-h"}}});
  r.sections.push_back(bars);
  CHECK(render(r).find(pointer) != std::string::npos);
}

TEST_CASE("terminal report -v lists every fact with its value and source", "[reports][terminal]") {
  std::string text = Render(false, /*verbose=*/true);
  CHECK(text.find("metrics.egress_gbps_peak") != std::string::npos);
  CHECK(text.find("119.6 Gbit/s") != std::string::npos);
  CHECK(text.find("rules/builtin/storage.yaml:14") != std::string::npos);
  CHECK(text.find("Diagnostics: 2 (0 errors)") != std::string::npos);
  CHECK(text.find("on gpu-node-07 at 2025-11-22T03:40:00Z") != std::string::npos);
  CHECK(text.find("set: RSLEX_DOWNLOADER_THREADS=64") != std::string::npos);
  CHECK(text.find("rslex.log.2025-11-22-03:118") != std::string::npos);
  CHECK(text.find("\n  probe\n") != std::string::npos);
  CHECK(text.find("\n  gpu\n") != std::string::npos);
  CHECK(text.find("Key facts") != std::string::npos);
}

TEST_CASE("terminal report fits the width it is given", "[reports][terminal]") {
  feedcheck::Report r = feedcheck::testing::MakeSampleReport(5);
  r.verdict_detail = std::string(30, 'x') + " " + std::string(300, 'y').replace(40, 1, " ") +
                     " and a long tail of words that must wrap µs µs µs µs µs µs µs µs µs";
  r.findings.front().message.assign(400, 'w');
  for (size_t i = 60; i < 400; i += 7) r.findings.front().message[i] = ' ';
  for (size_t width : {60, 100}) {
    for (bool verbose : {false, true}) {
      std::ostringstream out;
      TerminalReporter(false, verbose, width).Render(r, out);
      std::istringstream lines(out.str());
      std::string line;
      while (std::getline(lines, line)) {
        size_t columns = 0;
        for (unsigned char c : line) columns += (c & 0xC0) != 0x80;
        // Only a word too long for any line (the 260 y's, a URL, a path) may run over.
        INFO(width << (verbose ? " -v: " : ": ") << line);
        if (columns > width) CHECK(LongestWord(line) > width / 2);
      }
    }
  }
}

TEST_CASE("terminal report lists the rules not evaluated only with -v", "[reports][terminal]") {
  std::string text = Render(false, /*verbose=*/true);
  CHECK(text.find("Not evaluated (facts missing)") != std::string::npos);
  CHECK(text.find("cache-disk-too-small") != std::string::npos);
  CHECK(text.find("missing node.local_disk_bytes, dataset.bytes") != std::string::npos);
  CHECK(text.find("-v lists them") == std::string::npos);
}

TEST_CASE("terminal report with colour paints verdict and severities", "[reports][terminal]") {
  std::string text = Render(true);
  CHECK(text.find("\x1b[1;31mACCOUNT EGRESS LIMIT\x1b[0m") != std::string::npos);
  CHECK(text.find("\x1b[1;31mCRITICAL") != std::string::npos);
  CHECK(text.find("\x1b[1;33mWARNING") != std::string::npos);
  // Same words as without colour once the escapes are stripped.
  std::string stripped;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\x1b') {
      i = text.find('m', i);
      continue;
    }
    stripped += text[i];
  }
  CHECK(stripped == Render(false));
}

TEST_CASE("colour only on a TTY without NO_COLOR or --no-color", "[reports][terminal]") {
  CHECK(ColorWanted(false, true, nullptr));
  CHECK_FALSE(ColorWanted(false, false, nullptr));
  CHECK_FALSE(ColorWanted(true, true, nullptr));
  CHECK_FALSE(ColorWanted(false, true, "1"));
  CHECK(ColorWanted(false, true, ""));  // no-color.org: set *and non-empty*
}

TEST_CASE("MakeReporter knows the four formats and nothing else", "[reports]") {
  for (auto name : ReporterNames()) CHECK(MakeReporter(name) != nullptr);
  CHECK(MakeReporter("csv") == nullptr);
  CHECK(MakeReporter("") == nullptr);
}

TEST_CASE("terminal report shows the result block unless tables carry it", "[reports][terminal]") {
  feedcheck::Report r = feedcheck::testing::MakeSampleReport(5);
  r.result = {{"peak_gbps", 23.14, "Gbit/s", "Peak throughput"},
              {"requests", 549316.0, "", "Requests"},
              {"nic_bound", true, "", ""}};
  std::ostringstream out;
  TerminalReporter(false, false).Render(r, out);
  CHECK(out.str().find("Result") != std::string::npos);
  CHECK(out.str().find("Peak throughput  23.1 Gbit/s") != std::string::npos);
  CHECK(out.str().find("549,316") != std::string::npos);
  CHECK(out.str().find("nic_bound        yes") != std::string::npos);
  // With a table the same numbers are the table's: no second copy.
  r.tables.push_back({});
  r.tables.back().title = "Nodes one account feeds";
  std::ostringstream with_table;
  TerminalReporter(false, false).Render(r, with_table);
  CHECK(with_table.str().find("Peak throughput") == std::string::npos);
}

TEST_CASE("every command lists its facts only with -v", "[reports][terminal]") {
  feedcheck::Report r = feedcheck::testing::MakeSampleReport(5);
  REQUIRE(r.evidence.facts.size() > 0);
  std::ostringstream plain;
  TerminalReporter(false, false).Render(r, plain);
  r.tables.push_back({});
  r.tables.back().title = "Nodes one account feeds";
  std::ostringstream quiet, verbose;
  TerminalReporter(false, false).Render(r, quiet);
  TerminalReporter(false, true).Render(r, verbose);
  CHECK(quiet.str().find("Key facts") == std::string::npos);
  CHECK(quiet.str().find(std::to_string(r.evidence.facts.size()) +
                         " facts behind these figures;") != std::string::npos);
  CHECK(plain.str().find("Key facts") == std::string::npos);
  CHECK(verbose.str().find("Key facts") != std::string::npos);
}

TEST_CASE("a long table cell wraps inside its column", "[reports][terminal]") {
  feedcheck::TextTable t({"Code", "Problem", "Rule"});
  t.WrapCellsAt(20);
  t.AddRow({"L006", "DATASET_MOUNT_X has no effect: every input is downloaded", "r1"});
  std::string text = t.Render(0);
  // Three physical lines for the row, each cell at most 20 wide, the rule on the first line.
  CHECK(text.find("L006  DATASET_MOUNT_X has  r1\n") != std::string::npos);
  CHECK(text.find("      no effect: every\n") != std::string::npos);
  CHECK(text.find("      input is downloaded\n") != std::string::npos);
  // A word longer than the limit stays whole.
  feedcheck::TextTable u;
  u.WrapCellsAt(5);
  u.AddRow({"https://learn.microsoft.com/x"});
  CHECK(u.Render(0) == "https://learn.microsoft.com/x\n");
}

TEST_CASE("the terminal width: $COLUMNS, else the terminal's, else 100", "[reports][terminal]") {
  CHECK(feedcheck::ChooseTerminalWidth(nullptr, 0) == 100);
  CHECK(feedcheck::ChooseTerminalWidth("", 0) == 100);
  CHECK(feedcheck::ChooseTerminalWidth("132", 80) == 132);
  CHECK(feedcheck::ChooseTerminalWidth(nullptr, 80) == 80);
  CHECK(feedcheck::ChooseTerminalWidth("wide", 0) == 100);
  CHECK(feedcheck::ChooseTerminalWidth("10", 0) == 100);  // too narrow to be meant
  // Wrapping counts code points and never cuts inside one.
  std::vector<std::string> lines = feedcheck::WrapText("µs µs µs µs", 6, 0, "  ");
  REQUIRE(lines.size() == 3);
  CHECK(lines[0] == "µs µs");
  CHECK(lines[1] == "  µs");
}
