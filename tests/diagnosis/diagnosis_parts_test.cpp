// The post-mortem's parts, each on its own: the GPU ledger, the phase split (refusals, the
// mount's cache), what a 503 says, the az interval form, Azure ML's GPU metric, the straggler,
// the supply model's estimate, and the decision logic over rules given as text (fakes of
// facts, not of the rules engine).
#include <catch2/catch.hpp>
#include <cmath>

#include "analyzers/azure_monitor_metrics.h"
#include "analyzers/gpu_idle_ledger.h"
#include "analyzers/gpu_phases.h"
#include "analyzers/throttle_kind.h"
#include "analyzers/timestamp.h"
#include "core/supply_model.h"
#include "diagnosis/cluster_nodes.h"
#include "diagnosis/evidence_sources.h"
#include "diagnosis/postmortem_diagnosis.h"

using namespace feedcheck;
using namespace feedcheck::analyzers;

namespace {

double NumberFactOr(const FactSet& facts, const std::string& key, double fallback = -1) {
  const Fact* f = facts.Find(key);
  return f && f->is_number() ? f->number() : fallback;
}

Fact Observed(const std::string& key, double v, Unit unit) {
  return NumberFact(key, v, unit, {FactOrigin::kObserved, "test", "test.log", 1});
}

}  // namespace

TEST_CASE("metric intervals: ISO 8601 from REST, H:MM:SS from az", "[diagnosis][intervals]") {
  CHECK(ParseMetricInterval("PT1M") == 60);
  CHECK(ParseMetricInterval("PT5M") == 300);
  CHECK(ParseMetricInterval("0:01:00") == 60);
  CHECK(ParseMetricInterval("0:05:00") == 300);
  CHECK(ParseMetricInterval("1:00:00") == 3600);
  CHECK(ParseMetricInterval("1 day, 0:00:00") == 86400);
  CHECK(ParseMetricInterval("2 days, 12:00:00") == 2.5 * 86400);
  CHECK_FALSE(ParseMetricInterval("5:00").has_value());
  CHECK_FALSE(ParseMetricInterval("0:65:00").has_value());
  CHECK_FALSE(ParseMetricInterval("1 week, 0:00:00").has_value());
  CHECK_FALSE(ParseMetricInterval("").has_value());
}

TEST_CASE("an az response at 0:05:00 converts each bucket over five minutes",
          "[diagnosis][intervals]") {
  // 37.5 GB in a 5-minute bucket is 1 Gbit/s; read as a minute it would be 5.
  std::string doc =
      R"({"interval": "0:05:00", "namespace": "Microsoft.Storage/storageAccounts/blobServices",
    "resourceregion": "westeurope", "value": [{"name": {"localizedValue": "Egress", "value": "Egress"},
    "unit": "Bytes", "errorCode": "Success", "timeseries": [{"metadatavalues": [], "data": [
    {"average": null, "count": null, "maximum": null, "minimum": null,
     "timeStamp": "2025-01-01T10:00:00+00:00", "total": 37500000000.0}]}]}]})";
  StorageMetrics metrics;
  DiagnosticList diags;
  REQUIRE(ParseAzureMonitorJson(doc, "az.json", &metrics, &diags));
  Evidence ev;
  std::vector<std::string> keys;
  metrics.Finish(&ev, &keys);
  CHECK(NumberFactOr(ev.facts, "metrics.egress_gbps_peak") == Approx(1.0));
  const Fact* region = ev.facts.Find("metrics.region");
  REQUIRE(region != nullptr);
  CHECK(region->text() == "westeurope");
  CHECK(diags.total() == 0);
}

