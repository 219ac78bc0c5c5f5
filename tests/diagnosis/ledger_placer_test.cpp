// The ledger's placer (diagnosis/ledger_placer.h) rule by rule, on small made-up jobs built
// through the ledger: a property over each rule's threshold, on both sides of it.
//   - A throttled minute of the account's metrics is the window it covers; a log's refusal
//     line is padded by its retries' last delay either side, but not into a stop of the job's
//     own (its loop asked for nothing): there only a minute refused in it is the limit's.
//   - A minute whose throttling names only ServerBusyError was a target's, unless Egress was
//     pinned at the account's limit (97% of it); Transactions at theirs do not make it the
//     request limit.
//   - A bandwidth refusal while the node wrote its checkpoint, with Ingress at half its limit
//     or more, refused its writes.
//   - A refusal while the node read nothing (its download done) refused its writes: the egress
//     limit the job met elsewhere does not name it, nor the ingress limit a read's refusal.
//   - A stop in a mount nothing else settled is the job's own, unless the node read through
//     it and its reads ended with it: their latency.
//   - An Ingress burst is the job's writes only where its GPUs idled more in it than outside.
//   - Other clients' Egress from the job's quiet minutes, unless it stood above a minute's
//     whole Egress: a burst of theirs later says nothing of the minutes the job read.
//   - A node whose own log shows it read nothing takes no share of the account's Egress.
//   - A mount well under its latency cap is not storage only where the cap counts the requests
//     in flight (its readers declared, or large files on no more threads than one reader keeps
//     busy).
//   - A download at its NIC's rate was the mode's wait, whatever latency evidence there is.
//   - A mount node's CPU at 85% or more while its GPUs waited is its input pipeline's.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

#include "analyzers/throttle_kind.h"
#include "diagnosis/account_view.h"
#include "diagnosis/idle_ledger.h"
#include "diagnosis/ledger_judgement.h"
#include "diagnosis/ledger_unit.h"
#include "tests/diagnosis/ledger_test_jobs.h"

using namespace feedcheck;
using namespace feedcheck::diagnosis;
using namespace feedcheck::diagnosis::ledger_test;

TEST_CASE("placer: a ServerBusy-only minute is a target's unless Egress is at the limit",
          "[diagnosis][ledger]") {
  // A few percent under the limit is a target's: other tenants filled the account close to it.
  const double egress_share = GENERATE(0.2, 0.5, 0.85, 0.92, 0.96, 0.98, 1.0);
  const double requests_share = GENERATE(0.3, 1.0);
  const int minutes = 10;
  Evidence job = Mount(minutes);
  job.series.push_back(
      Minutes("metrics.egress_gbps", std::vector<double>(minutes, 100 * egress_share)));
  job.series.push_back(
      Minutes("metrics.requests_per_s", std::vector<double>(minutes, 20000 * requests_share)));
  job.timeline.push_back(Interval("storage", "ServerBusyError", 0, minutes, "metrics"));
  LedgerJudgement j;
  j.egress_limit_gbps = 100;
  j.requests_limit_per_s = 20000;
  const IdleLedger ledger = BuildIdleLedger(job, {}, j);
  INFO("egress at " << egress_share << " of its limit, requests at " << requests_share);
  const IdleState want = egress_share >= 0.97 ? IdleState::kAccountEgress : IdleState::kBlobTarget;
  CHECK(PlacedIn(ledger, want) == Approx(100.0 * minutes));
  CHECK(PlacedIn(ledger, IdleState::kAccountRequests) == 0);
}

TEST_CASE("placer: a stop of the job's own is the limit's only where a request was refused in it",
          "[diagnosis][ledger]") {
  // A node that never waits but for a 5-minute stop (minutes 20-25) in a mount nothing else
  // settled, its log refusing a minute of requests either just before the stop or inside it
  // (at retries' last delay of 60 s either side). The pad is what a retry might still hold; the
  // stop's loop asked for nothing, so only the minute a request was refused in is the limit's.
  const std::string where = GENERATE(as<std::string>{}, "before", "inside");
  const int minutes = 40;
  std::vector<double> lost(minutes, 0.0);
  for (int i = 20; i < 25; ++i) lost[static_cast<size_t>(i)] = 8 * kMinute;
  Evidence job = EightGpuMount(lost, 0, minutes);
  const double from = where == "before" ? 19 : 20;
  job.timeline.push_back(Interval("storage", "503 ServerBusy", from, from + 1, "rslex"));
  job.facts.Set(TextFact("runtime.setting.AZUREML_DATASET_HTTP_RETRY_COUNT", "20", Provenance{}));
  LedgerJudgement j;
  j.mount_state = IdleState::kUnknown;
  const IdleLedger ledger = BuildIdleLedger(job, {}, j);
  INFO("refused " << where << " the stop");
  const double refused = where == "before" ? 0 : 8 * kMinute;
  CHECK(PlacedIn(ledger, IdleState::kThrottledUnknown) == Approx(refused));
  CHECK(PlacedIn(ledger, IdleState::kOwnCode) == Approx(5 * 8 * kMinute - refused));
}

