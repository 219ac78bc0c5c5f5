// Renders the HTML report with headless Chromium and checks the screenshot: the page is not
// blank, and each chart's line colour (reports/chart_palette.h) is on it. A report without
// series is the control: its screenshot must not have those colours.
// Exits 77 (ctest: skipped) only when no Chromium is installed, and says so.
#include <fmt/format.h>
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <vector>

#include "diagnosis/data_wait_timeline.h"
#include "reports/chart_palette.h"
#include "reports/html_reporter.h"
#include "reports/report_charts.h"
#include "tests/reports/png_decode.h"
#include "tests/reports/sample_report.h"

using namespace feedcheck;
namespace fs = std::filesystem;

namespace {

constexpr int kWidth = 1240, kHeight = 4200;

std::string Chromium() {
  if (const char* env = std::getenv("FEEDCHECK_CHROMIUM")) return env;
  for (const char* p : {"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"})
    if (fs::exists(p)) return p;
  return "";
}

struct Rgb {
  int r, g, b;
};

Rgb Hex(std::string_view hex) {
  auto byte = [&](size_t i) { return std::stoi(std::string(hex.substr(i, 2)), nullptr, 16); };
  return {byte(1), byte(3), byte(5)};
}

size_t CountNear(const feedcheck::testing::Image& img, Rgb c, int tolerance) {
  size_t n = 0;
  for (size_t i = 0; i + 2 < img.rgb.size(); i += 3) {
    if (std::abs(img.rgb[i] - c.r) <= tolerance && std::abs(img.rgb[i + 1] - c.g) <= tolerance &&
        std::abs(img.rgb[i + 2] - c.b) <= tolerance)
      ++n;
  }
  return n;
}

// Writes the report as HTML, screenshots it, decodes the PNG. Keeps the files for a look.
feedcheck::testing::Image Screenshot(Report report, const std::string& name) {
  DecideCharts(&report);  // as the app renders it
  std::string chromium = Chromium();
  if (chromium.empty()) {
    std::cerr << "SKIPPED: no Chromium found (set FEEDCHECK_CHROMIUM or install chromium)\n";
    std::exit(77);
  }
  fs::path dir = fs::path(FEEDCHECK_BINARY_DIR) / "chromium_test";
  fs::create_directories(dir);
  fs::path html = dir / (name + ".html"), png = dir / (name + ".png");
  fs::remove(png);
  {
    std::ofstream out(html);
    HtmlReporter().Render(report, out);
  }
  char profile_template[] = "/tmp/feedcheck-chromium-XXXXXX";
  REQUIRE(mkdtemp(profile_template) != nullptr);
  std::string cmd = fmt::format(
      "timeout 60 '{}' --headless --no-sandbox --disable-gpu --disable-quic "
      "--disable-background-networking --disable-component-update --disable-sync --no-first-run "
      "--user-data-dir='{}' --hide-scrollbars --force-device-scale-factor=1 "
      "--window-size={},{} --screenshot='{}' 'file://{}' >'{}' 2>&1",
      chromium, profile_template, kWidth, kHeight, png.string(), html.string(),
      (dir / (name + ".log")).string());
  int status = std::system(cmd.c_str());
  fs::remove_all(profile_template);
  INFO(cmd);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  feedcheck::testing::Image img;
  std::string error;
  INFO(error);
  REQUIRE(feedcheck::testing::DecodePng(png.string(), &img, &error));
  return img;
}

const std::pair<const char*, std::string_view> kChartColors[] = {
    {"throughput vs concurrency", palette::kThroughput},
    {"latency CDF", palette::kLatencyTtfb},
    {"time vs object size (measured)", palette::kSizeMeasured},
    {"time vs object size (fit)", palette::kSizeFit},
    {"GPU utilisation", palette::kGpuUtil},
    {"data-runtime activity", palette::kLaneRuntime},
    {"egress over time", palette::kEgress},
    {"throughput vs nodes", palette::kRamp},
    {"account egress limit", palette::kLimit},
};

}  // namespace

