#include "reports/html_reporter.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <regex>
#include <sstream>
#include <tuple>
#include <vector>

#include "reports/chart_palette.h"
#include "reports/html_escape.h"
#include "reports/markdown_reporter.h"
#include "reports/report_charts.h"
#include "tests/reports/sample_report.h"

using namespace feedcheck;

namespace {
// Rendered as the app renders it: the charts decided with the report first.
std::string Html(Report r) {
  DecideCharts(&r);
  std::ostringstream out;
  HtmlReporter().Render(r, out);
  return out.str();
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}
}  // namespace

TEST_CASE("HtmlEscape escapes the five special characters", "[reports][html]") {
  CHECK(HtmlEscape("<a href=\"x\">Tom & Jerry's</a>") ==
        "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;");
  CHECK(HtmlEscape("plain") == "plain");
}

TEST_CASE("every text from the report is escaped in the HTML", "[reports][html]") {
  Report r = feedcheck::testing::MakeSampleReport(5);
  const std::string evil = "<script>alert('x')</script>";
  r.title = evil;
  r.verdict = evil;
  r.verdict_detail = evil;
  r.context.target = evil;
  r.context.host = evil;
  r.context.warnings = {evil};
  r.findings[0].title = evil;
  r.findings[0].message = evil;
  r.findings[0].rule_id = evil;
  r.findings[0].evidence[0].provenance.source = evil;
  r.findings[0].env = {{evil, evil}};
  r.skipped[0].rule_id = evil;
  r.env = {{evil, evil}};
  r.config = {{evil, evil}};
  r.evidence.facts.Set(TextFact("runtime.mode", evil, {FactOrigin::kObserved, evil}));
  r.evidence.series[0].title = evil;
  r.evidence.timeline[0].label = evil;
  r.evidence.diagnostics.Add({"A1", DiagnosticSeverity::kError, evil, {evil, 1, 1}, "", ""});
  std::string html = Html(r);
  CHECK(html.find("<script") == std::string::npos);
  CHECK(html.find("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;") != std::string::npos);
}

TEST_CASE("the HTML is self-contained: no scripts, no fetches", "[reports][html]") {
  std::string html = Html(feedcheck::testing::MakeSampleReport(20));
  CHECK(html.rfind("<!doctype html>", 0) == 0);
  CHECK(html.find("<style>") != std::string::npos);
  CHECK(html.find("<script") == std::string::npos);
  CHECK(html.find(" src=") == std::string::npos);
  CHECK(html.find("<link") == std::string::npos);
  CHECK(html.find("url(") == std::string::npos);
  CHECK(html.find("@import") == std::string::npos);
}

TEST_CASE("each chart is drawn in its colour when its series is present", "[reports][html]") {
  std::string html = Html(feedcheck::testing::MakeSampleReport(20));
  for (auto color : {palette::kThroughput, palette::kLatencyTtfb, palette::kSizeMeasured,
                     palette::kSizeFit, palette::kGpuUtil, palette::kEgress, palette::kRamp,
                     palette::kLimit, palette::kLaneRuntime, palette::kListPages}) {
    INFO(color);
    bool drawn = html.find("stroke=\"" + std::string(color) + "\"") != std::string::npos ||
                 html.find("fill=\"" + std::string(color) + "\"") != std::string::npos;
    CHECK(drawn);
  }
  CHECK(std::regex_search(html, std::regex("<polyline[^>]*points=\"[0-9.]+,[0-9.]+ ")));
  CHECK(html.find("not drawn") == std::string::npos);
  // The banner is coloured by the verdict's level.
  CHECK(html.find("class=\"banner bad\"") != std::string::npos);
}

