#include "tests/reports/sample_report.h"

#include <cmath>

namespace feedcheck::testing {

namespace {

constexpr double kStart = 1763780400;  // 2025-11-22T03:00:00Z

Provenance Measured(std::string source) { return {FactOrigin::kMeasured, std::move(source)}; }
Provenance Observed(std::string file, int line) {
  return {FactOrigin::kObserved, "", std::move(file), line};
}
Provenance Knowledge(std::string row) {
  return {FactOrigin::kKnowledge, "knowledge base: " + std::move(row)};
}

Series MakeSeries(std::string key, std::string title, std::string x_label, Unit x_unit,
                  std::string y_label, Unit y_unit) {
  Series s;
  s.key = std::move(key);
  s.title = std::move(title);
  s.x_label = std::move(x_label);
  s.x_unit = x_unit;
  s.y_label = std::move(y_label);
  s.y_unit = y_unit;
  return s;
}

void AddFacts(FactSet& f) {
  f.Set(TextFact("node.sku", "Standard_ND96asr_v4", Knowledge("vm_sizes.yaml:12")));
  f.Set(NumberFact("node.count", 8, Unit::kCount, {FactOrigin::kDeclared, "--nodes"}));
  f.Set(NumberFact("node.nic_gbps", 100, Unit::kGbps, Knowledge("vm_sizes.yaml:12")));
  f.Set(NumberFact("account.egress_gbps", 120, Unit::kGbps,
                   Knowledge("storage_targets.yaml:8 standard_gpv2_legacy_120")));
  f.Set(NumberFact("probe.throughput.gbps", 9.4, Unit::kGbps,
                   Measured("probe throughput (concurrency=32, block=4MiB)")));
  f.Set(NumberFact("probe.throughput.best_concurrency", 32, Unit::kCount,
                   Measured("probe throughput")));
  f.Set(NumberFact("probe.latency.ttfb_p50_ms", 21.3, Unit::kMilliseconds,
                   Measured("probe latency (requests=400)")));
  f.Set(NumberFact("probe.latency.ttfb_p99_ms", 48.7, Unit::kMilliseconds,
                   Measured("probe latency (requests=400)")));
  f.Set(NumberFact("probe.smallfile.overhead_ms", 12.1, Unit::kMilliseconds,
                   Measured("probe smallfiles")));
  f.Set(NumberFact("dataset.files", 1250000, Unit::kCount, {FactOrigin::kDeclared, "profile"}));
  f.Set(NumberFact("dataset.median_file_bytes", 110 * 1024, Unit::kBytes,
                   {FactOrigin::kDeclared, "profile"}));
  f.Set(TextFact("runtime.mode", "ro_mount", Observed("data-capability.log", 3)));
  f.Set(NumberFact("metrics.egress_gbps_peak", 119.6, Unit::kGbps, Observed("metrics.json", 0)));
  f.Set(NumberFact("gpu.util_mean", 61.5, Unit::kPercent, Observed("gpu.csv", 0)));
  f.Set(NumberFact("gpu.starved_fraction", 0.31, Unit::kFraction, Observed("gpu.csv", 0)));
}

void AddSeries(Evidence& e, size_t n) {
  Series tput = MakeSeries("probe.throughput.by_concurrency", "measured", "connections",
                           Unit::kCount, "throughput", Unit::kGbps);
  const double gbps[] = {0.9, 1.7, 3.2, 5.8, 8.9, 9.4, 9.3};
  for (int i = 0; i < 7; ++i) tput.points.push_back({std::pow(2.0, i), gbps[i]});
  e.series.push_back(tput);

  Series ttfb = MakeSeries("probe.latency.ttfb_cdf", "time to first byte", "latency",
                           Unit::kMilliseconds, "fraction of requests", Unit::kFraction);
  Series total = MakeSeries("probe.latency.total_cdf", "whole request", "latency",
                            Unit::kMilliseconds, "fraction of requests", Unit::kFraction);
  for (size_t i = 1; i <= n; ++i) {
    double frac = static_cast<double>(i) / static_cast<double>(n);
    double ms = 18 + 4 * -std::log(1 - frac * 0.995);
    ttfb.points.push_back({ms, frac});
    total.points.push_back({ms + 9, frac});
  }
  e.series.push_back(ttfb);
  e.series.push_back(total);

  Series measured = MakeSeries("probe.smallfile.time_by_size", "measured", "object size",
                               Unit::kBytes, "time per request", Unit::kMilliseconds);
  Series fit = MakeSeries("probe.smallfile.fit", "fit: 12.1 ms + size / 1.2 GB/s", "object size",
                          Unit::kBytes, "time per request", Unit::kMilliseconds);
  for (int i = 0; i < 9; ++i) {
    double bytes = 4096 * std::pow(4.0, i);
    measured.points.push_back({bytes, (12.1 + bytes / 1.2e6) * (1 + 0.04 * std::sin(i))});
  }
  for (int i = 0; i <= 32; ++i) {
    double bytes = 4096 * std::pow(4.0, i / 4.0);
    fit.points.push_back({bytes, 12.1 + bytes / 1.2e6});
  }
  e.series.push_back(measured);
  e.series.push_back(fit);

  Series pages = MakeSeries("probe.list.page_ms", "List Blobs page", "page", Unit::kCount,
                            "time per page", Unit::kMilliseconds);
  for (int i = 1; i <= 10; ++i) pages.points.push_back({double(i), 90 + 8 * std::sin(i)});
  e.series.push_back(pages);

  // 30 minutes of GPU samples: busy, then starved while the account is at its egress limit.
  Series util = MakeSeries("gpu.util", "mean over 8 GPUs", "time", Unit::kSeconds, "utilisation",
                           Unit::kPercent);
  std::vector<Series> per_gpu;
  for (int g = 0; g < 2; ++g)
    per_gpu.push_back(MakeSeries("gpu.util.gpu" + std::to_string(g), "", "time", Unit::kSeconds,
                                 "utilisation", Unit::kPercent));
  for (size_t i = 0; i < n; ++i) {
    double t = kStart + 1800.0 * static_cast<double>(i) / static_cast<double>(n - 1);
    double phase = (t - kStart) / 1800.0;
    double u = (phase > 0.35 && phase < 0.65) ? 28 + 6 * std::sin(i) : 93 + 3 * std::sin(i);
    util.points.push_back({t, u});
    for (int g = 0; g < 2; ++g) per_gpu[g].points.push_back({t, std::min(100.0, u + 5 - 9 * g)});
  }
  e.series.push_back(util);
  for (auto& s : per_gpu) e.series.push_back(s);

  Series egress = MakeSeries("metrics.egress_gbps", "account egress", "time", Unit::kSeconds,
                             "egress", Unit::kGbps);
  for (int m = 0; m <= 30; ++m) {
    double phase = m / 30.0;
    egress.points.push_back(
        {kStart + 60.0 * m, (phase > 0.33 && phase < 0.67) ? 119.6 : 70 + 5 * std::sin(m)});
  }
  e.series.push_back(egress);

  Series ramp = MakeSeries("probe.cluster.ramp", "measured", "nodes", Unit::kCount,
                           "aggregate throughput", Unit::kGbps);
  const double agg[] = {23.5, 46.1, 91.0, 117.2, 119.4};
  for (int i = 0; i < 5; ++i) ramp.points.push_back({std::pow(2.0, i), agg[i]});
  Series predicted = MakeSeries("probe.cluster.ramp_predicted", "predicted", "nodes", Unit::kCount,
                                "aggregate throughput", Unit::kGbps);
  for (int nodes = 1; nodes <= 16; ++nodes)
    predicted.points.push_back({double(nodes), std::min(120.0, 24.0 * nodes)});
  e.series.push_back(ramp);
  e.series.push_back(predicted);
}

void AddTimeline(Evidence& e) {
  auto at = [](double minutes) { return kStart + 60 * minutes; };
  e.timeline.push_back(
      {"data-runtime", "mount", at(0), at(1.5), "Success", "data-capability.log:4"});
  e.timeline.push_back(
      {"data-runtime", "download", at(2), at(10), "Success", "data-capability.log:9"});
  e.timeline.push_back(
      {"data-runtime", "download", at(10.5), at(19), "Failure", "data-capability.log:31"});
  e.timeline.push_back(
      {"data-runtime", "download", at(19.5), at(29), "Success", "data-capability.log:40"});
  e.timeline.push_back({"gpu", "starved", at(10.5), at(19.5), "", "gpu.csv:64"});
  e.timeline.push_back({"storage", "ServerBusyError", at(10), at(20), "", "metrics.json"});
}

Finding EgressFinding(const FactSet& f) {
  Finding x;
  x.rule_id = "account-egress-limit";
  x.severity = Severity::kCritical;
  x.title = "The storage account is at its egress limit";
  x.message =
      "Egress peaked at 119.6 Gbit/s against a limit of 120 Gbit/s while the GPUs were "
      "starved. Shard the dataset across 2 accounts or request a higher limit.";
  x.evidence = {*f.Find("metrics.egress_gbps_peak"), *f.Find("account.egress_gbps"),
                *f.Find("gpu.starved_fraction")};
  x.source = "Azure ML docs, \"Access data in a job\", section \"Storage load\"";
  x.rule_file = "rules/builtin/storage.yaml";
  x.rule_line = 14;
  return x;
}

Finding SmallFilesFinding(const FactSet& f) {
  Finding x;
  x.rule_id = "small-files-request-bound";
  x.severity = Severity::kWarning;
  x.title = "Files are small enough that request overhead dominates";
  x.message =
      "Median file is 110 KiB; each costs ~12.1 ms of request overhead. Pack files into "
      "shards of >= 64 MiB (tar / WebDataset).";
  x.evidence = {*f.Find("dataset.median_file_bytes"), *f.Find("dataset.files"),
                *f.Find("probe.smallfile.overhead_ms")};
  x.env = {{"RSLEX_DOWNLOADER_THREADS", "64"}};
  x.source = "Azure ML docs, \"Access data in a job\", section \"Many small files problem\"";
  x.rule_file = "rules/builtin/dataset.yaml";
  x.rule_line = 3;
  return x;
}

Finding ModeFinding(const FactSet& f) {
  Finding x;
  x.rule_id = "mount-block-cache";
  x.severity = Severity::kInfo;
  x.title = "Mounted reads can use the block cache";
  x.message = "The job mounts read-only; enabling the block-based cache keeps hot blocks local.";
  x.evidence = {*f.Find("runtime.mode")};
  x.env = {{"DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED", "true"}};
  x.source =
      "Azure ML docs, \"Access data in a job\", section \"Optimum mount settings for common "
      "scenarios\"";
  return x;
}

}  // namespace

Report MakeSampleReport(size_t points) {
  if (points < 3) points = 3;
  Report r;
  r.context.tool_version = "0.1.0";
  r.context.command = "postmortem";
  r.context.host = "gpu-node-07";
  r.context.started_at_utc = "2025-11-22T03:40:00Z";
  r.context.target = "https://acct.blob.core.windows.net/data?sig=REDACTED";
  r.context.build_type = "optimized";
  r.context.warnings = {"GPU samples cover 30 min of a 6 h job"};
  r.title = "Post-mortem";
  r.verdict = "account egress limit";
  r.verdict_level = VerdictLevel::kBad;
  r.verdict_detail =
      "GPUs were starved 31% of the time while account egress sat at 119.6 of "
      "120 Gbit/s.";
  AddFacts(r.evidence.facts);
  AddSeries(r.evidence, points);
  AddTimeline(r.evidence);
  r.evidence.diagnostics.Add({"A201",
                              DiagnosticSeverity::kWarning,
                              "line is not a log record",
                              {"rslex.log.2025-11-22-03", 118, 0},
                              "",
                              ""});
  r.evidence.diagnostics.Add(
      {"A204", DiagnosticSeverity::kNote, "GPU sample gap of 40 s", {"gpu.csv", 77, 0}, "", ""});
  r.findings = {EgressFinding(r.evidence.facts), SmallFilesFinding(r.evidence.facts),
                ModeFinding(r.evidence.facts)};
  r.skipped = {{"cache-disk-too-small",
                "The dataset does not fit on the cache disk",
                {"node.local_disk_bytes", "dataset.bytes"}}};
  r.env = {{"RSLEX_DOWNLOADER_THREADS", "64"}, {"DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED", "true"}};
  r.config = {{"blobfuse2", "block_cache:\n  block-size-mb: 16\n  mem-size-mb: 65536\n"}};
  r.result = {{"gpu_idle_fraction", 0.31, "", "GPUs idle"},
              {"cause", std::string("account egress"), "", "Cause"},
              {"confirmed", true, "", "Confirmed"}};
  return r;
}

Report MakeChartSampleReport(size_t points) {
  Report r = MakeSampleReport(points);
  FactSet& f = r.evidence.facts;
  f.Set(NumberFact("probe.throughput.knee_gbps", 8.9, Unit::kGbps, Measured("probe throughput")));
  f.Set(NumberFact("probe.throughput.best_concurrency", 16, Unit::kCount,
                   Measured("probe throughput")));
  f.Set(NumberFact("probe.smallfile.breakeven_bytes", 14.5e6, Unit::kBytes,
                   Measured("probe smallfiles")));
  f.Set(NumberFact("gpu.busy_threshold_percent", 10, Unit::kPercent, Observed("gpu.csv", 0)));
  f.Set(NumberFact("egress.nics_gbps", 800, Unit::kGbps, {FactOrigin::kDerived, "egress"}));
  f.Set(NumberFact("probe.list.entries_per_s", 52000, Unit::kPerSecond, Measured("probe list")));
  Series listed =
      MakeSeries("probe.list.entries_by_time", "entries listed", "time since the first request",
                 Unit::kSeconds, "entries listed", Unit::kCount);
  listed.points.push_back({0, 0});
  for (int page = 1; page <= 10; ++page)
    listed.points.push_back({0.096 * page + 0.004 * std::sin(page), 5000.0 * page});
  r.evidence.series.push_back(listed);

  Finding requests;
  requests.rule_id = "requests-beyond-account";
  requests.severity = Severity::kCritical;
  requests.escalated = true;
  requests.title =
      "Small files at the rate the nodes and the account allow would exceed the account's "
      "request limit";
  requests.message =
      "Reading files of 64 KiB at 200 Gbit/s takes a request rate of 549,316, over the "
      "account's 40,000 /s.";
  requests.excess = 13.73;
  requests.gauge = FindingGauge{549316, 40000, Unit::kPerSecond};
  requests.bottleneck = Bottleneck::kRequestRate;
  requests.basis = FindingBasis::kCapacity;
  // A long URL, as the built-in rules cite: it must wrap at phone width, not widen the page.
  requests.source =
      "Azure ML docs, \"Access data in a job\", sections \"Storage load\" and \"Scaling across "
      "multiple storage accounts\", "
      "https://learn.microsoft.com/azure/machine-learning/how-to-read-write-data-v2; limits from "
      "\"Scalability and performance targets for standard storage accounts\", "
      "https://learn.microsoft.com/azure/storage/common/scalability-targets-standard-account";
  requests.rule_file = "rules/builtin/egress.yaml";
  requests.rule_line = 33;
  r.context.target = "http://127.0.0.1:10450/devstoreaccount1/charts-preflight-sample-9405";
  r.findings.insert(r.findings.begin(), requests);
  // Below its limit: a demand equal to its limit is not charted (its bars would say nothing).
  r.findings[1].gauge = FindingGauge{96, 120, Unit::kGbps};
  return r;
}

}  // namespace feedcheck::testing
