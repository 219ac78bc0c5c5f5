// The HTML report as it is seen: headless Chromium lays it out at 1280 px (a desk) and 400 px (a
// phone) and a page script (text_geometry.js) measures every chart text's bounding box and
// drawn size. Text outside its SVG (clipped by the viewBox: a legend running off the edge), two
// texts of one chart overlapping, a heading wider than its card, a page wider than the window
// or chart text drawn under 10 px fail the test. A screenshot of the same width checks that
// each chart's area is drawn (not blank), and the markers each verdict needs (the knee, the
// break-even, limits, the busy threshold) must be in the page. Run against the sample report
// and the demo job's post-mortem; pages built to be wrong are the controls that show the
// measurements can fail.
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
#include <set>
#include <sstream>

#include "reports/html_reporter.h"
#include "reports/report_charts.h"
#include "tests/reports/golden.h"
#include "tests/reports/png_decode.h"
#include "tests/reports/sample_report.h"

using namespace feedcheck;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr int kWidth = 1280, kPhoneWidth = 400;

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
void RunChromium(const fs::path& page, int width, int height, const std::string& mode,
                 const fs::path& out_file) {
  char profile[] = "/tmp/feedcheck-chromium-XXXXXX";
  REQUIRE(mkdtemp(profile) != nullptr);
  std::string cmd = fmt::format(
      "timeout 90 '{}' --headless --no-sandbox --disable-gpu --disable-quic "
      "--disable-background-networking --disable-component-update --disable-sync --no-first-run "
      "--user-data-dir='{}' --hide-scrollbars --force-device-scale-factor=1 "
      "--window-size={},{} {} 'file://{}' >'{}' 2>'{}.log'",
      Chromium(), profile, width, height, mode, page.string(), out_file.string(),
      out_file.string());
  int status = std::system(cmd.c_str());
  fs::remove_all(profile);
  INFO(cmd);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
}

// Headless Chromium keeps its window at least 500 px wide. A narrower screen is an iframe of
// that width at the top left of the window: the page inside lays out (and matches its media
// queries) at the iframe's width. srcdoc keeps the page same-origin with the wrapper, so the
// measuring script can write its result where --dump-dom sees it.
constexpr int kNarrowestWindow = 500;

std::string InFrame(const std::string& html, int width, int height) {
  std::string escaped;
  escaped.reserve(html.size() + html.size() / 8);
  for (char c : html) {
    if (c == '&')
      escaped += "&amp;";
    else if (c == '"')
      escaped += "&quot;";
    else
      escaped += c;
  }
  return fmt::format(
      "<!doctype html><html><head><meta charset=\"utf-8\"></head><body style=\"margin:0;"
      "background:#fff\"><iframe style=\"display:block;border:0;width:{}px;height:{}px\" "
      "srcdoc=\"{}\"></iframe></body></html>",
      width, height, escaped);
}

// The page as Chromium gets it at `width`: itself, or in an iframe of that width.
std::string AtWidth(const std::string& html, int width, int height) {
  return width < kNarrowestWindow ? InFrame(html, width, height) : html;
}