TEST_CASE("Azure ML's GpuUtilization metric: one point per node, device and interval",
          "[diagnosis][gpu]") {
  std::string doc =
      R"({"interval": "PT5M", "namespace": "Microsoft.MachineLearningServices/workspaces",
    "value": [{"name": {"value": "GpuUtilization"}, "unit": "Count", "timeseries": [
     {"metadatavalues": [{"name": {"value": "nodeid"}, "value": "tvmps_1_d"},
                         {"name": {"value": "deviceid"}, "value": "3"}],
      "data": [{"timeStamp": "2025-01-01T10:00:00Z", "average": 2.5},
               {"timeStamp": "2025-01-01T10:05:00Z"},
               {"timeStamp": "2025-01-01T10:10:00Z", "average": 91}]}]}]})";
  StorageMetrics metrics;
  DiagnosticList diags;
  std::vector<GpuMetricPoint> points;
  REQUIRE(ParseAzureMonitorJson(doc, "gpu.json", &metrics, &diags, nullptr, &points));
  REQUIRE(points.size() == 2);  // the bucket without an average is no data, not 0%
  CHECK(points[0].node == "tvmps_1_d");
  CHECK(points[0].device == "3");
  CHECK(points[0].util_percent == 2.5);
  CHECK(points[0].interval_s == 300);
  CHECK(metrics.empty());  // not a storage metric
}

TEST_CASE("what a refused request says decides the limit it hit", "[diagnosis][throttling]") {
  CHECK(ClassifyStorageError(503, "Status: 503 Egress is over the account limit.", "ServerBusy") ==
        ThrottleKind::kEgress);
  CHECK(ClassifyStorageError(503, "Ingress is over the account limit.", "ServerBusy") ==
        ThrottleKind::kIngress);
  CHECK(ClassifyStorageError(503, "Operations per second is over the account limit.",
                             "ServerBusy") == ThrottleKind::kRequests);
  CHECK(ClassifyStorageError(503, "The server is busy.", "ServerBusy") ==
        ThrottleKind::kServerBusy);
  CHECK(ClassifyStorageError(503, "Service Unavailable", "") == ThrottleKind::kServerBusy);
  CHECK(ClassifyStorageError(500, "Operation could not be completed within the specified time.",
                             "OperationTimedOut") == ThrottleKind::kTimeout);
  CHECK(ClassifyStorageError(403, "Forbidden", "AuthorizationFailure") ==
        ThrottleKind::kNotThrottled);
  CHECK(ClassifyStorageError(500, "Internal error", "InternalError") ==
        ThrottleKind::kNotThrottled);
}

TEST_CASE("GPU time lost: each sample covers its interval, holes are not counted",
          "[diagnosis][gpu]") {
  GpuIdleLedger ledger(10);
  // Two GPUs on one node sampled every 10 s for 100 s: gpu0 starved for the first 50 s.
  for (int i = 0; i < 10; ++i) {
    ledger.Add("n0/gpu0", "n0", 1000 + i * 10, i < 5 ? 0 : 90);
    ledger.Add("n0/gpu1", "n0", 1000 + i * 10, 95);
  }
  // A second node's GPU, then a 10-minute hole in its sampling: the sample before the hole
  // covers one interval, not ten minutes.
  ledger.Add("n1/gpu0", "n1", 1000, 5);
  ledger.Add("n1/gpu0", "n1", 1010, 5);
  ledger.Add("n1/gpu0", "n1", 1620, 80);
  Evidence ev;
  ledger.Finish(&ev, {FactOrigin::kObserved, "samples", "gpu.csv", 0});
  CHECK(NumberFactOr(ev.facts, "gpu.lost_gpu_s") == Approx(50 + 20));
  CHECK(NumberFactOr(ev.facts, "gpu.sampled_gpu_s") == Approx(100 + 100 + 30));
  CHECK(NumberFactOr(ev.facts, "gpu.sample_interval_s") == Approx(10));
  CHECK(NumberFactOr(ev.facts, "gpu.node_lost_gpu_s.n1") == Approx(20));
  CHECK(NumberFactOr(ev.facts, "gpu.node_util_mean.n0") == Approx((5 * 90 + 10 * 95) / 20.0));
  CHECK(NumberFactOr(ev.facts, "gpu.unsampled_s") > 0);
  // A metric point covers its whole bucket, whatever comes next.
  GpuIdleLedger metric(10);
  metric.Add("gpu0", "", 0, 3, 300);
  metric.Add("gpu0", "", 300, 50, 300);
  Evidence mev;
  metric.Finish(&mev, {});
  CHECK(NumberFactOr(mev.facts, "gpu.lost_gpu_s") == Approx(300));
  CHECK(NumberFactOr(mev.facts, "gpu.idle_fraction") == Approx(0.5));
}