TEST_CASE("placer: a throttled minute of the metrics is its own window, a log's line is padded",
          "[diagnosis][ledger]") {
  // A mount idle for 20 minutes, refused from minute 5 to 8: by the account's metrics (whole
  // minutes: the window they cover) or by the data runtime's log (lines now and then, each with
  // its retries' last delay either side: 60 s at 20 retries).
  const std::string source = GENERATE(as<std::string>{}, "metrics", "rslex");
  const int minutes = 20;
  Evidence job = Mount(minutes);
  job.series.push_back(Minutes("metrics.egress_gbps", std::vector<double>(minutes, 99)));
  job.timeline.push_back(
      Interval("storage", "ClientAccountBandwidthThrottlingError", 5, 8, source));
  job.facts.Set(TextFact("runtime.setting.AZUREML_DATASET_HTTP_RETRY_COUNT", "20", Provenance{}));
  LedgerJudgement j;
  j.egress_limit_gbps = 100;
  j.mount_state = IdleState::kLatency;
  const IdleLedger ledger = BuildIdleLedger(job, {}, j);
  INFO("refused by " << source);
  const double refused = (source == "metrics" ? 3 : 5) * 100.0;
  CHECK(PlacedIn(ledger, IdleState::kAccountEgress) == Approx(refused));
  CHECK(PlacedIn(ledger, IdleState::kLatency) == Approx(100.0 * minutes - refused));
}

TEST_CASE(
    "placer: a bandwidth refusal while the node wrote, Ingress at half its limit, is "
    "the ingress limit's",
    "[diagnosis][ledger]") {
  const double ingress_share = GENERATE(0.3, 0.45, 0.55, 0.8);
  const int minutes = 12;
  Evidence job = Mount(minutes);
  // Egress held near its limit by other clients throughout; a checkpoint's Ingress burst in
  // minutes 4 to 8, the account refusing on bandwidth then.
  job.series.push_back(Minutes("metrics.egress_gbps", std::vector<double>(minutes, 95)));
  std::vector<double> ingress(minutes, 0.5);
  for (int i = 4; i < 8; ++i) ingress[i] = 60 * ingress_share;
  job.series.push_back(Minutes("metrics.ingress_gbps", ingress));
  job.timeline.push_back(
      Interval("storage", "ClientAccountBandwidthThrottlingError", 4, 8, "metrics"));
  const LedgerJudgement j = WritingJob();
  const IdleLedger ledger = BuildIdleLedger(job, {}, j);
  INFO("ingress at " << ingress_share << " of its limit");
  const double refused =
      PlacedIn(ledger, IdleState::kAccountIngress) + PlacedIn(ledger, IdleState::kAccountEgress);
  CHECK(refused >= 400);  // the refused minutes (and their minute of margin each side)
  if (ingress_share >= 0.5)
    CHECK(PlacedIn(ledger, IdleState::kAccountIngress) == Approx(400.0));
  else
    CHECK(PlacedIn(ledger, IdleState::kAccountIngress) == 0);
}

TEST_CASE("placer: other clients' burst after the job read says nothing of its minutes",
          "[diagnosis][ledger]") {
  // A mount that starts at minute 10 and reads to minute 29 at 3.8 Gbit/s, its latency cap
  // 4 Gbit/s (so it read at the cap: latency), its log silent after (quiet minutes: all
  // others'). Other clients read `before` Gbit/s while it read, then a burst of 50. The
  // quiet minutes' level stands above the whole Egress of the minutes the job read: the
  // others' was less then, and the node's rate is not hidden under a burst that came later.
  const double before = GENERATE(0.0, 1.0);
  const int minutes = 40;
  Evidence job;
  std::vector<double> lost(minutes, 0);
  for (int i = 11; i < 29; ++i) lost[i] = 100;
  job.series.push_back(Minutes("gpu.lost_gpu_s_by_time", lost));
  std::vector<double> egress(minutes);
  for (int i = 0; i < minutes; ++i) egress[i] = i < 10 ? 0 : i < 30 ? before + 3.8 : 50;
  job.series.push_back(Minutes("metrics.egress_gbps", egress));
  job.timeline.push_back(Interval("data-runtime", "mount", 9.9, minutes, "Success"));
  job.timeline.push_back(Interval("reads", "span closes", 10.2, 29.5, "rslex"));
  // The runtime's own log was read (its quiet minutes are known quiet).
  job.facts.Set(NumberFact("runtime.non_success_responses", 0, Unit::kCount, Provenance{}));
  LedgerJudgement j;
  j.mount_state = IdleState::kUnknown;
  j.latency_cap_gbps = 4;
  j.mount_cap_in_flight_known = true;
  const IdleLedger ledger = BuildIdleLedger(job, {}, j);
  INFO("others at " << before << " Gbit/s while the job read");
  CHECK(PlacedIn(ledger, IdleState::kLatency) == Approx(18 * 100.0));
}

TEST_CASE("placer: a checkpoint's refused minutes are the limit's, the rest of it its writes",
          "[diagnosis][ledger]") {
  // A checkpoint's Ingress burst in minutes 3 to 9; the account refuses on bandwidth in
  // `refused` of those minutes, from minute 5. The write held the GPUs throughout: its minutes
  // either side of the refusals are its own, with no margin for a recovery.
  const int refused = GENERATE(1, 2, 3);
  const int minutes = 12;
  Evidence job = Mount(minutes);
  std::vector<double> ingress(minutes, 0.5);
  for (int i = 3; i < 9; ++i) ingress[i] = 50;
  job.series.push_back(Minutes("metrics.ingress_gbps", ingress));
  job.series.push_back(Minutes("metrics.egress_gbps", std::vector<double>(minutes, 10)));
  job.timeline.push_back(
      Interval("storage", "ClientAccountBandwidthThrottlingError", 5, 5 + refused, "metrics"));
  const LedgerJudgement j = WritingJob();
  const IdleLedger ledger = BuildIdleLedger(job, {}, j);
  INFO(refused << " minutes refused");
  CHECK(PlacedIn(ledger, IdleState::kAccountIngress) == Approx(100.0 * refused));
  CHECK(PlacedIn(ledger, IdleState::kWrites) == Approx(100.0 * (6 - refused)));
}