TEST_CASE("a chart with nothing to draw is left out, without a line of its own",
          "[reports][html]") {
  Report r = feedcheck::testing::MakeSampleReport(5);
  r.evidence.series.clear();
  r.evidence.timeline.clear();
  for (auto& f : r.findings) f.gauge.reset();
  const ReportCharts charts = DecideCharts(r);
  CHECK(charts.decided);
  CHECK(charts.charts.empty());
  CHECK(charts.missing.empty());
  std::string html = Html(r);
  CHECK(html.find("<polyline") == std::string::npos);
  CHECK(html.find("not drawn") == std::string::npos);
  CHECK(html.find("Not drawn") == std::string::npos);
  CHECK(html.find("<h2>Charts</h2>") == std::string::npos);
  CHECK(html.find("data-chart=") == std::string::npos);
}

TEST_CASE("a timeline without GPU samples says in one line which inputs were missing",
          "[reports][html]") {
  Report r = feedcheck::testing::MakeSampleReport(20);
  // What a post-mortem without nvidia-smi, DCGM or GpuUtilization has: the data runtime's
  // activities and the account's egress, no GPU series, no probe's.
  std::vector<Series> kept;
  for (const auto& s : r.evidence.series)
    if (s.key.rfind("gpu.", 0) != 0 && s.key.rfind("probe.", 0) != 0) kept.push_back(s);
  r.evidence.series = kept;
  const ReportCharts charts = DecideCharts(r);
  REQUIRE_FALSE(charts.charts.empty());
  CHECK(charts.charts.front().kind == EvidenceChart::kTimeline);
  for (const auto& c : charts.charts) CHECK(c.kind != EvidenceChart::kThroughput);
  CHECK(charts.missing.find("no GPU samples") != std::string::npos);
  CHECK(charts.missing.find("account egress") == std::string::npos);  // its metrics were read
  const std::string html = Html(r);
  CHECK(html.find("data-chart=\"timeline\"") != std::string::npos);
  CHECK(Count(html, "Not drawn for want of inputs") == 1);
  CHECK(html.find("not drawn") == std::string::npos);
  // Every input there: no line at all.
  CHECK(DecideCharts(feedcheck::testing::MakeSampleReport(20)).missing.empty());
}

TEST_CASE("a comparison whose bars say nothing is left out", "[reports][html]") {
  // A demand equal to its limit, as people read them, says "at the limit": the text says that.
  auto gen = GENERATE(std::make_tuple(200.0, 200.0, false), std::make_tuple(119.96, 120.0, false),
                      std::make_tuple(96.0, 120.0, true), std::make_tuple(549316.0, 40000.0, true),
                      std::make_tuple(0.0, 120.0, true), std::make_tuple(NAN, 120.0, false));
  const double demand = std::get<0>(gen), limit = std::get<1>(gen);
  const bool says = std::get<2>(gen);
  INFO(demand << " against " << limit);
  CHECK(GaugeSaysSomething(FindingGauge{demand, limit, Unit::kGbps}) == says);
  Report r = feedcheck::testing::MakeSampleReport(5);
  r.findings[0].gauge = FindingGauge{demand, limit, Unit::kGbps};
  r.findings[0].secondary = false;
  const std::string html = Html(r);
  CHECK((html.find("data-chart=\"gauge\"") != std::string::npos) == says);

  // A section's bars: one bar, or bars of one length, compare nothing.
  ReportBarChart bars;
  CHECK_FALSE(BarsSaySomething(bars));
  bars.bars.push_back({"account egress", demand, "a"});
  CHECK_FALSE(BarsSaySomething(bars));
  bars.bars.push_back({"access", demand, "b"});
  CHECK_FALSE(BarsSaySomething(bars));
  bars.bars.push_back({"latency", limit, "c"});
  CHECK(BarsSaySomething(bars) == (demand != limit && !std::isnan(demand)));
}

TEST_CASE("a report with nothing in it still renders", "[reports][html]") {
  Report empty;
  std::string html = Html(empty);
  CHECK(html.find("No verdict") != std::string::npos);
  CHECK(html.find("</html>") != std::string::npos);
  Report odd = feedcheck::testing::MakeSampleReport(5);
  for (auto& s : odd.evidence.series)
    for (auto& p : s.points) p.y = std::nan("");
  CHECK(Html(odd).find("no plottable points") != std::string::npos);
}