TEST_CASE("a GPU stretch spanning decades keeps its totals in a bounded series",
          "[diagnosis][gpu]") {
  // A metric point that claims thirty years (a stray timestamp): its time is counted, and the
  // series stays within the bucket cap (the buckets widen to hold it in one go).
  GpuIdleLedger ledger(10);
  const double thirty_years_s = 30 * 365.25 * 86400;
  ledger.Add("gpu0", "", 1.7e9, 2, thirty_years_s);
  ledger.Add("gpu0", "", 1.7e9 + thirty_years_s, 90, 60);
  Evidence ev;
  ledger.Finish(&ev, {});
  CHECK(NumberFactOr(ev.facts, "gpu.lost_gpu_s") == Approx(thirty_years_s));
  CHECK(NumberFactOr(ev.facts, "gpu.sampled_gpu_s") == Approx(thirty_years_s + 60));
  const Series* by_time = ev.FindSeries("gpu.lost_gpu_s_by_time");
  REQUIRE(by_time != nullptr);
  CHECK(by_time->points.size() <= 50000);
  double summed = 0;
  for (const SeriesPoint& point : by_time->points) summed += point.y;
  CHECK(summed == Approx(thirty_years_s));
}

TEST_CASE("GPU time lost split by what the data runtime was doing", "[diagnosis][gpu]") {
  GpuIdleLedger ledger(10);
  // 2 GPUs, 10 s samples from t=0 to t=600: starved until t=300 and again 500..600.
  for (int t = 0; t < 600; t += 10)
    for (const char* g : {"gpu0", "gpu1"}) ledger.Add(g, "", t, t < 300 || t >= 500 ? 1 : 90);
  Evidence ev;
  ledger.Finish(&ev, {});
  ev.facts.Set(Observed("gpu.count", 2, Unit::kCount));
  // Setup until 60, download 60..300, then the job's own code.
  ev.timeline.push_back({"data-runtime", "download", 60, 300, "Success", "dc.log:5"});
  auto split = SplitGpuTimeByPhase(ev);
  REQUIRE(split);
  CHECK(split->have_phases);
  CHECK(split->unknown_gpu_s == Approx(2 * 60));
  CHECK(split->download_gpu_s == Approx(2 * 240));
  CHECK(split->after_data_gpu_s == Approx(2 * 100));
  CHECK(split->mount_gpu_s == 0);
  AddGpuPhaseFacts(&ev);
  CHECK(NumberFactOr(ev.facts, "gpu.idle_download_s") == Approx(240));
  // Without data-runtime activities every lost second is of unknown phase.
  Evidence bare;
  bare.series = ev.series;
  auto unknown = SplitGpuTimeByPhase(bare);
  REQUIRE(unknown);
  CHECK_FALSE(unknown->have_phases);
  CHECK(unknown->unknown_gpu_s == Approx(2 * 400));
}

TEST_CASE("the straggler: a download well longer than the others', else idle GPUs",
          "[diagnosis][nodes]") {
  std::vector<NodeRow> rows(4);
  for (int i = 0; i < 4; ++i) {
    rows[i].node = "node-" + std::to_string(i);
    rows[i].download_s = 540 + i * 10;
  }
  CHECK(diagnosis::MarkStraggler(&rows).empty());  // 540..570 s: nobody stands out
  rows[2].download_s = 1470;
  std::string why = diagnosis::MarkStraggler(&rows);
  CHECK(why.rfind("node-2:", 0) == 0);
  CHECK(rows[2].straggler);
  std::vector<NodeRow> gpu_only(3);
  for (int i = 0; i < 3; ++i) {
    gpu_only[i].node = "n" + std::to_string(i);
    gpu_only[i].gpu_util_mean = i == 1 ? 35 : 90;
  }
  CHECK(diagnosis::MarkStraggler(&gpu_only).rfind("n1:", 0) == 0);
}