TEST_CASE("judgement: the request log's read size says small files the account's mean hides",
          "[diagnosis][ledger]") {
  // A mount with no file size declared on an account whose other clients read 4 MiB blocks:
  // Egress over Transactions says 3.8 MB a request. The request log's median GetBlob says
  // what the job's reads moved.
  const double logged = GENERATE(0.0, 24e3, 400e3, 4e6);
  Evidence job;
  job.facts.Set(NumberFact("metrics.bytes_per_request", 3.8e6, Unit::kBytes, Provenance{}));
  if (logged > 0)
    job.facts.Set(NumberFact("metrics.bloblog.read_bytes_p50", logged, Unit::kBytes, Provenance{}));
  const LedgerJudgement j = JudgeEvidence(job, {}, ViewAccount(job.facts), {});
  INFO("reads of " << logged << " bytes in the log");
  const bool small = logged > 0 && logged < kSmallRequestBytes;
  CHECK(j.small_requests == small);
  CHECK(j.large_requests == !small);
  // Small requests are held by their latency: one per file, few in flight.
  CHECK((j.mount_state == IdleState::kLatency) == small);
}

TEST_CASE("placer: a job with no data-runtime log is unknown whatever its findings say",
          "[diagnosis][ledger]") {
  // What the job's findings say held its reads (small files, a capped cache, the download)
  // cannot say when: without the runtime's log no idle minute is theirs. A refusal still is.
  const IdleState said = GENERATE(IdleState::kLatency, IdleState::kCacheRereads,
                                  IdleState::kStartupDownload, IdleState::kUnknown);
  const bool refused = GENERATE(false, true);
  const int minutes = 10;
  Evidence job;
  job.series.push_back(Minutes("gpu.lost_gpu_s_by_time", std::vector<double>(minutes, 100)));
  if (refused)
    job.timeline.push_back(
        Interval("storage", "ClientAccountBandwidthThrottlingError", 2, 4, "metrics"));
  LedgerJudgement j;
  j.unplaced_state = said;
  j.throttle_state = IdleState::kAccountEgress;
  const IdleLedger ledger = BuildIdleLedger(job, {}, j);
  INFO("the findings say " << static_cast<int>(said) << (refused ? ", refused" : ""));
  // Refusals in minutes 2-3, with the default retries' last delay (16 s) each side: a minute
  // bucket is placed at its middle, so no more minutes.
  const double limit = refused ? 100.0 * 2 : 0;
  CHECK(PlacedIn(ledger, IdleState::kAccountEgress) == Approx(limit));
  CHECK(PlacedIn(ledger, IdleState::kUnknown) == Approx(100.0 * minutes - limit));
}

TEST_CASE("verdict: refusals elsewhere in a timed ledger say nothing of its unplaced time",
          "[diagnosis][ledger]") {
  // Most of the time lost unplaced, a refusal somewhere in the job. From phase totals (no
  // times) the refusals may be what the unplaced time was; timed against each sample, a refusal
  // that held the GPUs would have been placed, so the verdict is the unknown it is.
  const bool timed = GENERATE(false, true);
  const double unknown_share = GENERATE(0.3, 0.6, 0.9);
  IdleLedger ledger;
  ledger.known = true;
  ledger.timed = timed;
  ledger.sampled_gpu_s = 10000;
  ledger.lost_gpu_s = 5000;
  ledger.gpu_s[static_cast<int>(IdleState::kUnknown)] = 5000 * unknown_share;
  ledger.gpu_s[static_cast<int>(IdleState::kOwnCode)] = 5000 * (1 - unknown_share);
  INFO((timed ? "timed, " : "phase totals, ") << unknown_share << " unknown");
  const IdleState cause = ChooseLedgerCause(ledger, false, std::nullopt, true);
  if (timed && unknown_share >= 0.5)
    CHECK(cause == IdleState::kUnknown);
  else
    CHECK(cause == IdleState::kOwnCode);
  // Without refusals, the unknown decides either way.
  CHECK(ChooseLedgerCause(ledger, false, std::nullopt, false) ==
        (unknown_share >= 0.5 ? IdleState::kUnknown : IdleState::kOwnCode));
}

TEST_CASE(
    "placer: a stop while the mount went on reading is the job's own when nothing "
    "else held it",
    "[diagnosis][ledger]") {
  // A node of 8 GPUs sampled every 10 s, always busy but for a 5-minute stop every 30 minutes,
  // its mount reading throughout (a validation reads its own data).
  const IdleState mount_state = GENERATE(IdleState::kUnknown, IdleState::kLatency);
  const int buckets = 6 * 120;
  Evidence job;
  Series lost;
  lost.key = "gpu.lost_gpu_s_by_time";
  for (int i = 0; i < buckets; ++i)
    lost.points.push_back({kStart + 10.0 * i, (i % 180) >= 150 ? 80.0 : 0.0});
  job.series.push_back(lost);
  job.facts.Set(NumberFact("gpu.count", 8, Unit::kCount, Provenance{}));
  job.facts.Set(NumberFact("gpu.sample_interval_s", 10, Unit::kSeconds, Provenance{}));
  job.timeline.push_back(Interval("data-runtime", "mount", -0.1, 0, "Success"));
  job.timeline.push_back(Interval("reads", "span closes", 0, 120, "rslex"));
  LedgerJudgement j;
  j.mount_state = mount_state;
  const IdleLedger ledger = BuildIdleLedger(job, {}, j);
  INFO("the mount's state " << static_cast<int>(mount_state));
  const double stops = 4 * 30 * 80.0;
  if (mount_state == IdleState::kUnknown)
    CHECK(PlacedIn(ledger, IdleState::kOwnCode) == Approx(stops));
  else
    CHECK(PlacedIn(ledger, IdleState::kLatency) == Approx(stops));  // the evidence's state
}

