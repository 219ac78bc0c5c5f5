// The HTML report as it is seen: headless Chromium lays it out at 1280 px and a page script
// (text_geometry.js) measures every chart text's bounding box. Text outside its SVG (clipped by
// the viewBox: a legend running off the edge), two texts of one chart overlapping, or a heading
// wider than its card fail the test. A screenshot of the same width checks that each chart's
// area is drawn (not blank). Run against the sample report and the demo job's post-mortem; a
// page built to be wrong is the control that shows the measurement can fail.
// Exits 77 (ctest: skipped) only when no Chromium is installed, and says so.
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "reports/html_reporter.h"
#include "tests/reports/golden.h"
#include "tests/reports/png_decode.h"
#include "tests/reports/sample_report.h"

using namespace feedcheck;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr int kWidth = 1280;

std::string Chromium() {
  if (const char* env = std::getenv("FEEDCHECK_CHROMIUM")) return env;
  for (const char* p : {"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"})
    if (fs::exists(p)) return p;
  std::cerr << "SKIPPED: no Chromium found (set FEEDCHECK_CHROMIUM or install chromium)\n";
  std::exit(77);
}

fs::path WorkDir() {
  fs::path dir = fs::path(FEEDCHECK_BINARY_DIR) / "chromium_geometry_test";
  fs::create_directories(dir);
  return dir;
}

// Runs headless Chromium on `page` with `mode` ("--dump-dom" or "--screenshot=FILE"); stdout
// into `out_file`. A fresh profile each time, removed after.
void RunChromium(const fs::path& page, int height, const std::string& mode,
                 const fs::path& out_file) {
  char profile[] = "/tmp/feedcheck-chromium-XXXXXX";
  REQUIRE(mkdtemp(profile) != nullptr);
  std::string cmd = fmt::format(
      "timeout 90 '{}' --headless --no-sandbox --disable-gpu --disable-quic "
      "--disable-background-networking --disable-component-update --disable-sync --no-first-run "
      "--user-data-dir='{}' --hide-scrollbars --force-device-scale-factor=1 "
      "--window-size={},{} {} 'file://{}' >'{}' 2>'{}.log'",
      Chromium(), profile, kWidth, height, mode, page.string(), out_file.string(),
      out_file.string());
  int status = std::system(cmd.c_str());
  fs::remove_all(profile);
  INFO(cmd);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
}

std::string Unescape(std::string s) {
  const std::pair<const char*, const char*> entities[] = {
      {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&#39;", "'"}, {"&amp;", "&"}};
  for (const auto& [from, to] : entities) {
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + 1))
      s.replace(at, std::strlen(from), to);
  }
  return s;
}

// The page with the measuring script before </body>, laid out and measured.
json Measure(const std::string& html, const std::string& name) {
  std::string script = testing::ReadFileOrEmpty(std::string(FEEDCHECK_SOURCE_DIR) +
                                                "/tests/reports/text_geometry.js");
  REQUIRE_FALSE(script.empty());
  std::string probed = html;
  size_t body_end = probed.rfind("</body>");
  REQUIRE(body_end != std::string::npos);
  probed.insert(body_end, "<script>\n" + script + "\n</script>\n");
  fs::path page = WorkDir() / (name + "_measured.html"), dom = WorkDir() / (name + "_dom.html");
  std::ofstream(page) << probed;
  RunChromium(page, 900, "--dump-dom", dom);
  std::string text = testing::ReadFileOrEmpty(dom.string());
  size_t begin = text.rfind("FEEDCHECK-GEOMETRY"), end = text.rfind("END-GEOMETRY");
  INFO(dom.string());
  REQUIRE(begin != std::string::npos);
  REQUIRE(end > begin);
  begin += std::strlen("FEEDCHECK-GEOMETRY");
  return json::parse(Unescape(text.substr(begin, end - begin)));
}

std::string Problems(const json& geometry) {
  std::string out;
  for (const auto& p : geometry["problems"]) out += p.dump() + "\n";
  return out;
}