TEST_CASE("the HTML shows the result block unless tables carry it", "[reports][html]") {
  Report r = feedcheck::testing::MakeSampleReport(5);
  r.result = {{"peak_gbps", 23.14, "Gbit/s", "Peak throughput"},
              {"requests", 549316.0, "", "Requests <all>"}};
  const std::string html = Html(r);
  CHECK(html.find("<h2>Result</h2>") != std::string::npos);
  // Three significant digits, as every number a person reads.
  CHECK(html.find("<td>Peak throughput</td><td class=\"value\">23.1 Gbit/s</td>") !=
        std::string::npos);
  CHECK(html.find("Requests &lt;all&gt;") != std::string::npos);
  CHECK(html.find("549,316") != std::string::npos);
  // The result block comes before the findings, as in the terminal.
  CHECK(html.find("<h2>Result</h2>") < html.find("<h2>Findings</h2>"));
  r.tables.push_back({});
  r.tables.back().title = "Nodes one account feeds";
  CHECK(Html(r).find("<h2>Result</h2>") == std::string::npos);
}

TEST_CASE("each GPU gets a pale line, on one node or across nodes", "[reports][html]") {
  auto per_device_lines = [](const Report& r) {
    const std::string html = Html(r), stroke = "stroke=\"" + std::string(palette::kGpuPerDevice);
    size_t n = 0;
    for (size_t at = html.find(stroke); at != std::string::npos; at = html.find(stroke, at + 1))
      ++n;
    return n;
  };
  Report r = feedcheck::testing::MakeSampleReport(20);
  size_t one_node = per_device_lines(r);
  CHECK(one_node > 0);
  // A cluster post-mortem names its devices by node: the same lines are drawn.
  for (auto& s : r.evidence.series)
    if (s.key.rfind("gpu.util.gpu", 0) == 0) s.key = "gpu.util.node-1/" + s.key.substr(9);
  CHECK(per_device_lines(r) == one_node);
}

TEST_CASE("markdown cells escape pipes and newlines", "[reports][markdown]") {
  CHECK(MarkdownCell("a|b\nc") == "a\\|b<br>c");
}

TEST_CASE("the charts draw the account's egress limit and the node's NIC", "[reports][html]") {
  std::string html = Html(feedcheck::testing::MakeSampleReport(20));
  // Egress over time: the line at the limit (120 Gbit/s in the sample) under its own legend.
  size_t egress = html.find("aria-label=\"storage account egress over time\"");
  REQUIRE(egress != std::string::npos);
  std::string egress_svg = html.substr(egress, html.find("</svg>", egress) - egress);
  CHECK(egress_svg.find("<title>account egress limit</title>") != std::string::npos);
  size_t tput = html.find("aria-label=\"Throughput vs concurrency\"");
  REQUIRE(tput != std::string::npos);
  std::string tput_svg = html.substr(tput, html.find("</svg>", tput) - tput);
  CHECK(tput_svg.find("<title>node NIC</title>") != std::string::npos);
  CHECK(tput_svg.find(std::string(palette::kNic)) != std::string::npos);
  // No axis label names its unit twice.
  CHECK(html.find("Gbit/s (Gbit/s)") == std::string::npos);
  CHECK(std::regex_search(html, std::regex(R"(\(([^()<]+)\) \(\1\))")) == false);
}

TEST_CASE("one listed page is a stated value, not a point on an axis", "[reports][html]") {
  Report r = feedcheck::testing::MakeSampleReport(20);
  for (auto& s : r.evidence.series)
    if (s.key == "probe.list.page_ms") s.points = {{1, 42.5}};
  std::string html = Html(r);
  CHECK(html.find("aria-label=\"Listing: time per page\"") == std::string::npos);
  CHECK(html.find("<p class=\"stat\">42.5 ms</p>") != std::string::npos);
}