TEST_CASE("placer: a download's refused minutes are the limit's, the rest its own",
          "[diagnosis][ledger]") {
  // A 20-minute download, refused by the account's egress limit in `refused` minutes from
  // minute 6 (its log's refusal lines): each refused minute delayed it, the others were its
  // own wait (the mode's). A log's refusal covers the data runtime's last retry delay each side
  // (250 ms doubling per retry, at most a minute): 1 s for 3 retries, 16 s for the default 7,
  // the minute for 20. A minute bucket is placed at its middle: a delay past 30 s takes in the
  // minute each side.
  const int refused = GENERATE(1, 3, 6, 10);
  const std::string retries = GENERATE(std::string(), std::string("3"), std::string("20"));
  const int minutes = 20;
  Evidence job;
  job.series.push_back(Minutes("gpu.lost_gpu_s_by_time", std::vector<double>(minutes, 100)));
  if (!retries.empty())
    job.facts.Set(TextFact("runtime.setting.AZUREML_DATASET_HTTP_RETRY_COUNT", retries, {}));
  job.timeline.push_back(Interval("data-runtime", "download", 0, minutes, "Success"));
  job.timeline.push_back(
      Interval("storage", "503 throttled (limit unknown)", 6, 6 + refused, "rslex"));
  LedgerJudgement j;
  j.throttle_state = IdleState::kAccountEgress;
  const IdleLedger ledger = BuildIdleLedger(job, {}, j);
  INFO(refused << " minutes refused, retries " << (retries.empty() ? "default" : retries));
  const double pad_s = ledger::RefusalPadS(job.facts);
  CHECK(pad_s == Approx(retries == "3" ? 1.0 : retries == "20" ? 60.0 : 16.0));
  const int margin = pad_s > 30 ? 2 : 0;
  CHECK(PlacedIn(ledger, IdleState::kAccountEgress) == Approx(100.0 * (refused + margin)));
  CHECK(PlacedIn(ledger, IdleState::kStartupDownload) ==
        Approx(100.0 * (minutes - refused - margin)));
}

TEST_CASE("placer: a read refused at the account's bandwidth is its egress, not others' writes",
          "[diagnosis][ledger]") {
  // A 20-minute download, or mount, refused in minutes 6-9, the account's metrics naming its
  // bandwidth limit (ClientAccountBandwidthThrottlingError counts both ways). Egress was at 48
  // of its 50 Gbit/s then, Ingress at 24 of its 25 from other clients' writes: in a burst over
  // its quiet minutes during the download (its code, the job's only writer, starts once its
  // inputs are copied: no write of the job's), steady through the mount (no burst: no checkpoint
  // of the job's). A node reading then was refused its reads: the egress limit.
  const std::string mode = GENERATE(std::string("download"), std::string("mount"));
  const int minutes = 20;
  Evidence job;
  job.series.push_back(Minutes("gpu.lost_gpu_s_by_time", std::vector<double>(minutes, 100)));
  job.series.push_back(Minutes("gpu.sampled_gpu_s_by_time", std::vector<double>(minutes, 100)));
  std::vector<double> egress(minutes, 10), ingress(minutes, mode == "mount" ? 24 : 1);
  for (int m = 6; m < 10; ++m) egress[m] = 48, ingress[m] = 24;
  job.series.push_back(Minutes("metrics.egress_gbps", egress));
  job.series.push_back(Minutes("metrics.ingress_gbps", ingress));
  job.timeline.push_back(Interval("data-runtime", mode, 0, minutes, "Success"));
  job.timeline.push_back(
      Interval("storage", "ClientAccountBandwidthThrottlingError", 6, 10, "metrics"));
  LedgerJudgement j;
  j.job_writes = true;
  j.egress_limit_gbps = 50;
  j.ingress_limit_gbps = 25;
  j.throttle_state = IdleState::kAccountEgress;
  j.mount_state = IdleState::kNotStorage;
  const IdleLedger ledger = BuildIdleLedger(job, {}, j);
  INFO("a " << mode);
  CHECK(PlacedIn(ledger, IdleState::kAccountEgress) == Approx(400));
  CHECK(PlacedIn(ledger, IdleState::kAccountIngress) == 0);
  CHECK(PlacedIn(ledger, IdleState::kWrites) == 0);
}

TEST_CASE("placer: a download at its NIC's rate was held by the NIC, whatever the distance",
          "[diagnosis][ledger]") {
  // A 20-minute download whose own rate (its bytes over its time) is `share` of a 24 Gbit/s
  // NIC, on a job whose evidence says latency (a distant region), with no latency cap to weigh
  // the rate against. At the NIC's rate the NIC held it: the GPUs waited for the whole input,
  // the mode's wait. Under it the latency evidence stands; a crawl is latency either way.
  const double share = GENERATE(0.3, 0.7, 0.95, 1.0);
  const int minutes = 20;
  Evidence job;
  job.series.push_back(Minutes("gpu.lost_gpu_s_by_time", std::vector<double>(minutes, 100)));
  job.timeline.push_back(Interval("data-runtime", "download", 0, minutes, "Success"));
  LedgerJudgement j;
  j.download_state = IdleState::kLatency;
  j.download_is_the_wait = true;
  j.nic_gbps = 24;
  j.own_download_gbps = share * 24;
  const IdleLedger ledger = BuildIdleLedger(job, {}, j);
  INFO("the download at " << share << " of its NIC");
  const IdleState expected = share >= 0.85 ? IdleState::kStartupDownload : IdleState::kLatency;
  CHECK(PlacedIn(ledger, expected) == Approx(100.0 * minutes));
}