TEST_CASE("what the fix buys: the data phase sped up, the idle share that leaves",
          "[diagnosis][estimate]") {
  CHECK(AccountsForFullRate(12, 24, 200) == 2);
  CHECK(AccountsForFullRate(8, 25, 200) == 1);
  CHECK(AccountsForFullRate(3, 0, 50) == 2);
  CHECK(AggregateWithAccounts(12, 24, 200, 2) == 288);
  CHECK(AggregateWithAccounts(2, 0, 200, 2) == 400);
  // 8 GPUs, 60 min sampled (28,800 GPU-s), 13.5 min download all lost (6,480 GPU-s, 22.5%):
  // twice as fast, the download takes 6.75 min and the GPUs idle 3,240 / 25,560.
  IdleAfterSpeedup twice = PredictIdleAfterSpeedup(6480, 28800, 6480, 810, 8, 2);
  CHECK(twice.phase_s == Approx(405));
  CHECK(twice.idle_fraction == Approx(3240.0 / 25560.0));
  IdleAfterSpeedup gone =
      PredictIdleAfterSpeedup(6480, 28800, 6480, 810, 8, std::numeric_limits<double>::infinity());
  CHECK(gone.phase_s == 0);
  CHECK(gone.idle_fraction == 0);
}

namespace {

// Rules as text: the decision logic over findings, with the real rules engine.
rules::RuleSet Rules(const std::string& text) {
  rules::RuleSet set;
  DiagnosticList d;
  REQUIRE(set.LoadText("test.yaml", text, &d));
  return set;
}

const char* kRules = R"(
- id: paper-egress
  severity: warning
  class: account_egress
  basis: capacity
  title: More nodes than the account feeds
  when: node.count * node.nic_gbps > account.egress_gbps
  say: on paper
  source: test
- id: seen-threads
  severity: warning
  class: client_threads
  basis: observed
  title: Few threads
  when: num(runtime.setting.RSLEX_DOWNLOADER_THREADS) < 32
  say: raise threads
  env:
    RSLEX_DOWNLOADER_THREADS: "384"
  source: test
- id: seen-egress
  severity: critical
  class: account_egress
  basis: observed
  title: Egress throttled
  when: runtime.throttled.egress > 0
  say: egress throttled
  source: test
)";

diagnosis::Postmortem Diagnose(FactSet facts) {
  diagnosis::Postmortem r;
  r.evidence.facts = std::move(facts);
  diagnosis::DiagnosePostmortem(Rules(kRules), {}, &r);
  return r;
}

const Finding* FindingOf(const diagnosis::Postmortem& r, const std::string& id) {
  for (const auto& f : r.findings)
    if (f.rule_id == id) return &f;
  return nullptr;
}

FactSet Base(double idle_fraction) {
  FactSet f;
  f.Set(NumberFact("node.count", 12, Unit::kCount, {FactOrigin::kDeclared, "--nodes", "", 0}));
  f.Set(NumberFact("node.nic_gbps", 24, Unit::kGbps, {FactOrigin::kKnowledge, "kb", "", 0}));
  f.Set(NumberFact("account.egress_gbps", 200, Unit::kGbps, {FactOrigin::kKnowledge, "kb", "", 0}));
  f.Set(Observed("gpu.count", 8, Unit::kCount));
  f.Set(Observed("gpu.lost_gpu_s", 28800 * idle_fraction, Unit::kSeconds));
  f.Set(Observed("gpu.sampled_gpu_s", 28800, Unit::kSeconds));
  f.Set(Observed("gpu.idle_fraction", idle_fraction, Unit::kFraction));
  f.Set(Observed("gpu.idle_s", 3600 * idle_fraction, Unit::kSeconds));
  f.Set(Observed("gpu.span_s", 3600, Unit::kSeconds));
  return f;
}

}  // namespace

TEST_CASE("busy GPUs: none found, and a capacity finding contradicted by the metrics is secondary",
          "[diagnosis][verdict]") {
  FactSet f = Base(0.04);
  f.Set(Observed("metrics.egress_gbps_peak", 14, Unit::kGbps));
  f.Set(Observed("metrics.throttled_total", 0, Unit::kCount));
  diagnosis::Postmortem r = Diagnose(f);
  CHECK(r.diagnosis.cause == "none found");
  CHECK(r.diagnosis.confidence == "confirmed");  // GPU samples + account metrics
  CHECK(r.verdict_level == VerdictLevel::kGood);
  const Finding* paper = FindingOf(r, "paper-egress");
  REQUIRE(paper);
  CHECK(paper->secondary);
  CHECK(paper->secondary_note.find("would have limited a larger run") != std::string::npos);
}