TEST_CASE("the timeline zooms to the GPU samples and folds a late upload", "[reports][html]") {
  Report r = feedcheck::testing::MakeSampleReport(20);
  double end = 0;
  for (const auto& s : r.evidence.series)
    if (s.key == "gpu.util") end = s.points.back().x;
  // A 5-second upload 80 minutes after the last GPU sample.
  r.evidence.timeline.push_back(
      {"data-runtime", "upload", end + 4800, end + 4805, "Success", "data-capability.log:50"});
  std::string html = Html(r);
  CHECK(html.find("folded: upload at") != std::string::npos);
  CHECK(html.find("(5 s)") != std::string::npos);
  // Without the upload nothing is folded on the lanes.
  CHECK(Html(feedcheck::testing::MakeSampleReport(20)).find("folded: upload") == std::string::npos);
}

namespace {
// The SVG (desk rendering) whose aria-label is `label`, or "".
std::string DeskSvg(const std::string& html, const std::string& label) {
  size_t at = html.find("aria-label=\"" + label + "\"");
  if (at == std::string::npos) return "";
  return html.substr(at, html.find("</svg>", at) - at);
}
}  // namespace

TEST_CASE("the throughput chart rings the knee the sweep found", "[reports][html]") {
  std::string svg =
      DeskSvg(Html(feedcheck::testing::MakeChartSampleReport(20)), "Throughput vs concurrency");
  REQUIRE_FALSE(svg.empty());
  CHECK(svg.find("data-marker=\"knee\"") != std::string::npos);
  // Concurrency and rate, from probe.throughput.best_concurrency and knee_gbps.
  CHECK(svg.find("knee: 16 connections, 8.90 Gbit/s") != std::string::npos);
  // Without the knee facts there is no ring (nothing is guessed from the curve).
  CHECK(DeskSvg(Html(feedcheck::testing::MakeSampleReport(20)), "Throughput vs concurrency")
            .find("data-marker=\"knee\"") == std::string::npos);
}

TEST_CASE("time per request marks the break-even and the median file", "[reports][html]") {
  std::string svg = DeskSvg(Html(feedcheck::testing::MakeChartSampleReport(20)),
                            "Time per request vs object size");
  REQUIRE_FALSE(svg.empty());
  CHECK(svg.find("data-marker=\"break-even\"") != std::string::npos);
  CHECK(svg.find("break-even: 14.5 MB") != std::string::npos);
  CHECK(svg.find("data-marker=\"median-file\"") != std::string::npos);
  CHECK(svg.find("median file: 110 KiB") != std::string::npos);
}

TEST_CASE("the latency CDF draws the time to first byte last and thin", "[reports][html]") {
  std::string svg =
      DeskSvg(Html(feedcheck::testing::MakeSampleReport(20)), "Latency distribution (CDF)");
  REQUIRE_FALSE(svg.empty());
  size_t total =
      svg.find("<polyline fill=\"none\" stroke=\"" + std::string(palette::kLatencyTotal));
  size_t ttfb = svg.find("<polyline fill=\"none\" stroke=\"" + std::string(palette::kLatencyTtfb));
  REQUIRE(total != std::string::npos);
  REQUIRE(ttfb != std::string::npos);
  CHECK(ttfb > total);  // on top
  CHECK(svg.find("stroke-width=\"8\" stroke-linejoin", total) < ttfb);
  CHECK(svg.find("stroke-opacity=\"0.45\"", total) < ttfb);
  // Both in the legend, each as drawn.
  CHECK(svg.find(">time to first byte</text>") != std::string::npos);
  CHECK(svg.find(">whole request</text>") != std::string::npos);
}