TEST_CASE("judgement: the GPUs idle through a download waited for it, however short it was",
          "[diagnosis][ledger]") {
  // A 4-minute download in a 100-minute job (too short a share for the access-mode advice),
  // the GPUs (100 GPU-s sampled a minute) losing `lost` a minute while it ran, busy after.
  // Idle through it, they waited for all of it: at the NIC's rate it is the mode's wait, not
  // the NIC's; GPUs that worked while it ran (a second input copied while training) did not.
  const double lost = GENERATE(100.0, 85.0, 50.0, 0.0);
  std::vector<double> lost_by_minute(100, 0.0), sampled(100, 100.0);
  for (int m = 0; m < 4; ++m) lost_by_minute[m] = lost;
  Evidence job;
  job.series.push_back(Minutes("gpu.lost_gpu_s_by_time", lost_by_minute));
  job.series.push_back(Minutes("gpu.sampled_gpu_s_by_time", sampled));
  job.timeline.push_back(Interval("data-runtime", "download", 0, 4, "Success"));
  const LedgerJudgement j = JudgeEvidence(job, {}, ViewAccount(job.facts), {});
  INFO("lost " << lost << " of 100 GPU-s a minute while it ran");
  CHECK(j.download_is_the_wait == (lost >= 80));
}

TEST_CASE("placer: a stop in a checkpoint's first or last minute is the checkpoint's",
          "[diagnosis][ledger]") {
  // A node of 8 GPUs, busy but for one whole stop in minutes 20-29 (sampled every 10 s), its
  // checkpoint's Ingress burst in minutes 21-28 and a part of it in minutes 20 and 29 (`edge`
  // Gbit/s above the quiet 0.5). The stop's edge minutes are the checkpoint's when their
  // Ingress stands above the quiet minutes; the node's scattered waits there never are.
  const double edge_gbps = GENERATE(0.0, 3.0, 8.0);  // under a quarter of the burst
  const int minutes = 60;
  Evidence job;
  Series lost;
  lost.key = "gpu.lost_gpu_s_by_time";
  for (int i = 0; i < minutes * 6; ++i) {
    const bool stop = i >= 20 * 6 && i < 30 * 6;
    const bool wait = i % 17 == 0;  // a scattered wait, never a stop
    lost.points.push_back({kStart + 10.0 * i, stop || wait ? 80.0 : 0.0});
  }
  job.series.push_back(lost);
  job.facts.Set(NumberFact("gpu.count", 8, Unit::kCount, Provenance{}));
  job.facts.Set(NumberFact("gpu.sample_interval_s", 10, Unit::kSeconds, Provenance{}));
  std::vector<double> ingress(minutes, 0.5);
  for (int i = 21; i < 29; ++i) ingress[i] = 40;
  ingress[20] = ingress[29] = 0.5 + edge_gbps;
  ingress[45] = 0.5 + edge_gbps;  // a minute above the quiet ones, far from any burst
  job.series.push_back(Minutes("metrics.ingress_gbps", ingress));
  job.timeline.push_back(Interval("data-runtime", "mount", -0.1, 0, "Success"));
  LedgerJudgement j;
  j.job_writes = true;
  j.mount_state = IdleState::kNotStorage;
  const IdleLedger ledger = BuildIdleLedger(job, {}, j);
  INFO("the edge minutes " << edge_gbps << " Gbit/s above the quiet ones");
  const double burst = 8 * 6 * 80.0, edges = 2 * 6 * 80.0;  // 80 GPU-s a sample, 6 a minute
  CHECK(PlacedIn(ledger, IdleState::kWrites) == Approx(edge_gbps >= 1 ? burst + edges : burst));
}

TEST_CASE("placer: a stop the node's reads ran through and ended with is their latency's",
          "[diagnosis][ledger]") {
  // 8 GPUs stopped for the first 20 minutes of an hour in a mount nothing else settled, then
  // busy. The node read through the stop: its reads end with it (a first epoch its cache then
  // served), or go on to the end (a stop of the job's own while reads went on).
  const bool reads_end_with_stop = GENERATE(false, true);
  std::vector<double> lost(60, 0.0);
  for (size_t i = 0; i < 20; ++i) lost[i] = 8 * kMinute;
  Evidence job = EightGpuMount(lost, 0, reads_end_with_stop ? 20 : 60);
  LedgerJudgement j;
  j.mount_state = IdleState::kUnknown;
  const IdleLedger ledger = BuildIdleLedger(job, {}, j);
  INFO((reads_end_with_stop ? "reads end with the stop" : "reads go on after it"));
  const double stop = 20 * 8 * kMinute;
  CHECK(PlacedIn(ledger, IdleState::kLatency) == Approx(reads_end_with_stop ? stop : 0));
  CHECK(PlacedIn(ledger, IdleState::kOwnCode) == Approx(reads_end_with_stop ? 0 : stop));
}

TEST_CASE("placer: an Ingress burst the GPUs worked through was another client's",
          "[diagnosis][ledger]") {
  // A job that writes through storage, its GPUs idle a share of each minute outside an
  // Ingress burst in minutes 21-28 and another share inside it. A checkpoint stops training:
  // the burst is the job's writes only where its GPUs idled more in it than outside.
  const auto shares = GENERATE(std::make_pair(1.0, 0.2), std::make_pair(0.3, 0.0),
                               std::make_pair(0.2, 0.2), std::make_pair(0.0, 0.5));
  const double inside = shares.first, outside = shares.second;
  const int minutes = 60;
  Evidence job;
  Series lost, sampled;
  lost.key = "gpu.lost_gpu_s_by_time";
  sampled.key = "gpu.sampled_gpu_s_by_time";
  double lost_in_burst = 0;
  for (int i = 0; i < minutes * 6; ++i) {
    const bool burst = i >= 21 * 6 && i < 29 * 6;
    const bool idle = (i % 10) < (burst ? inside : outside) * 10;
    lost.points.push_back({kStart + 10.0 * i, idle ? 80.0 : 0.0});
    sampled.points.push_back({kStart + 10.0 * i, 80.0});
    lost_in_burst += burst && idle ? 80.0 : 0.0;
  }
  job.series.push_back(lost);
  job.series.push_back(sampled);
  std::vector<double> ingress(minutes, 0.5);
  for (int i = 21; i < 29; ++i) ingress[i] = 40;
  job.series.push_back(Minutes("metrics.ingress_gbps", ingress));
  job.timeline.push_back(Interval("data-runtime", "mount", -0.1, 0, "Success"));
  LedgerJudgement j = WritingJob();
  const IdleLedger ledger = BuildIdleLedger(job, {}, j);
  INFO("idle " << inside << " in the burst, " << outside << " outside");
  CHECK(PlacedIn(ledger, IdleState::kWrites) == Approx(inside > outside ? lost_in_burst : 0));
}