// Share of the chart's area (page coordinates) that is not the card's white.
double DrawnShare(const testing::Image& img, const json& chart) {
  int x0 = std::max(0, chart["x"].get<int>()), y0 = std::max(0, chart["y"].get<int>());
  int x1 = std::min(img.width, x0 + chart["w"].get<int>());
  int y1 = std::min(img.height, y0 + chart["h"].get<int>());
  size_t drawn = 0, all = 0;
  for (int y = y0; y < y1; ++y) {
    for (int x = x0; x < x1; ++x) {
      size_t i = (static_cast<size_t>(y) * img.width + x) * 3;
      ++all;
      drawn += img.rgb[i] < 245 || img.rgb[i + 1] < 245 || img.rgb[i + 2] < 245;
    }
  }
  return all == 0 ? 0 : static_cast<double>(drawn) / static_cast<double>(all);
}

// The whole page at 1280 px; each chart's area must be drawn on.
void CheckChartsDrawn(const std::string& html, const json& geometry, const std::string& name) {
  int height = std::min(geometry["height"].get<int>(), 16000);
  fs::path page = WorkDir() / (name + ".html"), png = WorkDir() / (name + ".png");
  std::ofstream(page) << html;
  fs::remove(png);
  RunChromium(page, height, "--screenshot='" + png.string() + "'", WorkDir() / (name + ".out"));
  testing::Image img;
  std::string error;
  REQUIRE(testing::DecodePng(png.string(), &img, &error));
  CHECK(img.width == kWidth);
  for (const auto& chart : geometry["charts"]) {
    double share = DrawnShare(img, chart);
    INFO(chart.dump() << ": " << share * 100 << "% drawn");
    CHECK(share > 0.03);
  }
}

std::string RenderHtml(const Report& report) {
  std::ostringstream out;
  HtmlReporter().Render(report, out);
  return out.str();
}

}  // namespace

TEST_CASE("Chromium geometry: a page built to be wrong is caught", "[reports][chromium]") {
  // The control: the measurement must see a clipped label and two overlapping ones.
  std::string bad =
      "<!doctype html><html><body><svg class=\"chart\" viewBox=\"0 0 300 100\" width=\"300\" "
      "height=\"100\" aria-label=\"bad\"><text x=\"10\" y=\"20\">overlapping one</text>"
      "<text x=\"14\" y=\"22\">overlapping two</text><text x=\"260\" y=\"50\">account egress "
      "limit</text></svg></body></html>";
  json g = Measure(bad, "control");
  bool clipped = false, overlap = false;
  for (const auto& p : g["problems"]) {
    clipped |= p["kind"] == "clipped" && p["text"] == "account egress limit";
    overlap |= p["kind"] == "overlap";
  }
  CHECK(clipped);
  CHECK(overlap);
}

TEST_CASE("Chromium geometry: the sample report's text fits at 1280 px", "[reports][chromium]") {
  std::string html = RenderHtml(testing::MakeSampleReport(100));
  json g = Measure(html, "sample");
  CHECK(g["width"] == kWidth);
  CHECK(g["charts"].size() >= 7);  // every chart of the sample, the timeline's three panels too
  CHECK(g["texts"].get<int>() > 100);
  INFO(Problems(g));
  CHECK(g["problems"].empty());
  CheckChartsDrawn(html, g, "sample");
}

TEST_CASE("Chromium geometry: the demo post-mortem's text fits at 1280 px", "[reports][chromium]") {
  fs::path html = WorkDir() / "demo_report.html";
  fs::remove(html);
  std::string cmd = fmt::format(
      "'{}/feedcheck' --fail-on never postmortem '{}/tests/data/joblogs/job-demo' --region eastus "
      "--sku Standard_ND96asr_v4 --nodes 2 --format html -o '{}' 2>/dev/null",
      FEEDCHECK_BINARY_DIR, FEEDCHECK_SOURCE_DIR, html.string());
  int status = std::system(cmd.c_str());
  INFO(cmd);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  std::string text = testing::ReadFileOrEmpty(html.string());
  json g = Measure(text, "demo");
  CHECK(g["charts"].size() >= 3);  // utilisation, activity lanes, egress
  INFO(Problems(g));
  CHECK(g["problems"].empty());
  // The demo's 5-second upload, an hour and a half after the GPUs stopped, is folded and named.
  CHECK(text.find("folded: upload at") != std::string::npos);
  CheckChartsDrawn(text, g, "demo");
}