TEST_CASE("idle GPUs with only a capacity finding: inconclusive, naming the metrics",
          "[diagnosis][verdict]") {
  diagnosis::Postmortem r = Diagnose(Base(0.3));
  CHECK(r.diagnosis.cause == "account egress");
  CHECK(r.diagnosis.confidence == "inconclusive");
  CHECK(r.diagnosis.settle_with.find("az monitor metrics list") != std::string::npos);
}

TEST_CASE("no GPU samples and no finding: inconclusive, naming the GPU metric",
          "[diagnosis][verdict]") {
  FactSet f;
  f.Set(TextFact("runtime.mode", "download", {FactOrigin::kObserved, "dc", "dc.log", 3}));
  diagnosis::Postmortem r = Diagnose(f);
  CHECK(r.verdict == "inconclusive");
  CHECK(r.diagnosis.settle_with.find("GpuUtilization") != std::string::npos);
  // The observed mode reaches the rules as workload.mode.
  const Fact* mode = r.evidence.facts.Find("workload.mode");
  REQUIRE(mode);
  CHECK(mode->text() == "download");
}

TEST_CASE("an observed account limit decides; advice for more threads becomes secondary",
          "[diagnosis][verdict]") {
  FactSet f = Base(0.25);
  f.Set(Observed("runtime.throttled.egress", 300, Unit::kCount));
  f.Set(TextFact("runtime.setting.RSLEX_DOWNLOADER_THREADS", "16",
                 {FactOrigin::kObserved, "rslex", "rslex.log", 2}));
  diagnosis::Postmortem r = Diagnose(f);
  CHECK(r.diagnosis.cause == "account egress");
  CHECK(r.diagnosis.confidence == "likely");  // the log alone
  CHECK(r.findings.front().rule_id == "seen-egress");
  const Finding* threads = FindingOf(r, "seen-threads");
  REQUIRE(threads);
  CHECK(threads->secondary);
  CHECK(threads->secondary_note.rfind("after the account limit is lifted", 0) == 0);
  for (const auto& e : r.env) CHECK(e.name != "RSLEX_DOWNLOADER_THREADS");
  CHECK(r.diagnosis.attributed_gpu_s == Approx(28800 * 0.25));
  // With the account's metric at the limit too, two sources agree.
  f.Set(Observed("metrics.egress_gbps_peak", 199, Unit::kGbps));
  rules::RuleSet more = Rules(std::string(kRules) + R"(
- id: seen-egress-metric
  severity: warning
  class: account_egress
  basis: observed
  title: Egress at its limit
  when: metrics.egress_gbps_peak >= 0.9 * account.egress_gbps
  say: at limit
  source: test
)");
  diagnosis::Postmortem both;
  both.evidence.facts = f;
  diagnosis::DiagnosePostmortem(more, {}, &both);
  CHECK(both.verdict == "account egress, confirmed");
}

TEST_CASE("a bare 'server is busy' without metrics: throttled, limit unknown",
          "[diagnosis][verdict]") {
  FactSet f = Base(0.3);
  f.Set(Observed("runtime.throttled.server_busy", 40, Unit::kCount));
  f.Set(TextFact("runtime.setting.RSLEX_DOWNLOADER_THREADS", "16",
                 {FactOrigin::kObserved, "rslex", "rslex.log", 2}));
  diagnosis::Postmortem r = Diagnose(f);
  CHECK(r.diagnosis.cause == "throttled, limit unknown");
  CHECK(r.diagnosis.confidence == "inconclusive");
  CHECK(r.diagnosis.settle_with.find("az monitor metrics list") != std::string::npos);
}

TEST_CASE("a rule's class and basis are checked when it is read", "[diagnosis][rules]") {
  rules::RuleSet set;
  DiagnosticList d;
  CHECK_FALSE(set.LoadText("mine.yaml", R"(
- id: mine
  severity: warning
  class: network
  basis: guessed
  title: t
  when: node.count > 1
  say: s
  source: s
)",
                           &d));
  std::string all;
  for (const auto& diag : d.kept()) all += FormatDiagnostic(diag) + "\n";
  CHECK(all.find("mine.yaml:4:10: error[R206]: class 'network' is not one of") !=
        std::string::npos);
  CHECK(all.find("error[R207]: basis 'guessed' is not one of observed, capacity") !=
        std::string::npos);
  // Display names are accepted too, in any case; absent means none / observed.
  rules::RuleSet ok;
  DiagnosticList none;
  REQUIRE(ok.LoadText("ok.yaml", R"(
- id: mine
  severity: warning
  class: Client Threads/CPU
  title: t
  when: node.count > 1
  say: s
  source: s
)",
                      &none));
  CHECK(ok.Find("mine")->bottleneck == Bottleneck::kClientThreads);
  CHECK(ok.Find("mine")->basis == FindingBasis::kObserved);
}

