#include "reports/svg_chart.h"

#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <regex>
#include <set>

using namespace feedcheck;
using namespace feedcheck::svg;

TEST_CASE("linear ticks are 1-2-5 steps covering the range", "[reports][svg]") {
  auto t = NiceTicks(0, 9.4, 6);
  REQUIRE(t.size() >= 2);
  CHECK(t.front() == 0);
  CHECK(t.back() >= 9.4);
  CHECK(t[1] - t[0] == Approx(2));
  auto u = NiceTicks(0.013, 0.98, 5);
  CHECK(u.front() <= 0.013);
  CHECK(u.back() >= 0.98);
  CHECK(u[1] - u[0] == Approx(0.2));
  CHECK(NiceTicks(3, 3, 5).size() == 1);  // degenerate range: no loop, one tick
}

TEST_CASE("log ticks for sizes step by powers of 4", "[reports][svg]") {
  auto t = LogTicks(4096, 268435456, 4);
  REQUIRE(t.size() >= 2);
  CHECK(t.front() <= 4096);
  CHECK(t.back() >= 268435456);
  CHECK(t.size() <= 10);
  CHECK(TickLabel(4096, TickFormat::kBytes, 0) == "4 KiB");
  CHECK(TickLabel(268435456, TickFormat::kBytes, 0) == "256 MiB");
  auto d = LogTicks(1, 1000, 10);
  CHECK(d == std::vector<double>{1, 10, 100, 1000});
  CHECK(LogTicks(1, 64, 2) == std::vector<double>{1, 2, 4, 8, 16, 32, 64});
}

TEST_CASE("clock ticks fall on round times inside the range", "[reports][svg]") {
  double start = 1763780400 + 17;  // 03:00:17 UTC
  auto t = ClockTicks(start, start + 1800, 7);
  REQUIRE(!t.empty());
  CHECK(t.front() >= start);
  CHECK(t.back() <= start + 1800);
  CHECK(TickLabel(t.front(), TickFormat::kClockUtc, 300) == "03:05");
}

TEST_CASE("a line chart maps points into the plot area", "[reports][svg]") {
  LineChart chart(400, 200);
  chart.x.label = "x & y";
  chart.Add(Line{"a<b", {{0, 0}, {10, 5}}, "#123456", false, true});
  std::string svg = chart.Render("t");
  CHECK(svg.find("stroke=\"#123456\"") != std::string::npos);
  CHECK(svg.find("x &amp; y") != std::string::npos);
  CHECK(svg.find("a&lt;b") != std::string::npos);
  // x=0 sits on the left margin, x=10 on the right edge minus the margin.
  CHECK(svg.find(fmt::format("{:.1f},", double(kMarginLeft))) != std::string::npos);
  CHECK(svg.find(fmt::format("{:.1f},", double(400 - kMarginRight))) != std::string::npos);
}

TEST_CASE("a legend too wide for one row wraps and moves the plot down", "[reports][svg]") {
  LineChart one(560, 300), many(560, 300);
  one.Add(Line{"measured", {{1, 1}, {2, 2}}, "#111111", false, false});
  for (const char* name :
       {"measured throughput", "predicted from one node", "account egress limit", "node NIC"})
    many.Add(Line{name, {{1, 1}, {2, 2}}, "#111111", false, false});
  std::string a = one.Render("one"), b = many.Render("many");
  // Every legend text starts inside the chart and, at 7.2 px a character, ends inside it.
  std::regex legend("<text class=\"legend\" x=\"([0-9.]+)\" y=\"([0-9.]+)\">([^<]*)</text>");
  std::set<std::string> rows;
  for (auto it = std::sregex_iterator(b.begin(), b.end(), legend); it != std::sregex_iterator();
       ++it) {
    double x = std::stod((*it)[1]);
    rows.insert((*it)[2]);
    CHECK(x + 7.2 * static_cast<double>((*it)[3].length()) <= 560);
  }
  CHECK(rows.size() == 2);
  // The top grid line sits lower under two legend rows.
  auto top_grid = [](const std::string& svg) {
    std::regex grid("<line x1=\"88.0\" y1=\"([0-9.]+)\" x2=\"528.0\"");
    double top = 1e9;
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), grid); it != std::sregex_iterator();
         ++it)
      top = std::min(top, std::stod((*it)[1]));
    return top;
  };
  CHECK(top_grid(b) > top_grid(a));
}

TEST_CASE("an integer axis has whole-number ticks only", "[reports][svg]") {
  LineChart chart(560, 300);
  chart.x.integer = true;
  chart.x.label = "page";
  std::vector<SeriesPoint> pages;
  for (int i = 1; i <= 10; ++i) pages.push_back({double(i), 10.0 + i % 3});
  chart.Add(Line{"p", pages, "#111111", false, true});
  std::string svg = chart.Render("pages");
  // Every point inside the plot: the ticks cover the last page.
  std::regex circle("<circle cx=\"([0-9.]+)\"");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), circle); it != std::sregex_iterator();
       ++it)
    CHECK(std::stod((*it)[1]) <= 560 - kMarginRight + 0.1);
  std::regex tick("text-anchor=\"middle\">([^<]*)</text>");
  int ticks = 0;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), tick); it != std::sregex_iterator();
       ++it) {
    std::string label = (*it)[1];
    if (label == "page") continue;
    INFO(label);
    CHECK(label.find('.') == std::string::npos);
    ++ticks;
  }
  CHECK(ticks >= 3);
}

