// `postmortem DIR` on a folder of jobs: the layout rule (a fleet or one job of many nodes), the
// fleet of the labelled corpus (tests/data/joblogs) through app::RunPostmortemCommand, a broken
// job folder beside good ones, the JSON shape, every format, and money only from a given price.
#include "app/fleet_workflow.h"

#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "app/compare_workflow.h"
#include "app/fleet_report.h"
#include "app/fleet_text.h"
#include "app/postmortem_report.h"
#include "app_test_support.h"
#include "core/diagnostic_codes.h"
#include "reports/report_json.h"
#include "reports/reporter.h"
#include "reports/terminal_layout.h"
#include "reports/text_wrap.h"

using namespace feedcheck;
using namespace feedcheck::app;
using namespace feedcheck::app::testing;
namespace fs = std::filesystem;

namespace {

// The corpus's jobs, as its labels list them: every one is a job folder of the fleet.
size_t CorpusJobs() {
  std::ifstream in(kJobCorpus + "/corpus.json");
  return nlohmann::json::parse(in)["jobs"].size();
}

FleetRequest FleetOf(const std::string& dir) {
  FleetRequest r;
  r.each.job_dir = dir;
  r.each.fail_on = "never";
  return r;
}

// The corpus as a fleet, diagnosed once for every test case below.
const Outcome& CorpusFleet() {
  static const Outcome outcome = RunPostmortemCommand(FleetOf(kJobCorpus));
  return outcome;
}

const FleetJob* Row(const FleetSummary& f, const std::string& job) {
  for (const auto& j : f.jobs)
    if (j.job == job) return &j;
  return nullptr;
}

std::string Render(const Report& r, const char* format, size_t width = 100, bool verbose = false) {
  ReporterOptions options;
  options.width = width;
  options.verbose = verbose;
  std::ostringstream out;
  MakeReporter(format, options)->Render(r, out);
  return out.str();
}

// A scratch folder of its own for each test that builds a tree.
fs::path Scratch(const std::string& name) {
  fs::path dir = fs::path(WriteTempFile(name + ".marker", "")).parent_path() / (name + "-tree");
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void Touch(const fs::path& file, const std::string& text = "") {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << text;
}

}  // namespace

TEST_CASE("node folder names are recognised, job names are not", "[app][fleet]") {
  for (const char* n :
       {"node-0", "node3", "Node_12", "rank-1", "worker-2", "tvmps_5e0c11a2b4_d", "wkr0001", "7"})
    CHECK(LooksLikeNodeName(n));
  for (const char* n : {"job-demo", "sincere_apple_x9", "node", "egress-throttled-download",
                        "rank-one", "nodes-list"})
    CHECK_FALSE(LooksLikeNodeName(n));
}

TEST_CASE("the layout rule: one job of many nodes stays one job", "[app][fleet]") {
  // Node folders beside the job's metrics (the corpus's multi-node jobs).
  for (const char* job : {"multinode-straggler", "egress-throttled-one-node-idle"}) {
    FleetLayout l = DetectFleetLayout(kJobCorpus + "/" + job, FleetLayoutChoice::kAuto);
    INFO(job << ": " << l.why);
    CHECK_FALSE(l.fleet);
  }
  // Node folders and nothing else: named like nodes, so one job.
  FleetLayout bare =
      DetectFleetLayout(kJobCorpus + "/idle-node-download-no-metrics", FleetLayoutChoice::kAuto);
  CHECK_FALSE(bare.fleet);
  CHECK(bare.why.find("named like a node") != std::string::npos);
  // Logs inside, nodes nested in the log tree.
  CHECK_FALSE(
      DetectFleetLayout(kJobCorpus + "/multinode-nested-logs-egress", FleetLayoutChoice::kAuto)
          .fleet);
  // Several jobs with nothing but logs, named like jobs: a fleet; named like nodes: one job.
  fs::path jobs = Scratch("two-jobs");
  Touch(jobs / "train-resnet" / "system_logs" / "data_capability" / "data-capability.log");
  Touch(jobs / "train-bert" / "system_logs" / "data_capability" / "data-capability.log");
  FleetLayout two = DetectFleetLayout(jobs.string(), FleetLayoutChoice::kAuto);
  CHECK(two.fleet);
  CHECK(two.jobs == std::vector<std::string>{"train-bert", "train-resnet"});
  fs::path nodes = Scratch("two-nodes");
  Touch(nodes / "node-0" / "system_logs" / "data_capability" / "data-capability.log");
  Touch(nodes / "node-1" / "system_logs" / "data_capability" / "data-capability.log");
  CHECK_FALSE(DetectFleetLayout(nodes.string(), FleetLayoutChoice::kAuto).fleet);
  // --layout says otherwise either way.
  CHECK(DetectFleetLayout(nodes.string(), FleetLayoutChoice::kFleet).fleet);
  CHECK_FALSE(DetectFleetLayout(jobs.string(), FleetLayoutChoice::kJob).fleet);
}

TEST_CASE("the layout rule: a folder of experiments, each a folder of jobs", "[app][fleet]") {
  fs::path dir = Scratch("experiments");
  Touch(dir / "resnet" / "run-a" / "system_logs" / "data_capability" / "data-capability.log");
  Touch(dir / "resnet" / "run-b" / "system_logs" / "data_capability" / "data-capability.log");
  Touch(dir / "bert" / "node-0" / "system_logs" / "data_capability" / "data-capability.log");
  Touch(dir / "bert" / "node-1" / "system_logs" / "data_capability" / "data-capability.log");
  FleetLayout l = DetectFleetLayout(dir.string(), FleetLayoutChoice::kAuto);
  REQUIRE(l.fleet);
  // resnet/ holds two jobs; bert/ is one job of two nodes.
  CHECK(l.jobs == std::vector<std::string>{"bert", "resnet/run-a", "resnet/run-b"});
}

TEST_CASE("the layout rule: the corpus folder is a fleet of its job folders", "[app][fleet]") {
  FleetLayout l = DetectFleetLayout(kJobCorpus, FleetLayoutChoice::kAuto);
  REQUIRE(l.fleet);
  CHECK(l.jobs.size() == CorpusJobs());
  std::set<std::string> jobs(l.jobs.begin(), l.jobs.end());
  CHECK(jobs.count("multinode-straggler") == 1);  // a multi-node job is one job of the fleet
  CHECK(jobs.count("job-demo") == 1);
  CHECK(jobs.count("profiles") == 0);
  REQUIRE(l.skipped.size() == 2);  // profiles/ and with/ hold no logs
  CHECK(l.skipped[0].rfind("profiles:", 0) == 0);
}

TEST_CASE("a single multi-node job is still one job's post-mortem", "[app][fleet]") {
  Outcome o = RunPostmortemCommand(FleetOf(kJobCorpus + "/multinode-straggler"));
  REQUIRE(o.has_report);
  CHECK_FALSE(FleetOf(o.report).present);
  CHECK(DiagnosisOf(o.report).present);
  CHECK(DiagnosisOf(o.report).nodes.size() == 4);
  CHECK(o.report.title == "Post-mortem");
}

TEST_CASE("the corpus as a fleet: one row per job, totals that add up", "[app][fleet]") {
  const Outcome& o = CorpusFleet();
  REQUIRE(o.has_report);
  const FleetSummary& f = FleetOf(o.report);
  REQUIRE(f.present);
  REQUIRE(f.jobs.size() == CorpusJobs());
  CHECK(f.diagnosed == static_cast<int>(CorpusJobs()));
  CHECK(f.not_diagnosed == 0);
  CHECK(f.workers >= 1);
  // A multi-node job is one row with its nodes, not 4 jobs.
  const FleetJob* straggler = Row(f, "multinode-straggler");
  REQUIRE(straggler);
  CHECK(straggler->nodes == 4);
  CHECK(straggler->gpus == 32);
  const FleetJob* twelve = Row(f, "healthy-12-nodes");
  REQUIRE(twelve);
  CHECK(twelve->nodes == 12);
  CHECK(twelve->cause == "none found");
  // The same cause as the job's own post-mortem (no flags: the corpus labels' flags differ).
  Outcome alone = RunPostmortem([] {
    PostmortemRequest r;
    r.job_dir = kJobCorpus + "/egress-throttled-download";
    r.fail_on = "never";
    return r;
  }());
  const FleetJob* egress = Row(f, "egress-throttled-download");
  REQUIRE(egress);
  CHECK(egress->cause == DiagnosisOf(alone.report).cause);
  CHECK(egress->gpu_lost_gpu_s == Approx(DiagnosisOf(alone.report).gpu.lost_gpu_s));
  CHECK(egress->fix_id == "throttled-egress");
  CHECK(egress->won_back_estimated);
  CHECK(egress->won_back_gpu_s > 0);
  CHECK(egress->won_back_gpu_s < egress->gpu_lost_gpu_s);
  CHECK(egress->duration_s > 3600);

  // Totals: the rows' sum, split by cause without double counting.
  double rows = 0, by_cause = 0, fixes = 0;
  for (const auto& j : f.jobs)
    if (j.gpu_lost_gpu_s > 0) rows += j.gpu_lost_gpu_s;
  for (const auto& c : f.causes) by_cause += c.gpu_lost_gpu_s;
  for (const auto& x : f.fixes) fixes += x.won_back_gpu_s;
  CHECK(f.gpu_lost_gpu_s == Approx(rows));
  CHECK(by_cause == Approx(rows));
  CHECK(f.won_back_gpu_s == Approx(fixes));
  // Storage causes first, then what is not storage or not known ("none found" is no cause to
  // rank); most GPU time first within each.
  auto kind = [](const FleetCauseTotal& c) {
    const std::string k = CauseKind(c.cause);
    return k == "storage" ? 0 : k == "not storage" ? 1 : 2;
  };
  REQUIRE_FALSE(f.causes.empty());
  CHECK(CauseKind(f.causes.front().cause) == "storage");
  for (size_t i = 1; i < f.causes.size(); ++i) {
    CHECK(kind(f.causes[i - 1]) <= kind(f.causes[i]));
    if (kind(f.causes[i - 1]) == kind(f.causes[i]))
      CHECK(f.causes[i - 1].gpu_lost_gpu_s >= f.causes[i].gpu_lost_gpu_s);
  }
  // Storage, not storage and not known add up to the GPU time lost.
  const StorageSplit split = SplitByStorage(f);
  CHECK(split.storage_gpu_s + split.not_storage_gpu_s + split.unknown_gpu_s == Approx(rows));
  CHECK(split.storage_gpu_s > 0);
  CHECK(ResultNumber(o.report, "storage_gpu_hours_lost") == Approx(split.storage_gpu_s / 3600));
  for (size_t i = 1; i < f.fixes.size(); ++i)
    CHECK(f.fixes[i - 1].won_back_gpu_s >= f.fixes[i].won_back_gpu_s);
  // The order the tables are shown in: most GPU time lost first.
  REQUIRE(f.by_gpu_lost.size() == f.jobs.size());
  CHECK(f.jobs[f.by_gpu_lost[0]].gpu_lost_gpu_s >= f.jobs[f.by_gpu_lost[1]].gpu_lost_gpu_s);

  // One account shared by many throttled jobs is one finding, not one per job.
  std::map<std::string, int> seen;
  for (const auto& a : f.accounts) ++seen[a.account];
  for (const auto& [name, count] : seen) CHECK(count == 1);
  const FleetAccount& top = f.accounts.front();
  CHECK(top.throttled_jobs.size() > 1);
  CHECK(top.finding.find("one finding") != std::string::npos);
  // No price given: no money anywhere.
  CHECK(f.gpu_hour_price_usd < 0);
  CHECK(f.lost_usd < 0);
  CHECK(ResultNumber(o.report, "jobs") == Approx(CorpusJobs()));
}

TEST_CASE("the fleet renders in every format", "[app][fleet]") {
  const Report& r = CorpusFleet().report;
  const FleetSummary fleet = FleetOf(r);
  const std::string term = Render(r, "term");
  std::istringstream lines(term);
  size_t widest = 0, count = 0;
  for (std::string line; std::getline(lines, line); ++count)
    widest = std::max(widest, DisplayWidth(line));
  CHECK(widest <= 100);
  const std::string verdict = "Verdict: " + std::to_string(CorpusJobs()) + " JOBS";
  CHECK(term.find(verdict) != std::string::npos);
  CHECK(term.rfind(verdict) != term.find(verdict));  // first and last
  CHECK(term.find("Jobs (" + std::to_string(CorpusJobs()) + ", most GPU time lost first)") !=
        std::string::npos);
  CHECK(term.find("GPU time lost by cause") != std::string::npos);
  CHECK(term.find("Fixes, ranked") != std::string::npos);
  // The accounts are detail (one line counts them); job names are whole, to paste back.
  CHECK(term.find("stmlcorpus01") == std::string::npos);
  CHECK(term.find("Storage accounts: ") != std::string::npos);
  CHECK(term.find("  Job ") != std::string::npos);
  CHECK(term.find("…") == std::string::npos);
  for (size_t k = 0; k < 4; ++k)
    CHECK(term.find("  " + fleet.jobs[fleet.by_gpu_lost[k]].job + " ") != std::string::npos);
  CHECK(term.find("What the fix buys") == std::string::npos);
  CHECK(term.find("Findings") == std::string::npos);  // its tables are the answer
  const std::string all = Render(r, "term", 100, true);
  CHECK(all.find("What the fix buys") != std::string::npos);
  for (const auto& j : fleet.jobs) CHECK(all.find(j.job.substr(0, 12)) != std::string::npos);
  // The CLI's one screen: the tables cut, each saying how many rows -v adds.
  ReporterOptions screen;
  screen.line_budget = kTerminalLineBudget;
  std::ostringstream folded;
  MakeReporter("term", screen)->Render(r, folded);
  CHECK(folded.str().find("more rows; -v lists them") != std::string::npos);
  CHECK(folded.str().find("Jobs (" + std::to_string(CorpusJobs())) != std::string::npos);

  const std::string md = Render(r, "md");
  CHECK(md.find("## Jobs (" + std::to_string(CorpusJobs())) != std::string::npos);
  CHECK(md.find("| multinode-straggler | 4×8 |") != std::string::npos);
  CHECK(md.find("## GPU time lost by cause") != std::string::npos);
  CHECK(md.find("| Fix | What the fix buys |") != std::string::npos);
  CHECK(md.find("Storage cost") != std::string::npos);

  const std::string html = Render(r, "html");
  // The page opens on the answer: the storage line before any table, the long tables folded
  // (closed <details>, saying how many rows), the short ones open.
  const size_t storage_line = html.find("<b>Storage cost:</b>");
  REQUIRE(storage_line != std::string::npos);
  CHECK(storage_line < html.find("<details class=\"table\""));
  const size_t jobs_at = html.find("<details class=\"table\"><summary><h3>Jobs (");
  CHECK(jobs_at != std::string::npos);
  CHECK(html.find(std::to_string(CorpusJobs()) + " rows: open to list them", jobs_at) !=
        std::string::npos);
  CHECK(html.rfind("<!doctype html>", 0) == 0);
  CHECK(html.find("<script") == std::string::npos);
  CHECK(html.find(" src=") == std::string::npos);
  CHECK(html.find("aria-label=\"GPU-hours lost by cause\"") != std::string::npos);  // the chart
  // One bar per cause, the longest full width.
  size_t bars = 0;
  for (size_t at = html.find("class=\"hfill\""); at != std::string::npos;
       at = html.find("class=\"hfill\"", at + 1))
    ++bars;
  CHECK(bars == fleet.causes.size());
  CHECK(html.find("width:100.0%") != std::string::npos);
  CHECK(html.find("id=\"s0-gpu_lost_gpu_s-d\"") != std::string::npos);  // sortable columns
  CHECK(html.find("#s0-cause-a:checked") != std::string::npos);
  CHECK(html.find("id=\"s0-fix-a\"") == std::string::npos);  // the fix's text: not sortable
  // Each row carries its place in every sortable column's order, not sorted by the page.
  CHECK(html.find("--r3:0;") != std::string::npos);
  CHECK(html.find("Charts</h2>") == std::string::npos);  // no evidence chart to miss
  for (const auto& j : fleet.jobs) CHECK(html.find(">" + j.job + "<") != std::string::npos);
  // Each job's row is edged in its verdict's colour: as many edged rows as jobs, each level's
  // count the jobs of that level.
  size_t edged = 0;
  for (const char* level : {"good", "warning", "bad", "unknown"}) {
    const std::string row = std::string("class=\"srow lv-") + level + "\"";
    size_t rows = 0, jobs = 0;
    for (size_t at = html.find(row); at != std::string::npos; at = html.find(row, at + 1)) ++rows;
    for (const auto& j : fleet.jobs)
      jobs += (j.verdict_level.empty() ? "unknown" : j.verdict_level) == level;
    CHECK(rows == jobs);
    edged += rows;
  }
  CHECK(edged == fleet.jobs.size());
  CHECK(html.find(".srow.lv-bad{border-left:4px solid") != std::string::npos);
}

TEST_CASE("the fleet's JSON: one result per job and the totals, read back whole", "[app][fleet]") {
  const Report& r = CorpusFleet().report;
  nlohmann::json j = nlohmann::json::parse(Render(r, "json"));
  CHECK(j["result"]["jobs"] == CorpusJobs());
  const auto& fleet = j["fleet"];
  REQUIRE(fleet["jobs"].size() == CorpusJobs());
  for (const auto& job : fleet["jobs"]) {
    for (const char* key :
         {"job", "path", "diagnosed", "nodes", "gpus", "duration_s", "gpu_lost_gpu_s",
          "cause_gpu_s", "cause", "confidence", "fix", "accounts"})
      CHECK(job.contains(key));
    for (const char* key : {"id", "title", "advice", "buys", "won_back_gpu_s"})
      CHECK(job["fix"].contains(key));
    CHECK_FALSE(job.contains("lost_usd_estimate"));
  }
  const auto& totals = fleet["totals"];
  CHECK(totals["jobs"] == CorpusJobs());
  CHECK(totals["by_cause"].is_array());
  CHECK(totals["fixes"].is_array());
  CHECK(totals["accounts"].is_array());
  CHECK(totals["gpu_lost_gpu_s"].get<double>() == Approx(FleetOf(r).gpu_lost_gpu_s));
  // Unknown figures are null, never -1.
  bool null_gpus = false;
  for (const auto& job : fleet["jobs"]) null_gpus = null_gpus || job["gpus"].is_null();
  CHECK(null_gpus);  // no-gpu-egress-throttled has no GPU samples
  // Its cause stays confirmed; that its GPU time was not measured is said beside it.
  for (const auto& job : fleet["jobs"]) {
    INFO(job["job"]);
    REQUIRE(job.contains("gpu_time_measured"));
    CHECK(job["gpu_time_measured"].get<bool>() == !job["gpus"].is_null());
    if (job["job"] == "no-gpu-egress-throttled") CHECK(job["confidence"] == "confirmed");
  }

  Report back;
  DiagnosticList d;
  REQUIRE(ReportFromJson(j, "fleet.json", &back, &d));
  RestoreSections(&back);  // as `feedcheck report` does
  CHECK(FleetOf(back).present);
  CHECK(FleetOf(back).jobs.size() == CorpusJobs());
  CHECK(FleetOf(back).by_gpu_lost == FleetOf(r).by_gpu_lost);
  CHECK(Render(back, "md") == Render(r, "md"));
}

TEST_CASE("a broken job folder is reported by name and the rest of the fleet kept",
          "[app][fleet]") {
  fs::path dir = Scratch("fleet-broken");
  for (const char* job : {"egress-throttled-download", "multinode-straggler"})
    fs::copy(kJobCorpus + "/" + job, dir / job, fs::copy_options::recursive);
  // Logs where a job keeps them, but nothing in them feedcheck reads.
  Touch(dir / "broken-job" / "system_logs" / "data_capability" / "notes.bin", "\x01\x02\x03");
  Outcome o = RunPostmortemCommand(FleetOf(dir.string()));
  REQUIRE(o.has_report);
  const FleetSummary& f = FleetOf(o.report);
  REQUIRE(f.jobs.size() == 3);
  CHECK(f.diagnosed == 2);
  CHECK(f.not_diagnosed == 1);
  const FleetJob* broken = Row(f, "broken-job");
  REQUIRE(broken);
  CHECK_FALSE(broken->diagnosed);
  CHECK(broken->problem.find("broken-job") != std::string::npos);
  CHECK(HasDiagnostic(o.diagnostics, codes::kJobNotDiagnosed, "broken-job"));
  CHECK(o.status != ExitStatus::kInputError);  // the rest of the fleet was diagnosed
  CHECK(Render(o.report, "term").find("Not diagnosed (1)") != std::string::npos);
  CHECK(Row(f, "multinode-straggler")->nodes == 4);

  // Nothing diagnosable at all: an input error, still one row per folder.
  fs::path none = Scratch("fleet-none");
  Touch(none / "a" / "system_logs" / "x.bin", "\x01");
  Touch(none / "b" / "system_logs" / "y.bin", "\x01");
  Outcome empty = RunPostmortemCommand(FleetOf(none.string()));
  CHECK(empty.status == ExitStatus::kInputError);
  CHECK(FleetOf(empty.report).jobs.size() == 2);
}

TEST_CASE("money only from the user's price, every figure an estimate", "[app][fleet]") {
  fs::path dir = Scratch("fleet-priced");
  for (const char* job : {"egress-throttled-download", "job-demo"})
    fs::copy(kJobCorpus + "/" + job, dir / job, fs::copy_options::recursive);
  FleetRequest request = FleetOf(dir.string());
  request.gpu_hour_price_usd = 2.5;
  request.workers = 1;
  Outcome o = RunPostmortemCommand(request);
  const FleetSummary& f = FleetOf(o.report);
  REQUIRE(f.present);
  CHECK(f.lost_usd == Approx(f.gpu_lost_gpu_s / 3600 * 2.5));
  for (const auto& j : f.jobs) CHECK(j.lost_usd == Approx(j.gpu_lost_gpu_s / 3600 * 2.5));
  CHECK(f.price_note.find("estimate from the price you gave") != std::string::npos);
  for (const char* format : {"term", "md", "html"})
    CHECK(Render(o.report, format).find("estimate from the price you gave") != std::string::npos);
  nlohmann::json j = nlohmann::json::parse(Render(o.report, "json"));
  CHECK(j["fleet"]["totals"]["price"]["gpu_hour_usd"] == 2.5);
  CHECK(j["fleet"]["jobs"][0].contains("lost_usd_estimate"));

  // One job: its GPU time in money, said to be an estimate from the price.
  FleetRequest one = FleetOf(kJobCorpus + "/egress-throttled-download");
  one.gpu_hour_price_usd = 4;
  Outcome single = RunPostmortemCommand(one);
  const ReportTable* money = FindTable(single.report, "GPU time in money (an estimate)");
  REQUIRE(money);
  REQUIRE_FALSE(money->rows.empty());
  CHECK(money->rows[0][2].value == Approx(DiagnosisOf(single.report).gpu.lost_gpu_s / 3600 * 4));
  CHECK(money->notes.back().find("--gpu-hour-price 4.00") != std::string::npos);
}

TEST_CASE("without a price given: each job at its VM size's dated public price", "[app][fleet]") {
  fs::path dir = Scratch("fleet-kb-priced");
  for (const char* job : {"egress-throttled-download", "job-demo"})
    fs::copy(kJobCorpus + "/" + job, dir / job, fs::copy_options::recursive);
  FleetRequest request = FleetOf(dir.string());
  request.each.cluster.sku = "Standard_ND96asr_v4";
  request.workers = 1;
  Outcome o = RunPostmortemCommand(request);
  const FleetSummary& f = FleetOf(o.report);
  REQUIRE(f.priced());
  CHECK(f.gpu_hour_price_usd == Approx(27.197 / 8));
  CHECK(f.lost_usd == Approx(f.gpu_lost_gpu_s / 3600 * 27.197 / 8));
  double causes = 0;
  for (const auto& c : f.causes) causes += c.lost_usd;
  CHECK(causes == Approx(f.lost_usd));
  for (const auto& j : f.jobs) {
    CHECK(j.sku == "Standard_ND96asr_v4");
    CHECK(j.lost_usd == Approx(j.gpu_lost_gpu_s / 3600 * 27.197 / 8));
  }
  CHECK(f.price_note.find("estimate from Standard_ND96asr_v4: 27.197 USD per VM-hour") !=
        std::string::npos);
  CHECK(f.price_note.find("as of 2026-11-09") != std::string::npos);
  CHECK(f.price_note.find("https://") != std::string::npos);

  // A size without a public price: no money, and the run says why.
  request.each.cluster.sku = "Standard_ND40rs_v2";
  Outcome unpriced = RunPostmortemCommand(request);
  CHECK_FALSE(FleetOf(unpriced.report).priced());
  CHECK(HasDiagnostic(unpriced.diagnostics, codes::kNoPublicPrice,
                      "no public price known for SKU Standard_ND40rs_v2: give --gpu-hour-price"));

  // One job: its money table cites the size's price.
  FleetRequest one = FleetOf(kJobCorpus + "/egress-throttled-download");
  one.each.cluster.sku = "nd96asr_v4";
  Outcome single = RunPostmortemCommand(one);
  const ReportTable* money = FindTable(single.report, "GPU time in money (an estimate)");
  REQUIRE(money);
  REQUIRE_FALSE(money->rows.empty());
  CHECK(money->rows[0][2].value ==
        Approx(DiagnosisOf(single.report).gpu.lost_gpu_s / 3600 * 27.197 / 8));
  CHECK(money->notes.back().find("pay-as-you-go (Linux, eastus, as of 2026-11-09)") !=
        std::string::npos);
}

TEST_CASE("a fleet refuses one job's files and a negative price", "[app][fleet]") {
  FleetRequest r = FleetOf(kJobCorpus);
  r.each.metrics.push_back(kJobCorpus + "/job-demo/metrics/storage-metrics.json");
  Outcome o = RunPostmortemCommand(r);
  CHECK(o.status == ExitStatus::kUsage);
  CHECK(HasDiagnostic(o.diagnostics, codes::kBadFlag, "--metrics"));
  FleetRequest p = FleetOf(kJobCorpus + "/job-demo");
  p.gpu_hour_price_usd = -3;
  CHECK(RunPostmortemCommand(p).status == ExitStatus::kUsage);
}

TEST_CASE("fleet cells: hours and dollars of any size, read from any result file", "[app][fleet]") {
  // A saved fleet result is read back by `report` and `compare`: its numbers are the file's.
  CHECK(FleetGpuHoursText(3600 * 1234.4) == "1,234");
  CHECK(FleetGpuHoursText(3600 * 12.34) == "12.3");
  CHECK(FleetGpuHoursText(-1) == "-");
  CHECK(FleetUsdText(1234.5) == "$1,235");
  CHECK(FleetUsdText(12.345) == "$12.35");
  // Far past what a long long holds: written out, no conversion of an out-of-range double.
  CHECK_FALSE(FleetGpuHoursText(1e300).empty());
  CHECK_FALSE(FleetUsdText(1e300).empty());
  CHECK(FleetUsdText(1e300).rfind("$", 0) == 0);
}

TEST_CASE("one worker or several: the same fleet", "[app][fleet]") {
  fs::path dir = Scratch("fleet-workers");
  for (const char* job : {"egress-throttled-download", "job-demo", "multinode-straggler",
                          "small-files-seen-in-metrics"})
    fs::copy(kJobCorpus + "/" + job, dir / job, fs::copy_options::recursive);
  FleetRequest one = FleetOf(dir.string());
  one.workers = 1;
  FleetRequest three = FleetOf(dir.string());
  three.workers = 3;
  Outcome a = RunPostmortemCommand(one);
  Outcome b = RunPostmortemCommand(three);
  CHECK(FleetOf(a.report).workers == 1);
  CHECK(FleetOf(b.report).workers == 3);
  nlohmann::json ja = nlohmann::json::parse(Render(a.report, "json"))["fleet"]["jobs"];
  nlohmann::json jb = nlohmann::json::parse(Render(b.report, "json"))["fleet"]["jobs"];
  CHECK(ja == jb);
}

TEST_CASE("a job folder's name cannot drive the terminal or the page", "[app][fleet]") {
  fs::path dir = Scratch("fleet-names");
  fs::copy(kJobCorpus + "/job-demo", dir / "job-demo", fs::copy_options::recursive);
  const std::string evil = "x\x1b]0;owned\x07<i id=evil>";
  fs::copy(kJobCorpus + "/job-demo", dir / evil, fs::copy_options::recursive);
  Outcome o = RunPostmortemCommand(FleetOf(dir.string()));
  REQUIRE(FleetOf(o.report).jobs.size() == 2);
  const std::string term = Render(o.report, "term", 100, true);
  CHECK(term.find('\x1b') == std::string::npos);
  CHECK(term.find('\x07') == std::string::npos);
  const std::string html = Render(o.report, "html");
  CHECK(html.find("<i id=evil>") == std::string::npos);
  CHECK(html.find("&lt;i id=evil&gt;") != std::string::npos);
  CHECK(Render(o.report, "md").find("<i id=evil>") == std::string::npos);
}

TEST_CASE("compare of two fleets: totals and causes side by side, judged per job", "[app][fleet]") {
  fs::path last = Scratch("fleet-last-week");
  fs::path now = Scratch("fleet-this-week");
  for (const char* job : {"egress-throttled-download", "multinode-straggler", "job-demo"})
    fs::copy(kJobCorpus + "/" + job, last / job, fs::copy_options::recursive);
  for (const char* job : {"egress-throttled-download", "job-demo", "healthy-12-nodes"})
    fs::copy(kJobCorpus + "/" + job, now / job, fs::copy_options::recursive);
  const std::string a = WriteTempFile(
      "fleet-a.json", Render(RunPostmortemCommand(FleetOf(last.string())).report, "json"));
  const std::string b = WriteTempFile(
      "fleet-b.json", Render(RunPostmortemCommand(FleetOf(now.string())).report, "json"));
  CompareRequest request;
  request.a = a;
  request.b = b;
  request.fail_on_worse = true;
  Outcome better = RunCompare(request);
  REQUIRE(better.has_report);
  CHECK(better.report.title == "Compare fleets");
  // The straggler's 13.7 GPU-hours left, a healthy job came: less lost per job.
  CHECK(better.report.verdict == "better");
  CHECK(better.status == ExitStatus::kOk);
  CHECK(*ResultNumber(better.report, "jobs_a") == 3);
  CHECK(*ResultNumber(better.report, "gpu_hours_lost_per_job_b") <
        *ResultNumber(better.report, "gpu_hours_lost_per_job_a"));
  const ReportTable* causes =
      FindTable(better.report, "GPU time lost by cause, A -> B (GPU-hours)");
  REQUIRE(causes);
  // The straggler (16 download threads on 96 cores, read without --sku: its requests' latency
  // held it) is only in last week's fleet: its cause is gone.
  bool latency_gone = false;
  for (size_t i = 0; i < causes->rows.size(); ++i)
    latency_gone = latency_gone || (causes->rows[i][0].text == "request latency" &&
                                    Cell(*causes, i, "change")->text == "gone");
  CHECK(latency_gone);
  // The other way round: worse, and --fail-on-worse fails it.
  std::swap(request.a, request.b);
  Outcome worse = RunCompare(request);
  CHECK(worse.report.verdict == "worse");
  CHECK(worse.status == ExitStatus::kFindings);
  // The same fleet twice: no change.
  request.b = request.a;
  CHECK(RunCompare(request).report.verdict == "no change");
}

TEST_CASE("the layout rule: a job whose node folders sit one level deeper is a fleet's job",
          "[app][fleet]") {
  // JOB/job/node-N/system_logs: as some downloads nest a multi-node job.
  fs::path dir = Scratch("deeper-nodes");
  Touch(dir / "nested" / "job" / "node-0" / "system_logs" / "data_capability" / "x.log");
  Touch(dir / "nested" / "job" / "node-1" / "system_logs" / "data_capability" / "x.log");
  Touch(dir / "flat-a" / "system_logs" / "data_capability" / "x.log");
  Touch(dir / "flat-b" / "system_logs" / "data_capability" / "x.log");
  FleetLayout l = DetectFleetLayout(dir.string(), FleetLayoutChoice::kAuto);
  INFO(l.why);
  REQUIRE(l.fleet);
  CHECK(l.skipped.empty());
  CHECK(l.jobs == std::vector<std::string>{"flat-a", "flat-b", "nested/job"});
}

TEST_CASE("a folder inside a job is read as the job it belongs to", "[app][fleet]") {
  // The folder --help names, a node's folder and the log tree's top all lead to the job.
  const std::string demo = kJobCorpus + "/job-demo";
  CHECK(EnclosingJobFolder(demo + "/system_logs/data_capability") ==
        fs::weakly_canonical(demo).string());
  CHECK(EnclosingJobFolder(demo + "/system_logs") == fs::weakly_canonical(demo).string());
  CHECK(EnclosingJobFolder(demo).empty());  // the job itself: read as given
  CHECK(EnclosingJobFolder(kJobCorpus).empty());
  const std::string straggler = kJobCorpus + "/multinode-straggler";
  for (const auto& node : fs::directory_iterator(straggler)) {
    if (!fs::is_directory(node.path() / "system_logs")) continue;
    CHECK(EnclosingJobFolder((node.path() / "system_logs").string()) ==
          fs::weakly_canonical(straggler).string());
  }
  // The post-mortem of the inner folder is the job's: the same verdict, GPU samples and metrics
  // read, and a note saying which folder was read.
  Outcome inner = RunPostmortemCommand(FleetOf(demo + "/system_logs/data_capability"));
  Outcome whole = RunPostmortemCommand(FleetOf(demo));
  REQUIRE(inner.has_report);
  CHECK(inner.report.verdict == whole.report.verdict);
  CHECK(inner.report.evidence.facts.size() == whole.report.evidence.facts.size());
  CHECK(inner.report.context.target == demo);
  bool noted = false;
  for (const auto& d : inner.diagnostics.kept())
    noted = noted || (d.code == codes::kInsideAJob && d.message.find(demo) != std::string::npos);
  CHECK(noted);
}

TEST_CASE("a job without GPU samples: its cause's confidence, and its GPU time not measured",
          "[app][fleet]") {
  const FleetSummary f = FleetOf(CorpusFleet().report);
  size_t without = 0;
  for (const auto& j : f.jobs) {
    INFO(j.job);
    CHECK(j.gpu_time_measured == (j.gpus > 0));
    const std::string cell = FleetConfidenceText(j);
    CHECK(cell.rfind(j.confidence, 0) == 0);  // the cause's confidence leads
    CHECK((cell.find("no GPU samples") != std::string::npos) == !j.gpu_time_measured);
    without += !j.gpu_time_measured;
  }
  CHECK(without > 0);
  const FleetJob* no_gpu = Row(f, "no-gpu-egress-throttled");
  REQUIRE(no_gpu);
  CHECK(no_gpu->confidence == "confirmed");
  CHECK(FleetConfidenceText(*no_gpu) == "confirmed; no GPU samples");
  // The rows say so in every format that lists them.
  for (const char* format : {"md", "html"})
    CHECK(Render(CorpusFleet().report, format).find("confirmed; no GPU samples") !=
          std::string::npos);
  CHECK(Render(CorpusFleet().report, "term", 100, true).find("confirmed; no GPU samples") !=
        std::string::npos);
}

TEST_CASE("a fix's action is its first sentence without the reason after a colon", "[app][fleet]") {
  CHECK(FleetActionText("Mount the input (ro_mount) instead of downloading it: a mount starts at "
                        "once. Download mode copies the whole input.") ==
        "Mount the input (ro_mount) instead of downloading it");
  CHECK(FleetActionText("Ask for an egress limit increase, or replicate the data. Storage "
                        "refused requests.") ==
        "Ask for an egress limit increase, or replicate the data");
  CHECK(FleetActionText("Use 2.5 times the threads.") == "Use 2.5 times the threads");
  CHECK(FleetActionText("") == "");
}

TEST_CASE("a fleet of the corpus fits one screen with the storage answer first", "[app][fleet]") {
  const Report& r = CorpusFleet().report;
  const FleetSummary fleet = FleetOf(r);
  const StorageSplit split = SplitByStorage(fleet);
  for (size_t width : {100, 120, 160}) {
    ReporterOptions screen;  // as the CLI renders it: one screen, at the terminal's width
    screen.width = width;
    screen.line_budget = kTerminalLineBudget;
    std::ostringstream out;
    MakeReporter("term", screen)->Render(r, out);
    const std::string term = out.str();
    std::istringstream in(term);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    INFO(width << " columns:\n" << term);
    CHECK(lines.size() <= kTerminalLineBudget);
    size_t answer = lines.size();
    for (size_t i = 0; i < lines.size(); ++i)
      if (lines[i].find("STORAGE COST " + FleetGpuHoursText(split.storage_gpu_s)) !=
          std::string::npos) {
        answer = i;
        break;
      }
    CHECK(answer < 10);
    // The action right under it: the first sentence of the fix that wins back most (wrapped
    // at the terminal's width, so its opening words).
    size_t action = lines.size();
    const std::string opening = FleetActionText(fleet.fixes.front().fix).substr(0, 30);
    for (size_t i = 0; i < lines.size(); ++i)
      if (lines[i].find("  Fix first: " + opening) == 0) {
        action = i;
        break;
      }
    CHECK(action < 10);
    for (const auto& line : lines) CHECK(DisplayWidth(line) <= width);
  }
  // -v has every account and why the folder is a fleet.
  const std::string all = Render(r, "term", 100, true);
  CHECK(all.find("stmlcorpus01") != std::string::npos);
  CHECK(all.find(fleet.layout.substr(0, 30)) != std::string::npos);
}

namespace {

// A legacy profiler trace of `steps` steps of 1 ms, each waiting `wait_share` of it in the
// DataLoader's __next__ (the shape Debian's python3-torch writes).
std::string LegacyTrace(int steps, double wait_share) {
  std::string out = "[";
  for (int i = 0; i < steps; ++i) {
    const double ts = 100 + 1000.0 * i, wait = 1000 * wait_share;
    out += fmt::format(
        "{}{{\"name\": \"ProfilerStep#{}\", \"ph\": \"X\", \"ts\": {}, \"dur\": 1000, \"tid\": 1, "
        "\"pid\": \"CPU functions\", \"args\": {{}}}}, {{\"name\": "
        "\"enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__\", \"ph\": \"X\", \"ts\": "
        "{}, \"dur\": {}, \"tid\": 1, \"pid\": \"CPU functions\", \"args\": {{}}}}",
        i == 0 ? "" : ", ", i + 1, ts, ts + 1, wait);
  }
  return out + "]";
}

// The data runtime's reads of `read_ms` each, in its tracing form.
std::string ReadLog(double read_ms) {
  std::string out;
  for (int i = 0; i < 20; ++i)
    out += fmt::format(
        "2026-11-28T20:23:{:02d}.000000Z  INFO mount:fuse_read:read_file: rslex::prefetching: "
        "close time.busy=0.10ms time.idle={:.2f}ms parallelization_degree=1\n",
        i, read_ms);
  return out;
}

const ReportTable* JobsTableOf(const Report& r) {
  for (const auto& s : r.sections)
    for (const auto& t : s.tables)
      if (t.title.rfind("Jobs (", 0) == 0) return &t;
  for (const auto& t : r.tables)
    if (t.title.rfind("Jobs (", 0) == 0) return &t;
  return nullptr;
}

bool HasColumn(const ReportTable& t, const std::string& key) {
  return std::any_of(t.columns.begin(), t.columns.end(),
                     [&](const TableColumn& c) { return c.key == key; });
}

}  // namespace

TEST_CASE("the fleet's waited-for-data column: only where some job's traces were read",
          "[app][fleet][traces]") {
  // Without traces anywhere: no column, no key (nothing known is left out, not dashed).
  {
    const Report& r = CorpusFleet().report;
    const ReportTable* jobs = JobsTableOf(r);
    REQUIRE(jobs);
    CHECK_FALSE(HasColumn(*jobs, "loader_wait_fraction"));
    CHECK(Render(r, "term", 200, true).find("Waited for data") == std::string::npos);
    // Held in a variable: a range over a member of a temporary would outlive the temporary.
    const nlohmann::json saved = nlohmann::json::parse(Render(r, "json"));
    for (const auto& job : saved["fleet"]["jobs"])
      CHECK_FALSE(job.contains("loader_wait_fraction"));
  }
  const double wait = GENERATE(0.1, 0.84);
  const double read_ms = GENERATE(0.2, 66.0);
  fs::path dir = Scratch("fleet-traced");
  Touch(dir / "traced" / "outputs" / "profiler" / "node-1_77.1795472592633.pt.trace.json",
        LegacyTrace(6, wait));
  Touch(dir / "traced" / "system_logs" / "data_capability" / "rslex.log.2026-11-28-20",
        ReadLog(read_ms));
  Touch(dir / "plain" / "system_logs" / "data_capability" / "rslex.log.2026-11-28-20",
        ReadLog(read_ms));
  Outcome o = RunPostmortemCommand(FleetOf(dir.string()));
  REQUIRE(o.has_report);
  const FleetSummary& f = FleetOf(o.report);
  REQUIRE(f.jobs.size() == 2);
  const FleetJob* traced = Row(f, "traced");
  const FleetJob* plain = Row(f, "plain");
  REQUIRE(traced);
  REQUIRE(plain);
  CAPTURE(wait, read_ms);
  CHECK(traced->loader_wait_fraction == Approx(wait).margin(0.01));
  const std::string expected = wait < 0.2      ? "not_input"
                               : read_ms >= 50 ? "storage"
                                               : "input_pipeline";
  CHECK(traced->data_wait_cause == expected);
  CHECK(plain->loader_wait_fraction < 0);
  CHECK(plain->data_wait_cause.empty());
  // The column, with each job's figure and why; "-" for the job without traces.
  const ReportTable* jobs = JobsTableOf(o.report);
  REQUIRE(jobs);
  REQUIRE(HasColumn(*jobs, "loader_wait_fraction"));
  const std::string cell = FleetDataWaitText(*traced);
  CHECK(cell == fmt::format("{:.0f}% ({})", 100 * wait,
                            expected == "not_input" ? "not input"
                            : expected == "storage" ? "storage"
                                                    : "input pipeline"));
  CHECK(FleetDataWaitText(*plain) == "-");
  CHECK(Render(o.report, "term", 200, true).find(cell) != std::string::npos);
  // JSON: the traced job's share and cause, read back whole.
  nlohmann::json j = nlohmann::json::parse(Render(o.report, "json"));
  for (const auto& job : j["fleet"]["jobs"]) {
    if (job["job"] == "traced") {
      CHECK(job["loader_wait_fraction"].get<double>() == Approx(traced->loader_wait_fraction));
      CHECK(job["data_wait_cause"] == expected);
    } else {
      CHECK_FALSE(job.contains("loader_wait_fraction"));
    }
  }
  Report back;
  DiagnosticList d;
  REQUIRE(ReportFromJson(j, "fleet.json", &back, &d));
  RestoreSections(&back);
  CHECK(Row(FleetOf(back), "traced")->loader_wait_fraction == Approx(traced->loader_wait_fraction));
  CHECK(Render(back, "md") == Render(o.report, "md"));
}