TEST_CASE("the timeline marks the busy threshold and names its lane colours", "[reports][html]") {
  std::string html = Html(feedcheck::testing::MakeChartSampleReport(20));
  std::string util = DeskSvg(html, "GPU utilisation over time");
  CHECK(util.find("data-marker=\"busy-threshold\"") != std::string::npos);
  CHECK(util.find("busy threshold (10%)") != std::string::npos);
  std::string lanes = DeskSvg(html, "data-runtime activity, starved GPU time and throttling");
  for (const char* name : {">data runtime activity</text>", ">failed</text>",
                           ">GPUs starved</text>", ">throttled</text>"}) {
    INFO(name);
    CHECK(lanes.find(name) != std::string::npos);
  }
  std::string egress = DeskSvg(html, "storage account egress over time");
  CHECK(egress.find("data-marker=\"nic\"") != std::string::npos);
  CHECK(egress.find("nodes&#39; NICs together") != std::string::npos);
}

TEST_CASE("a finding's demand against its limit is charted", "[reports][html]") {
  std::string html = Html(feedcheck::testing::MakeChartSampleReport(20));
  size_t at = html.find("data-marker=\"requests-beyond-account\"");
  REQUIRE(at != std::string::npos);
  std::string svg = html.substr(at, html.find("</svg>", at) - at);
  CHECK(svg.find("549,316/s") != std::string::npos);
  CHECK(svg.find("40,000/s") != std::string::npos);
  CHECK(svg.find(std::string(palette::kDemand)) != std::string::npos);
  CHECK(svg.find("data-marker=\"limit\"") != std::string::npos);
  CHECK(html.find("What the plan needs against the limit it meets: 13.7x.") != std::string::npos);
  CHECK(svg.find(">needed</tspan>") != std::string::npos);
  // An observed finding shows what the job reached.
  CHECK(html.find("What the job reached against the limit it met.") != std::string::npos);
  CHECK(html.find(">observed</tspan>: 96.0 Gbit/s") != std::string::npos);
  // The critical request rate is charted before the other gauge (findings' order).
  CHECK(at < html.find("data-marker=\"account-egress-limit\""));
}

TEST_CASE("listing is charted as entries over time, even for one page", "[reports][html]") {
  Report r = feedcheck::testing::MakeChartSampleReport(20);
  for (auto& s : r.evidence.series) {
    if (s.key == "probe.list.page_ms") s.points = {{1, 42.5}};
    if (s.key == "probe.list.entries_by_time") s.points = {{0, 0}, {0.0425, 812}};
  }
  std::string html = Html(r);
  std::string svg = DeskSvg(html, "Listing: entries over time");
  REQUIRE_FALSE(svg.empty());
  CHECK(svg.find("<polyline") != std::string::npos);
  CHECK(svg.find("52,000 a second") != std::string::npos);
  CHECK(html.find("<p class=\"stat\">") == std::string::npos);
}

TEST_CASE("charts come after the verdict, before the findings, for desk and phone",
          "[reports][html]") {
  std::string html = Html(feedcheck::testing::MakeChartSampleReport(20));
  size_t charts = html.find("<h2>Charts</h2>");
  REQUIRE(charts != std::string::npos);
  CHECK(charts > html.find("class=\"banner"));
  CHECK(charts < html.find("<h2>Findings</h2>"));
  // Each figure holds a desk drawing and a phone one, 360 units wide.
  size_t figures = 0, phones = 0;
  for (size_t at = html.find("<figure"); at != std::string::npos; at = html.find("<figure", at + 1))
    ++figures;
  for (size_t at = html.find("<div class=\"for-phone\"><svg class=\"chart\" viewBox=\"0 0 360 ");
       at != std::string::npos;
       at = html.find("<div class=\"for-phone\"><svg class=\"chart\" viewBox=\"0 0 360 ", at + 1))
    ++phones;
  CHECK(figures >= 8);
  CHECK(phones == figures);
  CHECK(html.find("@media (max-width:640px)") != std::string::npos);
  // Without any chart to draw there is no Charts section at all.
  Report bare = feedcheck::testing::MakeSampleReport(5);
  bare.evidence.series.clear();
  bare.evidence.timeline.clear();
  bare.findings.clear();
  std::string none = Html(bare);
  CHECK(none.find("<h2>Charts</h2>") == std::string::npos);
  CHECK(none.find("<h2>Findings</h2>") != std::string::npos);
}