TEST_CASE("a fixed x range leaves out points outside it", "[reports][svg]") {
  LineChart chart(400, 200);
  chart.SetXRange(0, 10);
  chart.Add(Line{"l", {{0, 1}, {10, 2}, {500, 3}}, "#123456", false, false});
  std::string svg = chart.Render("t");
  std::smatch m;
  REQUIRE(std::regex_search(svg, m, std::regex("points=\"([^\"]*)\"")));
  std::string points = m[1];
  CHECK(std::count(points.begin(), points.end(), ',') == 2);
}

TEST_CASE("a lane chart names what its range folded", "[reports][svg]") {
  std::string svg =
      LaneChart(1140, {"a"}, {{"a", 0, 10, "#111111", "x"}, {"a", 900, 905, "#222222", "late"}}, 0,
                10, TickFormat::kNumber, "lanes", "folded: late at 00:15:00");
  CHECK(svg.find("folded: late at 00:15:00") != std::string::npos);
  CHECK(svg.find("#222222") == std::string::npos);  // the bar outside the range is not drawn
}

TEST_CASE("a phone-width chart gets fewer ticks than a desk one", "[reports][svg]") {
  auto x_ticks = [](int width) {
    LineChart chart(width, 300);
    chart.x.scale = Scale::kLog;
    chart.x.format = TickFormat::kBytes;
    chart.x.log_base = 4;
    chart.Add(Line{"l", {{4096, 1}, {268435456, 2}}, "#111111", false, false});
    std::string svg = chart.Render("t");
    std::regex tick("<text class=\"tick\" x=\"[0-9.]+\" y=\"[0-9.]+\" text-anchor=\"middle\">");
    return std::distance(std::sregex_iterator(svg.begin(), svg.end(), tick),
                         std::sregex_iterator());
  };
  long desk = x_ticks(560), phone = x_ticks(360);
  CHECK(desk == 9);  // 4 KiB .. 256 MiB, every power of 4
  CHECK(phone < desk);
  CHECK(phone >= 2);
  CHECK(LogTicks(4096, 268435456, 4, 5).size() <= 5);
  // A phone-width legend starts at the left edge, not under the plot.
  CHECK(LegendLeft(360) < kMarginLeft);
  CHECK(LegendLeft(560) == kMarginLeft);
}

TEST_CASE("markers and vertical lines are drawn, tagged and named", "[reports][svg]") {
  LineChart chart(560, 300);
  chart.x.scale = Scale::kLog;
  chart.Add(Line{"measured", {{1, 1}, {2, 4}, {4, 6}, {8, 6.1}}, "#111111", false, true});
  chart.Add(Marker{4, 6, "knee: 4 connections", "#222222", "knee"});
  // A vertical line beyond the data widens the x range rather than being lost.
  chart.Add(VerticalLine{64, "break-even", "#333333", "break-even"});
  std::string svg = chart.Render("t");
  CHECK(svg.find("<g data-marker=\"knee\">") != std::string::npos);
  CHECK(svg.find("<title>knee: 4 connections</title>") != std::string::npos);
  CHECK(svg.find(">knee: 4 connections</text>") != std::string::npos);  // in the legend
  std::smatch m;
  REQUIRE(std::regex_search(svg, m,
                            std::regex("<line x1=\"([0-9.]+)\"[^>]*data-marker=\"break-even\"")));
  CHECK(std::stod(m[1]) <= 560 - kMarginRight + 0.1);
  CHECK(std::stod(m[1]) > 400);  // at the right end: 64 is the largest x
}

TEST_CASE("a lane chart's legend names the colours; a long note wraps", "[reports][svg]") {
  std::string note(200, 'x');
  for (size_t i = 9; i < note.size(); i += 10) note[i] = ' ';
  std::string svg = LaneChart(360, {"a"}, {{"a", 0, 10, "#111111", "x"}}, 0, 10,
                              TickFormat::kNumber, "lanes", note, {{"throttled", "#111111"}});
  CHECK(svg.find(
            "<rect x=\"8.0\" y=\"9.0\" width=\"18\" height=\"10\" rx=\"2\" fill=\"#111111\"/>") !=
        std::string::npos);
  CHECK(svg.find(">throttled</text>") != std::string::npos);
  std::regex line("<text class=\"chart-note\" x=\"[0-9.]+\" y=\"[0-9.]+\">([^<]*)</text>");
  long lines = 0;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), line); it != std::sregex_iterator();
       ++it) {
    ++lines;
    CHECK(static_cast<double>((*it)[1].length()) * 6.4 <= 360 - 16);
  }
  CHECK(lines >= 4);
}