TEST_CASE("judgement: an access failure starts at its first refusal, not its activity's start",
          "[diagnosis][ledger]") {
  // A download that started at minute 0 and failed at minute `failed_at`, storage refusing
  // it (403) from minute `refused_from`: a credential that expired an hour into the download
  // failed then; a path that never existed failed from the start (its first refusal seconds
  // after the activity began, within the retries' last delay).
  const auto times = GENERATE(std::make_pair(90.0, 80.0), std::make_pair(1.0, 0.2),
                              std::make_pair(5.0, -1.0));  // -1: no refusal logged
  const double failed_at = times.first, refused_from = times.second;
  Evidence job;
  job.timeline.push_back(Interval("data-runtime", "download", 0, failed_at, "Failure"));
  if (refused_from >= 0)
    job.timeline.push_back(Interval("access", "403 refused", refused_from, failed_at, "rslex"));
  Finding failure;
  failure.rule_id = "access";
  failure.bottleneck = Bottleneck::kAccessFailure;
  failure.severity = Severity::kCritical;
  failure.basis = FindingBasis::kObserved;
  const LedgerJudgement j = JudgeEvidence(job, {failure}, ViewAccount(job.facts), {});
  INFO("failed at minute " << failed_at << ", refused from " << refused_from);
  REQUIRE(j.access_failed);
  REQUIRE(j.access_onset_s);
  const double pad_s = ledger::RefusalPadS(job.facts);  // the default retries' last delay
  const double expected_min =
      refused_from >= 0 ? std::max(0.0, refused_from - pad_s / kMinute) : 0.0;
  CHECK((*j.access_onset_s - kStart) / kMinute == Approx(expected_min));
}

TEST_CASE("judgement: a mount's cap counts its requests in flight where its readers cannot",
          "[diagnosis][ledger]") {
  // Large files (64 MB, over the 2 MB block) read by the job's DATASET_MOUNT_READ_THREADS, no
  // readers declared: one reader already prefetches 32 blocks, so up to 32 threads are all busy
  // whatever the readers, and the cap counts them; more threads, and the readers may keep some
  // idle (the cap is only a bound). Small files are one request each: only readers count.
  const int threads = GENERATE(8, 32, 64);
  const double file_bytes = GENERATE(64e6, 200e3);
  Evidence job = Mount(10);
  job.facts.Set(TextFact("runtime.setting.DATASET_MOUNT_READ_THREADS", std::to_string(threads),
                         Provenance{}));
  job.facts.Set(NumberFact("dataset.median_file_bytes", file_bytes, Unit::kBytes, Provenance{}));
  job.facts.Set(NumberFact("metrics.e2e_latency_ms", 20, Unit::kMilliseconds, Provenance{}));
  const LedgerJudgement j = JudgeEvidence(job, {}, ViewAccount(job.facts), {});
  INFO(threads << " threads, files of " << file_bytes << " bytes");
  CHECK(j.mount_cap_in_flight_known == (file_bytes > 2e6 && threads <= 32));
}

TEST_CASE(
    "placer: a mount well under a cap its readers bound is not storage; under a bound, "
    "unsettled",
    "[diagnosis][ledger]") {
  // One node reading at 1 Gbit/s (the account's Egress, no one else) under a latency cap of 10:
  // storage answered faster than the node asked where the cap counts the readers' requests in
  // flight; where the readers are not declared the cap counts the runtime's threads, only a
  // bound, and the mount's state from the job's evidence (latency here) stands.
  const bool readers_known = GENERATE(false, true);
  const int minutes = 30;
  Evidence job = Mount(minutes);
  job.series.push_back(Minutes("metrics.egress_gbps", std::vector<double>(minutes, 1.0)));
  job.timeline.push_back(Interval("reads", "span closes", 0, minutes, "rslex"));
  LedgerJudgement j;
  j.mount_state = IdleState::kLatency;
  j.latency_cap_gbps = 10;
  j.nodes = 1;
  j.mount_cap_in_flight_known = readers_known;
  const IdleLedger ledger = BuildIdleLedger(job, {}, j);
  INFO((readers_known ? "readers declared" : "readers not declared"));
  const double all = 100.0 * minutes;
  CHECK(PlacedIn(ledger, IdleState::kNotStorage) == Approx(readers_known ? all : 0));
  CHECK(PlacedIn(ledger, IdleState::kLatency) == Approx(readers_known ? 0 : all));
}