TEST_CASE("a mount's lost time split: refused requests, the cache, storage serving",
          "[diagnosis][gpu]") {
  GpuIdleLedger ledger(10);
  // One GPU, 10 s samples over 0..1200, idle 200..300, 600..700 and 1000..1100.
  for (int t = 0; t < 1200; t += 10)
    ledger.Add("gpu0", "", t,
               (t >= 200 && t < 300) || (t >= 600 && t < 700) || (t >= 1000 && t < 1100) ? 1 : 90);
  Evidence ev;
  ledger.Finish(&ev, {});
  ev.facts.Set(Observed("gpu.count", 1, Unit::kCount));
  ev.timeline.push_back({"data-runtime", "mount", 0, 2, "Success", "dc.log:3"});
  // Refused 230..260 (padded by a minute each side); the account idle from 900 on.
  ev.timeline.push_back({"storage", "503 egress over the account limit", 230, 260, "rslex", ""});
  Series egress{"metrics.egress_gbps", "", "time", Unit::kSeconds, "", Unit::kGbps, {}};
  for (int t = 0; t < 1200; t += 60) egress.points.push_back({double(t), t < 900 ? 12.0 : 0.001});
  ev.series.push_back(egress);
  auto split = SplitGpuTimeByPhase(ev);
  REQUIRE(split);
  CHECK(split->have_throttle_times);
  CHECK(split->throttled_gpu_s == Approx(100));  // 200..300, inside 170..320
  CHECK(split->mount_gpu_s == Approx(200));      // that and 600..700
  CHECK(split->cached_gpu_s == Approx(100));     // 1000..1100: the account served nothing
  AddGpuPhaseFacts(&ev);
  CHECK(NumberFactOr(ev.facts, "gpu.lost_throttled_gpu_s") == Approx(100));
  CHECK(NumberFactOr(ev.facts, "gpu.lost_cached_gpu_s") == Approx(100));
}

TEST_CASE("phases: a cached minute is measured against the most the account served below its limit",
          "[diagnosis]") {
  // The job's reads peak at 12 Gbit/s and later re-read at 2.4; another workload fills the
  // account's 200 Gbit/s for a while. 2% of 200 would call the re-reads the cache's; 2% of
  // the most below the limit (12) does not. With no limit known every minute counts; with
  // nothing below the limit, the peak.
  Series egress{"metrics.egress_gbps", "", "time", Unit::kSeconds, "", Unit::kGbps, {}};
  for (int i = 0; i < 30; ++i)
    egress.points.push_back({60.0 * i, i < 5 ? 12.0 : i >= 10 && i < 15 ? 200.0 : 2.4});
  CHECK(CachedEgressBelowGbps(&egress, 200) == Approx(0.02 * 12));
  CHECK(CachedEgressBelowGbps(&egress, 0) == Approx(0.02 * 200));
  Series full = egress;
  for (auto& p : full.points) p.y = 199;
  CHECK(CachedEgressBelowGbps(&full, 200) == Approx(0.02 * 199));
  CHECK(CachedEgressBelowGbps(nullptr, 200) == Approx(0.01));  // 10 Mbit/s at least
}

namespace {

const char* kThrottleRules = R"(
- id: seen-egress
  severity: critical
  class: account_egress
  basis: observed
  title: Egress throttled
  when: runtime.throttled.egress > 0
  say: egress throttled
  source: test
- id: seen-denied
  severity: critical
  class: access_failure
  basis: observed
  title: Storage refused the credentials
  when: runtime.stream_error == "ScriptExecution.StreamAccess.Authentication"
  evidence: [runtime.stream_error]
  say: credentials
  source: test
)";

