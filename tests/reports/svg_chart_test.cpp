#include "reports/svg_chart.h"

#include <fmt/format.h>

#include <catch2/catch.hpp>

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