TEST_CASE("placer: each logged refusal is the limit its own body names", "[diagnosis][ledger]") {
  // A 20-minute download on a job whose evidence named the account's egress limit (refusals in
  // minutes 2-4 whose bodies said "Egress is over the account limit."), refused again in
  // minutes 12-14 with a body saying only "The server is busy." (a hot blob's target), or with
  // no body at all. Azure's own message places each refusal: a busy server is no account limit,
  // and with no account figures to weigh, its limit is unknown. A refusal logged without its
  // body says nothing of its own: the limit the job met stands.
  const std::string second = GENERATE(std::string(analyzers::kServerBusySaidLabel),
                                      std::string("503 throttled (limit unknown)"),
                                      std::string("503 egress over the account limit"));
  const int minutes = 20;
  Evidence job;
  job.series.push_back(Minutes("gpu.lost_gpu_s_by_time", std::vector<double>(minutes, 100)));
  job.facts.Set(TextFact("runtime.setting.AZUREML_DATASET_HTTP_RETRY_COUNT", "3", {}));
  job.timeline.push_back(Interval("data-runtime", "download", 0, minutes, "Success"));
  job.timeline.push_back(Interval("storage", "503 egress over the account limit", 2, 5, "rslex"));
  job.timeline.push_back(Interval("storage", second, 12, 15, "rslex"));
  LedgerJudgement j;
  j.throttle_state = IdleState::kAccountEgress;
  const IdleLedger ledger = BuildIdleLedger(job, {}, j);
  INFO("the second refusals: " << second);
  const bool said_busy = second == analyzers::kServerBusySaidLabel;
  CHECK(PlacedIn(ledger, IdleState::kAccountEgress) == Approx(100.0 * (said_busy ? 3 : 6)));
  CHECK(PlacedIn(ledger, IdleState::kThrottledUnknown) == Approx(100.0 * (said_busy ? 3 : 0)));
  CHECK(PlacedIn(ledger, IdleState::kStartupDownload) == Approx(100.0 * 14));
}

TEST_CASE("placer: a refusal after the download, while the job wrote, is not its egress",
          "[diagnosis][ledger]") {
  // A 10-minute download on a job that writes its outputs (an rw_mount), then 10 minutes of
  // training. Its reads were refused in minutes 2-4 by the account's egress limit (their bodies
  // said so); refusals without a body come again in minutes `at` to `at`+3. In the download
  // they were its reads' (the limit the job met stands); after it, the node read nothing and
  // sent only its writes, which the egress limit does not refuse: their limit is unknown. A
  // body that names the egress limit is still the egress limit's.
  const int at = GENERATE(6, 14);
  const bool named = GENERATE(false, true);
  const auto [job, j] = DownloadThenWrites(
      IdleState::kAccountEgress,
      {{"503 egress over the account limit", 2, 5},
       {named ? "503 egress over the account limit" : "503 throttled (limit unknown)",
        static_cast<double>(at), at + 3.0}});
  const IdleLedger ledger = BuildIdleLedger(job, {}, j);
  INFO("the second refusals from minute " << at << (named ? ", named" : ", no body"));
  const bool writes = at >= 10 && !named;
  CHECK(PlacedIn(ledger, IdleState::kAccountEgress) == Approx(100.0 * (writes ? 3 : 6)));
  CHECK(PlacedIn(ledger, IdleState::kThrottledUnknown) == Approx(100.0 * (writes ? 3 : 0)));
}

TEST_CASE("placer: a read's refusal is not the ingress limit the job's writes met",
          "[diagnosis][ledger]") {
  // The same job the other way round: after its 10-minute download it wrote its outputs, and
  // those writes were refused in minutes 14-16 by the account's ingress limit (their bodies said
  // so). A refusal without a body in minutes 6-8, while it downloaded, refused its reads, which
  // the ingress limit does not refuse: their limit is unknown. With a body naming the ingress
  // limit, it stands as the service said.
  const bool named = GENERATE(false, true);
  const auto [job, j] = DownloadThenWrites(
      IdleState::kAccountIngress,
      {{"503 ingress over the account limit", 14, 17},
       {named ? "503 ingress over the account limit" : "503 throttled (limit unknown)", 6, 9}});
  const IdleLedger ledger = BuildIdleLedger(job, {}, j);
  INFO((named ? "the read's refusal named ingress" : "the read's refusal had no body"));
  CHECK(PlacedIn(ledger, IdleState::kAccountIngress) == Approx(100.0 * (named ? 6 : 3)));
  CHECK(PlacedIn(ledger, IdleState::kThrottledUnknown) == Approx(100.0 * (named ? 0 : 3)));
}

TEST_CASE("placer: a node that read nothing takes no share of the account's egress",
          "[diagnosis][ledger]") {
  // Two nodes of a mount, each losing 100 GPU-s every minute for 20 minutes; their latency
  // cap is 4 Gbit/s each, counting the requests really in flight. The account's Egress was
  // 3.8 Gbit/s: node-0's reads at its cap (latency). node-1 mounted too but its own log shows it
  // read nothing (a dead node): the Egress was node-0's alone, not 1.9 Gbit/s each, which would
  // be well under the cap (storage serving faster than asked). Where node-1 read as well, the
  // account's 7.6 Gbit/s is the two nodes' at their cap.
  const bool one_read_nothing = GENERATE(false, true);
  const int minutes = 20;
  Evidence job;
  job.series.push_back(Minutes("gpu.lost_gpu_s_by_time", std::vector<double>(minutes, 200)));
  job.series.push_back(
      Minutes("metrics.egress_gbps", std::vector<double>(minutes, one_read_nothing ? 3.8 : 7.6)));
  std::vector<analyzers::NodeEvidence> nodes;
  for (const std::string name : {"node-0", "node-1"})
    nodes.push_back(MountNode(&job, name, minutes));
  LedgerJudgement j;
  j.mount_state = IdleState::kUnknown;
  j.latency_cap_gbps = 4;
  j.mount_cap_in_flight_known = true;
  j.nodes = 2;
  if (one_read_nothing) j.nodes_reading_nothing.insert("node-1");
  const IdleLedger ledger = BuildIdleLedger(job, nodes, j);
  INFO((one_read_nothing ? "node-1 read nothing" : "both nodes read"));
  REQUIRE(ledger.by_node.size() == 2);
  CHECK(ledger.by_node.at("node-0")[static_cast<int>(IdleState::kLatency)] == Approx(2000));
  CHECK(PlacedIn(ledger, IdleState::kNotStorage) == 0);
  CHECK(PlacedIn(ledger, IdleState::kNotStorageNode) == Approx(one_read_nothing ? 2000 : 0));
}