int WindowWidth(int width) { return std::max(width, kNarrowestWindow); }

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
json Measure(const std::string& html, const std::string& name, int width = kWidth) {
  std::string script = feedcheck::testing::ReadFileOrEmpty(std::string(FEEDCHECK_SOURCE_DIR) +
                                                           "/tests/reports/text_geometry.js");
  REQUIRE_FALSE(script.empty());
  std::string probed = html;
  size_t body_end = probed.rfind("</body>");
  REQUIRE(body_end != std::string::npos);
  probed.insert(body_end, "<script>\n" + script + "\n</script>\n");
  fs::path page = WorkDir() / (name + "_measured.html"), dom = WorkDir() / (name + "_dom.html");
  std::ofstream(page) << AtWidth(probed, width, 900);
  RunChromium(page, WindowWidth(width), 900, "--dump-dom", dom);
  std::string text = feedcheck::testing::ReadFileOrEmpty(dom.string());
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
double DrawnShare(const feedcheck::testing::Image& img, const json& chart) {
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

// The whole page at `width`; each chart's area must be drawn on.
void CheckChartsDrawn(const std::string& html, const json& geometry, const std::string& name,
                      int width = kWidth) {
  int height = std::min(geometry["height"].get<int>(), 16000);
  fs::path page = WorkDir() / (name + ".html"), png = WorkDir() / (name + ".png");
  std::ofstream(page) << AtWidth(html, width, height);
  fs::remove(png);
  RunChromium(page, WindowWidth(width), height, "--screenshot='" + png.string() + "'",
              WorkDir() / (name + ".out"));
  feedcheck::testing::Image img;
  std::string error;
  REQUIRE(feedcheck::testing::DecodePng(png.string(), &img, &error));
  CHECK(img.width == WindowWidth(width));
  for (const auto& chart : geometry["charts"]) {
    double share = DrawnShare(img, chart);
    INFO(chart.dump() << ": " << share * 100 << "% drawn");
    CHECK(share > 0.03);
  }
}

// At phone width: the page fits the window (no sideways scroll) and no chart text is drawn
// under 10 px.
void CheckPhoneFit(const json& g) {
  INFO("page " << g["scroll_width"] << " px wide in a " << g["width"] << " px window");
  CHECK(g["width"] == kPhoneWidth);
  CHECK(g["scroll_width"].get<int>() <= kPhoneWidth);
  INFO("smallest chart text " << g["smallest_font_px"] << " px: " << g["smallest_text"]);
  CHECK(g["smallest_font_px"].get<double>() >= 10);
}

// Every chart figure sits above the findings: the charts answer the verdict first.
void CheckChartsBeforeFindings(const json& g) {
  double findings = g["findings_y"].get<double>();
  REQUIRE(findings > 0);
  REQUIRE_FALSE(g["figures"].empty());
  for (const auto& f : g["figures"]) {
    INFO(f.dump());
    CHECK(f["y"].get<double>() < findings);
  }
}

bool HasMarker(const json& g, const std::string& tag) {
  for (const auto& m : g["markers"])
    if (m == tag) return true;
  return false;
}

std::string RenderHtml(Report report) {
  DecideCharts(&report);  // as the app renders it
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

TEST_CASE("Chromium geometry: a page too wide for a phone is caught", "[reports][chromium]") {
  // The phone's control: a 923 px wide block and a 1140 px chart squeezed to fit the window.
  std::string bad =
      "<!doctype html><html><head><meta name=\"viewport\" content=\"width=device-width\">"
      "</head><body><div style=\"width:923px\">wide</div><svg class=\"chart\" "
      "viewBox=\"0 0 1140 200\" style=\"width:100%\" aria-label=\"squeezed\"><text x=\"10\" "
      "y=\"20\" style=\"font-size:11px\">tick</text></svg></body></html>";
  json g = Measure(bad, "phone_control", kPhoneWidth);
  CHECK(g["width"] == kPhoneWidth);
  CHECK(g["scroll_width"].get<int>() > kPhoneWidth);
  CHECK(g["smallest_font_px"].get<double>() < 10);
  CHECK(g["smallest_font_px"].get<double>() > 0);
}

// The markers that answer the sample's verdicts: the sweep's knee, the break-even and the median
// file, the GPUs' busy threshold, the NICs, the account's limit, and the request-rate finding's
// demand against its limit.
const char* const kSampleMarkers[] = {"knee",
                                      "break-even",
                                      "median-file",
                                      "busy-threshold",
                                      "nic",
                                      "limit",
                                      "requests-beyond-account"};

TEST_CASE("Chromium geometry: the sample report's text fits at 1280 px", "[reports][chromium]") {
  std::string html = RenderHtml(feedcheck::testing::MakeChartSampleReport(100));
  json g = Measure(html, "sample");
  CHECK(g["width"] == kWidth);
  // Every chart of the sample (the timeline's three panels, two gauges, the listing too).
  CHECK(g["charts"].size() >= 10);
  CHECK(g["texts"].get<int>() > 100);
  INFO(Problems(g));
  CHECK(g["problems"].empty());
  CHECK(g["scroll_width"].get<int>() <= kWidth);
  for (const char* tag : kSampleMarkers) {
    INFO(tag << " in " << g["markers"].dump());
    CHECK(HasMarker(g, tag));
  }
  CheckChartsBeforeFindings(g);
  CheckChartsDrawn(html, g, "sample");
}

TEST_CASE("Chromium geometry: the sample report fits a 400 px phone", "[reports][chromium]") {
  std::string html = RenderHtml(feedcheck::testing::MakeChartSampleReport(100));
  json g = Measure(html, "sample_phone", kPhoneWidth);
  CheckPhoneFit(g);
  CHECK(g["charts"].size() >= 10);
  INFO(Problems(g));
  CHECK(g["problems"].empty());
  for (const char* tag : kSampleMarkers) {
    INFO(tag << " in " << g["markers"].dump());
    CHECK(HasMarker(g, tag));
  }
  // One column: every chart starts at the same left edge.
  std::set<int> lefts;
  for (const auto& c : g["charts"]) lefts.insert(c["x"].get<int>());
  CHECK(lefts.size() == 1);
  CheckChartsBeforeFindings(g);
  CheckChartsDrawn(html, g, "sample_phone", kPhoneWidth);
}

namespace {

std::string DemoPostmortemHtml() {
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
  return feedcheck::testing::ReadFileOrEmpty(html.string());
}

// The corpus as a fleet (53 jobs), as HTML.
std::string FleetHtml() {
  fs::path html = WorkDir() / "fleet_report.html";
  fs::remove(html);
  std::string cmd = fmt::format(
      "'{}/feedcheck' --fail-on never postmortem '{}/tests/data/joblogs' --format html -o '{}' "
      "2>/dev/null",
      FEEDCHECK_BINARY_DIR, FEEDCHECK_SOURCE_DIR, html.string());
  int status = std::system(cmd.c_str());
  INFO(cmd);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  return feedcheck::testing::ReadFileOrEmpty(html.string());
}

}  // namespace

TEST_CASE("Chromium geometry: the fleet page opens on its answer at 1280 and 400 px",
          "[reports][chromium]") {
  const std::string text = FleetHtml();
  for (int width : {kWidth, kPhoneWidth}) {
    json g = Measure(text, width == kWidth ? "fleet" : "fleet_phone", width);
    INFO(width << " px: " << Problems(g));
    CHECK(g["problems"].empty());
    CHECK(g["scroll_width"].get<int>() <= width);  // no sideways scrolling
    // What storage cost is on the first screen (a 900 px window), and the page is no taller
    // than its answer, chart and folded tables (it was 13,266 px with every table open).
    INFO("answer at " << g["answer_y"] << " px, page " << g["height"] << " px tall");
    CHECK(g["answer_y"].get<double>() > 0);
    CHECK(g["answer_y"].get<double>() < 900);
    CHECK(g["height"].get<double>() < (width == kWidth ? 4000 : 6000));
    std::cout << "fleet page at " << width << " px: answer at " << g["answer_y"] << " px, "
              << g["height"] << " px tall\n";
  }
}

namespace {

// The first screen: a 900 px tall window at the desk's width or the phone's.
constexpr int kFirstScreenPx = 900;

// Share of the box's pixels dark enough to be text (the page's ink, #1e293b and darker).
double InkShare(const feedcheck::testing::Image& img, const json& box) {
  const int x0 = std::max(0, static_cast<int>(box["x"].get<double>()));
  const int y0 = std::max(0, static_cast<int>(box["y"].get<double>()));
  const int x1 = std::min(img.width, x0 + static_cast<int>(box["w"].get<double>()));
  const int y1 = std::min(img.height, y0 + static_cast<int>(box["h"].get<double>()));
  size_t ink = 0, all = 0;
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x) {
      const size_t i = (static_cast<size_t>(y) * img.width + x) * 3;
      ++all;
      ink += img.rgb[i] < 120 && img.rgb[i + 1] < 120 && img.rgb[i + 2] < 120;
    }
  return all == 0 ? 0 : static_cast<double>(ink) / static_cast<double>(all);
}

// The page opens on its answer at `width`: the verdict and the action ("Fix:", a fleet's "Fix
// first:") end within the first screen, and a screenshot of that screen shows the action's text.
void CheckOpensOnAnswer(const std::string& html, const std::string& name, int width) {
  const json g = Measure(html, name + "_first_screen", width);
  INFO(name << " at " << width << " px: verdict ends at " << g["verdict_bottom"]
            << " px, action at " << g["action_bottom"] << " px");
  CHECK(g["verdict_bottom"].get<double>() > 0);
  CHECK(g["verdict_bottom"].get<double>() <= kFirstScreenPx);
  CHECK(g["action_bottom"].get<double>() > 0);
  CHECK(g["action_bottom"].get<double>() <= kFirstScreenPx);
  REQUIRE(g["action_box"].is_object());
  const fs::path page = WorkDir() / (name + "_first_screen.html"),
                 png = WorkDir() / (name + "_first_screen.png");
  std::ofstream(page) << AtWidth(html, width, kFirstScreenPx);
  fs::remove(png);
  RunChromium(page, WindowWidth(width), kFirstScreenPx, "--screenshot='" + png.string() + "'",
              WorkDir() / (name + "_first_screen.out"));
  feedcheck::testing::Image img;
  std::string error;
  INFO(error);
  REQUIRE(feedcheck::testing::DecodePng(png.string(), &img, &error));
  CHECK(img.height == kFirstScreenPx);
  const double ink = InkShare(img, g["action_box"]);
  INFO("the action's line is " << ink * 100 << "% ink in the screenshot");
  CHECK(ink > 0.01);
  std::cout << name << " at " << width << " px: verdict ends at " << g["verdict_bottom"]
            << " px, action at " << g["action_bottom"] << " px\n";
}

}  // namespace

TEST_CASE("Chromium geometry: the post-mortem and the fleet open on the verdict and the action",
          "[reports][chromium]") {
  const std::string demo = DemoPostmortemHtml(), fleet = FleetHtml();
  for (int width : {kWidth, kPhoneWidth}) {
    CheckOpensOnAnswer(demo, "demo_" + std::to_string(width), width);
    CheckOpensOnAnswer(fleet, "fleet_" + std::to_string(width), width);
  }
}

TEST_CASE("Chromium geometry: the demo post-mortem's text fits at 1280 px", "[reports][chromium]") {
  std::string text = DemoPostmortemHtml();
  json g = Measure(text, "demo");
  CHECK(g["charts"].size() >= 3);  // utilisation, activity lanes, egress
  INFO(Problems(g));
  CHECK(g["problems"].empty());
  // The demo's 5-second upload, an hour and a half after the GPUs stopped, is folded and named.
  CHECK(text.find("folded: upload at") != std::string::npos);
  // The busy threshold the starved time is measured against, the account's limit and the
  // nodes' NICs on the egress panel.
  for (const char* tag : {"busy-threshold", "limit", "nic"}) {
    INFO(tag << " in " << g["markers"].dump());
    CHECK(HasMarker(g, tag));
  }
  CheckChartsBeforeFindings(g);
  CheckChartsDrawn(text, g, "demo");
}

TEST_CASE("Chromium geometry: the demo post-mortem fits a 400 px phone", "[reports][chromium]") {
  std::string text = DemoPostmortemHtml();
  json g = Measure(text, "demo_phone", kPhoneWidth);
  CheckPhoneFit(g);
  CHECK(g["charts"].size() >= 3);
  INFO(Problems(g));
  CHECK(g["problems"].empty());
  for (const char* tag : {"busy-threshold", "limit", "nic"}) {
    INFO(tag << " in " << g["markers"].dump());
    CHECK(HasMarker(g, tag));
  }
  CheckChartsDrawn(text, g, "demo_phone", kPhoneWidth);
}