diagnosis::Postmortem DiagnoseMount(double lost_s, double mount_s, double throttled_s,
                                    bool denied) {
  FactSet f = Base(lost_s / 28800);
  f.Set(Observed("runtime.throttled.egress", 140, Unit::kCount));
  f.Set(Observed("gpu.lost_download_gpu_s", 0, Unit::kSeconds));
  f.Set(Observed("gpu.lost_mount_gpu_s", mount_s, Unit::kSeconds));
  f.Set(Observed("gpu.lost_after_data_gpu_s", 0, Unit::kSeconds));
  f.Set(Observed("gpu.lost_throttled_gpu_s", throttled_s, Unit::kSeconds));
  if (denied)
    f.Set(TextFact("runtime.stream_error", "ScriptExecution.StreamAccess.Authentication",
                   {FactOrigin::kObserved, "rslex", "rslex.log", 9}));
  diagnosis::Postmortem r;
  r.evidence.facts = std::move(f);
  diagnosis::DiagnosePostmortem(Rules(kThrottleRules), {}, &r);
  return r;
}

}  // namespace

TEST_CASE("a short throttling burst in a mount is charged only its own idle time",
          "[diagnosis][verdict]") {
  // 4000 GPU-s lost during the mount (14%), 800 of them while requests were refused (2.8%).
  diagnosis::Postmortem brief = DiagnoseMount(4000, 4000, 800, false);
  CHECK(brief.diagnosis.cause == "none found");
  const Finding* egress = FindingOf(brief, "seen-egress");
  REQUIRE(egress);
  CHECK(egress->secondary);
  CHECK(egress->impact_gpu_s == Approx(800));
  CHECK(egress->secondary_note.find("too little to have held the job back") != std::string::npos);
  // Refusals over most of the mount's idle time are its condition: all of it is charged.
  diagnosis::Postmortem pervasive = DiagnoseMount(4000, 4000, 3000, false);
  CHECK(pervasive.diagnosis.cause == "account egress");
  CHECK(pervasive.diagnosis.attributed_gpu_s == Approx(4000));
}

TEST_CASE("storage refusing the job names the failure, even with the GPUs busy before it",
          "[diagnosis][verdict]") {
  // 5% idle, but the runtime stopped on a 403: the job failed on access.
  diagnosis::Postmortem r = DiagnoseMount(1440, 1440, 0, true);
  CHECK(r.diagnosis.cause == "storage access failed");
  CHECK(r.diagnosis.confidence == "likely");  // the data runtime's logs alone
  CHECK(r.verdict_level == VerdictLevel::kBad);
  CHECK(r.diagnosis.attributed_gpu_s == Approx(1440));
  REQUIRE_FALSE(r.findings.empty());
  CHECK(r.findings[0].rule_id == "seen-denied");
}

TEST_CASE("node rows: logs named by node id, GPU files by rank, paired not doubled",
          "[diagnosis][nodes]") {
  FactSet f;
  for (const char* n : {"node-0", "node-1"}) {
    f.Set(Observed(std::string("gpu.node_util_mean.") + n, n[5] == '0' ? 80 : 60, Unit::kPercent));
    f.Set(Observed(std::string("gpu.node_lost_gpu_s.") + n, 100, Unit::kSeconds));
  }
  std::vector<NodeRow> rows(2);
  rows[0].node = "tvmps_b2_d";  // out of order: paired by sorted name
  rows[1].node = "tvmps_a1_d";
  diagnosis::AddGpuNodeRows(f, &rows);
  REQUIRE(rows.size() == 2);
  CHECK(rows[1].node == "tvmps_a1_d ~ node-0");
  CHECK(rows[1].gpu_util_mean == 80);
  CHECK(rows[0].node == "tvmps_b2_d ~ node-1");
  CHECK(rows[0].gpu_util_mean == 60);
  // A name that matches joins its row; the others get rows of their own.
  std::vector<NodeRow> named(1);
  named[0].node = "node-1";
  diagnosis::AddGpuNodeRows(f, &named);
  REQUIRE(named.size() == 2);
  CHECK(named[0].gpu_util_mean == 60);
  CHECK(named[1].node == "node-0");
}