TEST_CASE("placer: a mount node's CPU busy while its GPUs waited is its input pipeline's",
          "[diagnosis][ledger][cpu]") {
  // Two nodes of a mount, each losing 100 GPU-s every minute for 20 minutes, the job's evidence
  // naming their reads' latency. Azure ML's CpuUtilization names each node: node-0's CPU stood
  // at `cpu` in minutes 5-15 and at 20% else, node-1's at 20% throughout. From 85% on, node-0's
  // loader could not have fed its GPUs faster whatever storage served: those minutes are not
  // storage; under it, and on node-1, the latency holds. A single-unit job reads the only
  // node's series; two series and no node to match use neither.
  const double cpu = GENERATE(40.0, 84.0, 85.0, 92.0, 100.0);
  const int minutes = 20;
  std::vector<double> cpu_zero(minutes, 20);
  for (int m = 5; m < 15; ++m) cpu_zero[static_cast<size_t>(m)] = cpu;
  const bool busy = cpu >= 85;
  LedgerJudgement j;
  j.mount_state = IdleState::kLatency;
  INFO("node-0's CPU at " << cpu << "% in minutes 5-15");
  SECTION("each node its own series") {
    Evidence job = Mount(minutes);
    job.series.front().points.clear();
    std::vector<analyzers::NodeEvidence> nodes;
    for (const std::string name : {"node-0", "node-1"}) {
      nodes.push_back(MountNode(&job, name, minutes));
      for (const auto& p : nodes.back().evidence.series.front().points)
        job.series.front().points.push_back(p);
      Series util = Minutes("cpu.util_percent",
                            name == "node-0" ? cpu_zero : std::vector<double>(minutes, 20));
      util.node = name;
      job.series.push_back(util);
    }
    std::sort(job.series.front().points.begin(), job.series.front().points.end(),
              [](const SeriesPoint& a, const SeriesPoint& b) { return a.x < b.x; });
    j.nodes = 2;
    const IdleLedger ledger = BuildIdleLedger(job, nodes, j);
    REQUIRE(ledger.by_node.size() == 2);
    const auto& zero = ledger.by_node.at("node-0");
    const auto& one = ledger.by_node.at("node-1");
    CHECK(zero[static_cast<int>(IdleState::kNotStorage)] == Approx(busy ? 1000 : 0));
    CHECK(zero[static_cast<int>(IdleState::kLatency)] == Approx(busy ? 1000 : 2000));
    CHECK(one[static_cast<int>(IdleState::kLatency)] == Approx(2000));
  }
  SECTION("one unit, one node's series") {
    Evidence job = Mount(minutes);
    Series util = Minutes("cpu.util_percent", cpu_zero);
    util.node = "node-0";
    job.series.push_back(util);
    const IdleLedger ledger = BuildIdleLedger(job, {}, j);
    CHECK(PlacedIn(ledger, IdleState::kNotStorage) == Approx(busy ? 1000 : 0));
    CHECK(PlacedIn(ledger, IdleState::kLatency) == Approx(busy ? 1000 : 2000));
  }
  SECTION("one unit, two nodes' series: whose CPU is not known") {
    Evidence job = Mount(minutes);
    for (const std::string name : {"node-0", "node-1"}) {
      Series util = Minutes("cpu.util_percent", cpu_zero);
      util.node = name;
      job.series.push_back(util);
    }
    const IdleLedger ledger = BuildIdleLedger(job, {}, j);
    CHECK(PlacedIn(ledger, IdleState::kNotStorage) == 0);
    CHECK(PlacedIn(ledger, IdleState::kLatency) == Approx(2000));
  }
}

TEST_CASE("placer: stops at the profile's checkpoint cadence are the job's writes",
          "[diagnosis][ledger][checkpoint]") {
  // A mount node of 8 GPUs, busy but for three 5-minute stops 30 minutes apart, its reads
  // going on throughout, in a job that writes through storage. Where the profile declares a
  // checkpoint every 30 minutes and no Ingress metric says when the job wrote, the stops were
  // the checkpoints' writes; at another cadence, without the declaration, with the metric
  // there to say (flat: no write), or in a job that writes nothing, the job's own code.
  const std::string variant =
      GENERATE(as<std::string>{}, "declared", "other cadence", "none", "ingress", "no outputs");
  const int minutes = 90;
  std::vector<double> lost(minutes, 0.0);
  for (int stop : {10, 40, 70})
    for (int m = stop; m < stop + 5; ++m) lost[static_cast<size_t>(m)] = 8 * kMinute;
  Evidence job = EightGpuMount(lost, 0, minutes);
  if (variant != "none")
    job.facts.Set(NumberFact("workload.checkpoint_every_s",
                             variant == "other cadence" ? 45 * kMinute : 30 * kMinute,
                             Unit::kSeconds, Provenance{}));
  if (variant == "ingress")
    job.series.push_back(Minutes("metrics.ingress_gbps", std::vector<double>(minutes, 0.2)));
  LedgerJudgement j;
  j.mount_state = IdleState::kUnknown;
  j.job_writes = variant != "no outputs";
  j.ingress_limit_gbps = 60;
  const IdleLedger ledger = BuildIdleLedger(job, {}, j);
  INFO(variant);
  const double stops = 3 * 5 * 8 * kMinute;
  CHECK(ledger.lost_gpu_s == Approx(stops));
  CHECK(PlacedIn(ledger, IdleState::kWrites) == Approx(variant == "declared" ? stops : 0));
  CHECK(PlacedIn(ledger, IdleState::kOwnCode) == Approx(variant == "declared" ? 0 : stops));
}