TEST_CASE("Chromium draws the HTML report with every chart", "[reports][chromium]") {
  feedcheck::testing::Image img = Screenshot(feedcheck::testing::MakeSampleReport(100), "sample");
  CHECK(img.width == kWidth);
  CHECK(img.height == kHeight);
  // Not blank: plenty of pixels differ from the page background, in many colours.
  Rgb background = Hex("#eef2f7");
  size_t total = img.rgb.size() / 3;
  size_t background_pixels = CountNear(img, background, 2);
  CHECK(background_pixels < total * 9 / 10);
  for (const auto& [chart, color] : kChartColors) {
    size_t n = CountNear(img, Hex(color), 10);
    INFO(chart << " " << color << ": " << n << " pixels");
    CHECK(n >= 80);
  }
}

TEST_CASE("Chromium control: without series no chart colours appear", "[reports][chromium]") {
  Report r = feedcheck::testing::MakeSampleReport(10);
  r.evidence.series.clear();
  r.evidence.timeline.clear();
  feedcheck::testing::Image img = Screenshot(r, "no_series");
  for (const auto& [chart, color] : kChartColors) {
    if (color == palette::kLimit) continue;  // reds also mark critical findings
    size_t n = CountNear(img, Hex(color), 10);
    INFO(chart << " " << color << ": " << n << " pixels");
    CHECK(n < 80);
  }
}

TEST_CASE("Chromium draws the profiled steps' wait for data beside GPU utilisation",
          "[reports][chromium][traces]") {
  Report r = feedcheck::testing::MakeSampleReport(100);
  const Series* util = r.evidence.FindSeries("gpu.util");
  REQUIRE(util);
  const double lo = util->points.front().x, hi = util->points.back().x;
  // Two ranks profiled 40 steps in the middle of the GPU samples, waiting more while the GPUs
  // starved; the series is the post-mortem model's (diagnosis/data_wait_timeline), not drawn
  // from anything the reporter works out.
  std::vector<analyzers::RankFigures> ranks(2);
  for (size_t i = 0; i < ranks.size(); ++i) {
    ranks[i].rank = std::to_string(i);
    ranks[i].clock = analyzers::TraceClock::kBaseTime;
    const double step_s = (hi - lo) / 80;
    for (int k = 0; k < 40; ++k) {
      analyzers::StepFigures f;
      f.number = 101 + k;
      f.start_epoch_s = lo + (hi - lo) / 4 + step_s * k + 0.01 * static_cast<double>(i);
      f.step_s = step_s;
      f.wait_s = step_s * (0.5 + 0.4 * std::sin(k + static_cast<double>(i)));
      ranks[i].steps.push_back(f);
    }
  }
  const std::optional<Series> wait = diagnosis::DataWaitTimeline(ranks);
  REQUIRE(wait);
  CHECK(wait->title.find("2 ranks, 40 steps: #101-#140") != std::string::npos);
  const Rgb green = Hex(palette::kDataWait);
  // Control first: the same page without the traces has none of the line's colour.
  CHECK(CountNear(Screenshot(r, "without_data_wait"), green, 10) < 80);
  r.evidence.series.push_back(*wait);
  feedcheck::testing::Image img = Screenshot(r, "data_wait");
  const size_t n = CountNear(img, green, 10);
  INFO("data wait line " << palette::kDataWait << ": " << n << " pixels");
  CHECK(n >= 80);
  // The GPU utilisation it is drawn beside is still there, and the page says which steps.
  CHECK(CountNear(img, Hex(palette::kGpuUtil), 10) >= 80);
  std::ostringstream html;
  DecideCharts(&r);  // as the app renders it
  HtmlReporter().Render(r, html);
  CHECK(html.str().find("#101-#140") != std::string::npos);
}