TEST_CASE("sources: the job's definition is a source, a flag or a profile is not",
          "[diagnosis][sources]") {
  using diagnosis::SourceKind;
  using diagnosis::SourcesOf;
  auto at = [](FactOrigin origin, const std::string& file) {
    Provenance p;
    p.origin = origin;
    p.file = file;
    return p;
  };
  // A setting from job.yml / job.json: the job's own record of what it ran with.
  for (const char* file : {"jobs/a/job.yml", "job.yaml", "/x/job.json"}) {
    INFO(file);
    auto s = SourcesOf(
        TextFact("runtime.setting.RSLEX_DOWNLOADER_THREADS", "8", at(FactOrigin::kDeclared, file)));
    CHECK(s == std::set<SourceKind>{SourceKind::kJobDefinition});
  }
  // What is derived from it rests on it too (the mount cache's size from its setting).
  CHECK(SourcesOf(NumberFact("runtime.mount_cache_bytes", 2e10, Unit::kBytes,
                             at(FactOrigin::kDerived, "job/job.yml"))) ==
        std::set<SourceKind>{SourceKind::kJobDefinition});
  // The runtime's own line: the data-runtime logs.
  CHECK(SourcesOf(TextFact("runtime.setting.AZUREML_DATASET_HTTP_RETRY_COUNT", "10",
                           at(FactOrigin::kObserved, "rslex.log.2024-05-01-09"))) ==
        std::set<SourceKind>{SourceKind::kDataRuntimeLog});
  // Declared elsewhere (a profile, a flag, a lint job file named otherwise): no source.
  CHECK(SourcesOf(TextFact("runtime.setting.RSLEX_DOWNLOADER_THREADS", "8",
                           at(FactOrigin::kDeclared, "train.yml")))
            .empty());
  CHECK(SourcesOf(NumberFact("node.count", 2, Unit::kCount, at(FactOrigin::kDeclared, "job.yml")))
            .empty());
  CHECK(diagnosis::SourceKindName(SourceKind::kJobDefinition) == "the job's definition");
}

TEST_CASE("the mount cache's room: its cap, else the local disk it fills", "[diagnosis][cache]") {
  auto with_setting = [](const char* setting) {
    FactSet facts;
    facts.Set(NumberFact("node.local_disk_bytes", 64e9, Unit::kBytes,
                         {FactOrigin::kKnowledge, "vm sizes", "data/vm_sizes.yaml", 9}));
    if (setting)
      facts.Set(TextFact("runtime.setting.DATASET_MOUNT_CACHE_SIZE", setting,
                         {FactOrigin::kDeclared, "job", "job.yml", 12}));
    diagnosis::AddObservedWorkloadFacts(&facts);
    return facts;
  };
  // Unset ("Unlimited"): the disk, less the 150 MB the data runtime never uses.
  FactSet unset = with_setting(nullptr);
  CHECK(NumberFactOr(unset, "runtime.mount_cache_room_bytes") == Approx(64e9 - 150e6));
  CHECK(unset.Find("runtime.mount_cache_bytes") == nullptr);
  CHECK(unset.Find("runtime.mount_cache_room_bytes")->provenance.source.find("local disk") !=
        std::string::npos);
  // Negative: that much of the disk kept free.
  FactSet negative = with_setting("-10GB");
  CHECK(NumberFactOr(negative, "runtime.mount_cache_room_bytes") == Approx(54e9 - 150e6));
  CHECK(negative.Find("runtime.mount_cache_bytes") == nullptr);
  // Positive: the cap itself; the disk's room is not the cache's then.
  FactSet capped = with_setting("20GB");
  CHECK(NumberFactOr(capped, "runtime.mount_cache_bytes") == Approx(20e9));
  CHECK(capped.Find("runtime.mount_cache_room_bytes") == nullptr);
  // More kept free than the disk has: no room at all, and no figure.
  CHECK(with_setting("-100GB").Find("runtime.mount_cache_room_bytes") == nullptr);
  // A value that is no size sets nothing: neither a cap nor space kept free.
  for (const char* garbage : {"--10GB", "-", "-x", "-+-1GB"}) {
    INFO(garbage);
    FactSet f = with_setting(garbage);
    CHECK(f.Find("runtime.mount_cache_bytes") == nullptr);
    CHECK(NumberFactOr(f, "runtime.mount_cache_room_bytes") == Approx(64e9 - 150e6));
  }
}
