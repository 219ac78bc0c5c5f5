// The ledger's placer (diagnosis/ledger_placer.h) rule by rule, on small made-up jobs built
// through the ledger: a property over each rule's threshold, on both sides of it.
//   - A mount node whose log shows its reads was served from its cache where they fell silent
//     for 5 minutes or more; a shorter gap is only its log's pace.
//   - Before a mount's first read, the node waited for it: no cache served it, and no stop was
//     the job's own.
//   - A throttled minute of the account's metrics is the window it covers; a log's refusal
//     line is padded by its retries' last delay either side, but not into a stop of the job's
//     own (its loop asked for nothing): there only a minute refused in it is the limit's.
//   - A minute whose throttling names only ServerBusyError was a target's, unless Egress was
//     pinned at the account's limit (97% of it); Transactions at theirs do not make it the
//     request limit.
//   - A bandwidth refusal while the node wrote its checkpoint, with Ingress at half its limit
//     or more, refused its writes.
//   - Past the mount cache's cap, re-reads held the node where it read slower than before;
//     rates that wander too much to show a slowing leave it unmeasured (the re-reads).
//   - After a mount's last read, GPUs stopped outright where no cache could serve (a job
//     that reads its input once) are the job's own; some GPUs fed, its cache's. So too a
//     final stop too short for a cache's silence, where the job reads its input once.
//   - A whole stop in a silence of a mount's reads is the job's own (nothing read for it).
//   - A stop in a mount nothing else settled is the job's own, unless the node read through
//     it and its reads ended with it: their latency.
//   - An Ingress burst is the job's writes only where its GPUs idled more in it than outside.
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
#include "diagnosis/latency_cap.h"
#include "diagnosis/ledger_judgement.h"
#include "diagnosis/ledger_unit.h"

using namespace feedcheck;
using namespace feedcheck::diagnosis;

namespace {

constexpr double kStart = 1.7e9;
constexpr double kMinute = 60;

Series Minutes(const std::string& key, const std::vector<double>& values) {
  Series s;
  s.key = key;
  for (size_t i = 0; i < values.size(); ++i)
    s.points.push_back({kStart + kMinute * static_cast<double>(i), values[i]});
  return s;
}

TimelineInterval Interval(const std::string& lane, const std::string& label, double from_min,
                          double to_min, const std::string& status) {
  TimelineInterval iv;
  iv.lane = lane;
  iv.label = label;
  iv.start_epoch_s = kStart + kMinute * from_min;
  iv.end_epoch_s = kStart + kMinute * to_min;
  iv.status = status;
  return iv;
}

// A mount of `minutes` minutes whose GPUs lost 100 GPU-s every minute (never a whole stop: no
// GPU count is given, so no stop is looked for).
Evidence Mount(int minutes) {
  Evidence job;
  job.series.push_back(Minutes("gpu.lost_gpu_s_by_time", std::vector<double>(minutes, 100)));
  job.timeline.push_back(Interval("data-runtime", "mount", -0.1, 0, "Success"));
  return job;
}

// A mount on a node of 8 GPUs that lost `lost[i]` GPU-s in minute i, its log's read spans
// closing from minute `reads_from` to `reads_to` (one span: they closed every half minute).
Evidence EightGpuMount(const std::vector<double>& lost, double reads_from, double reads_to) {
  Evidence job;
  job.series.push_back(Minutes("gpu.lost_gpu_s_by_time", lost));
  job.timeline.push_back(Interval("data-runtime", "mount", -0.1, 0, "Success"));
  job.timeline.push_back(Interval("reads", "span closes", reads_from, reads_to, "rslex"));
  job.facts.Set(NumberFact("gpu.count", 8, Unit::kCount, Provenance{}));
  return job;
}

double PlacedIn(const IdleLedger& ledger, IdleState s) { return ledger.Of(s); }

// A job that writes through storage (a checkpoint) on an account of 100 Gbit/s egress and
// 60 Gbit/s ingress, its mount served fast.
LedgerJudgement WritingJob() {
  LedgerJudgement j;
  j.egress_limit_gbps = 100;
  j.ingress_limit_gbps = 60;
  j.job_writes = true;
  j.mount_state = IdleState::kNotStorage;
  return j;
}

// A mount of 20 minutes whose node read 10 Gbit/s for its first 5 (its first epoch, filling
// the cache's cap), then `after_gbps` from storage; the job's evidence blames the cache, which
// holds half the input, and names `uncached` for the mount without it.
std::pair<Evidence, LedgerJudgement> HalfCachedMount(double after_gbps, IdleState uncached) {
  Evidence job = Mount(20);
  std::vector<double> egress;
  for (int i = 0; i < 20; ++i) egress.push_back(i < 5 ? 10 : after_gbps);
  job.series.push_back(Minutes("metrics.egress_gbps", egress));
  LedgerJudgement j;
  j.mount_state = IdleState::kCacheRereads;
  j.mount_state_uncached = uncached;
  j.mount_cache_cap_bytes = 10e9 / 8 * 60 * 5 - 1;
  j.mount_cache_miss_share = 0.5;
  return {job, j};
}

}  // namespace

TEST_CASE("placer: a mount's reads silent for 5 minutes or more were served by its cache",
          "[diagnosis][ledger]") {
  const int silence = GENERATE(1, 2, 3, 4, 6, 8, 10);
  // Reads for 10 minutes, silent for `silence`, then reads again for 10.
  const int minutes = 20 + silence;
  Evidence job = Mount(minutes);
  job.timeline.push_back(Interval("reads", "span closes", 0, 10, "rslex"));
  job.timeline.push_back(Interval("reads", "span closes", 10 + silence, minutes, "rslex"));
  LedgerJudgement j;
  j.mount_state = IdleState::kLatency;  // what the job's evidence says of its mount
  const IdleLedger ledger = BuildIdleLedger(job, {}, j);
  INFO("silent for " << silence << " min");
  CHECK(ledger.lost_gpu_s == Approx(100.0 * minutes));
  const double cached = PlacedIn(ledger, IdleState::kNotStorage);
  if (silence >= 5)
    CHECK(cached == Approx(100.0 * silence));
  else
    CHECK(cached == 0);
  CHECK(PlacedIn(ledger, IdleState::kLatency) == Approx(100.0 * minutes - cached));
}

TEST_CASE("placer: before a mount's first read nothing was cached, nor was a stop the job's own",
          "[diagnosis][ledger]") {
  // A mount whose node's first read closed at minute `first` (its first batch's reads took
  // that long), then read to the end; its 8 GPUs idle until then, busy after. The wait before
  // the first read is the mount's (its latency here), not a cache's silence (nothing was read
  // to cache) nor a stop of the job's own (it had no batch to work on).
  const int first = GENERATE(2, 6, 9);
  const int minutes = 40;
  std::vector<double> lost(minutes, 0.0);
  for (int i = 0; i < first; ++i) lost[static_cast<size_t>(i)] = 8 * kMinute;
  Evidence job = EightGpuMount(lost, first, minutes);
  LedgerJudgement j;
  j.mount_state = IdleState::kLatency;
  const IdleLedger ledger = BuildIdleLedger(job, {}, j);
  INFO("first read closed at minute " << first);
  CHECK(PlacedIn(ledger, IdleState::kLatency) == Approx(first * 8 * kMinute));
  CHECK(PlacedIn(ledger, IdleState::kNotStorage) == 0);
  CHECK(PlacedIn(ledger, IdleState::kOwnCode) == 0);
}

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

TEST_CASE("placer: past the cache's cap, re-reads hold a node only where it read slower",
          "[diagnosis][ledger]") {
  // A node reading 10 Gbit/s for 5 minutes fills a cap of 375 GB; then it reads at
  // `after_gbps`, its minutes in turn `wander` tenths under it, at it and over it (other
  // clients' traffic): each stretch's median stays its rate.
  const double after_gbps = GENERATE(10.0, 9.0, 5.0);
  const double wander = GENERATE(0.0, 0.5, 9.0);
  // Whether the job's evidence (a cache finding) blamed the cache: a measured pace that did not
  // slow clears it.
  const bool blamed = GENERATE(false, true);
  const int minutes = 20;
  Evidence job = Mount(minutes);
  std::vector<double> egress;
  for (int i = 0; i < minutes; ++i) {
    const double rate = i < 5 ? 10 : after_gbps;
    egress.push_back(rate + static_cast<double>(i % 3 - 1) * wander * rate / 10);
  }
  job.series.push_back(Minutes("metrics.egress_gbps", egress));
  LedgerJudgement j;
  j.mount_state = blamed ? IdleState::kCacheRereads : IdleState::kLatency;
  j.mount_state_uncached = IdleState::kLatency;
  j.mount_cache_cap_bytes = 10e9 / 8 * 60 * 5 - 1;
  const IdleLedger ledger = BuildIdleLedger(job, {}, j);
  INFO("after the cap " << after_gbps << " Gbit/s, wander " << wander << (blamed ? ", " : ", not ")
                        << "blamed");
  const double rereads = PlacedIn(ledger, IdleState::kCacheRereads);
  // Slower by half, or by a tenth without a wander (a wander of 5% over these few minutes
  // hides a tenth), or a wander of 90% that hides any slowing (not measured: the re-reads the
  // cap forces): the re-reads from the cap's minute on, never before it.
  const bool slower = after_gbps == 5 || (after_gbps == 9 && wander == 0);
  if (slower || wander > 5)
    CHECK(rereads >= 100.0 * 14);
  else
    CHECK(rereads == 0);
  CHECK(rereads <= 100.0 * 16);
  CHECK(rereads + PlacedIn(ledger, IdleState::kLatency) == Approx(100.0 * minutes));
}

TEST_CASE("placer: another workload filling the account does not make a slow re-read cached",
          "[diagnosis][ledger]") {
  // A node reads 10 Gbit/s for 5 minutes, filling its cache's cap, then re-reads at 2.4 (the
  // cache's blame stands: slower than its first reads). Another workload fills the account's
  // 200 Gbit/s in minutes 12-15 (or never). A minute is the cache's where the account served
  // next to nothing (2% of its most), its most below the limit: a burst at the limit is no
  // measure of what the job asked for, and its slow re-reads are not the cache serving.
  const bool burst = GENERATE(false, true);
  const int minutes = 20;
  Evidence job = Mount(minutes);
  std::vector<double> egress;
  for (int i = 0; i < minutes; ++i)
    egress.push_back(i < 5 ? 10 : burst && i >= 12 && i < 16 ? 200 : 2.4);
  job.series.push_back(Minutes("metrics.egress_gbps", egress));
  LedgerJudgement j;
  j.mount_state = IdleState::kCacheRereads;
  j.mount_state_uncached = IdleState::kLatency;
  j.mount_cache_cap_bytes = 10e9 / 8 * 60 * 5 - 1;
  j.egress_limit_gbps = 200;
  const IdleLedger ledger = BuildIdleLedger(job, {}, j);
  INFO((burst ? "a burst of others at the limit" : "no burst"));
  // Every re-read minute past the cap (5-19) but the burst's, which the account's limit holds.
  CHECK(PlacedIn(ledger, IdleState::kCacheRereads) >= 100.0 * (burst ? 11 : 15));
  CHECK(PlacedIn(ledger, IdleState::kNotStorage) == 0);
}

TEST_CASE("placer: past the cap a node reads only what its cache misses, at its own pace",
          "[diagnosis][ledger]") {
  // The cache holds half the input: past the cap a node at its first epoch's pace reads half
  // as much from storage. At 5 Gbit/s its pace is unchanged (its first reads' holder holds it);
  // at 2.5 Gbit/s it halved (its re-reads held it).
  const double after_gbps = GENERATE(5.0, 2.5);
  const auto [job, j] = HalfCachedMount(after_gbps, IdleState::kLatency);
  const IdleLedger ledger = BuildIdleLedger(job, {}, j);
  INFO("past the cap " << after_gbps << " Gbit/s from storage");
  const double rereads = PlacedIn(ledger, IdleState::kCacheRereads);
  if (after_gbps == 5)
    CHECK(rereads == 0);
  else
    CHECK(rereads >= 100.0 * 14);
  CHECK(rereads + PlacedIn(ledger, IdleState::kLatency) == Approx(100.0 * 20));
}

TEST_CASE("placer: no re-read before the cache filled, nor in a minute the cache served",
          "[diagnosis][ledger]") {
  // A node reads 10 Gbit/s for 5 minutes (filling a cache of 375 GB), 5 Gbit/s for 10 (slowed:
  // its re-reads), then nothing for 5 (the account served next to nothing: its cache). Its first
  // reads were held by its input pipeline (the state the cache finding would otherwise leave).
  // A cache whose disk a probe measured slow held it from the first minute.
  const bool disk_measured = GENERATE(false, true);
  Evidence job = Mount(20);
  std::vector<double> egress;
  for (int i = 0; i < 20; ++i) egress.push_back(i < 5 ? 10 : i < 15 ? 5 : 0.001);
  job.series.push_back(Minutes("metrics.egress_gbps", egress));
  LedgerJudgement j;
  j.mount_state = IdleState::kCacheRereads;
  j.mount_state_uncached = IdleState::kNotStorage;
  j.cache_disk_measured = disk_measured;
  j.mount_cache_cap_bytes = 10e9 / 8 * 60 * 5 - 1;
  const IdleLedger ledger = BuildIdleLedger(job, {}, j);
  INFO((disk_measured ? "a disk measured slow" : "a cap"));
  const double rereads = PlacedIn(ledger, IdleState::kCacheRereads);
  const double pipeline = PlacedIn(ledger, IdleState::kNotStorage);
  CHECK(rereads + pipeline == Approx(100.0 * 20));
  // The re-reads' ten minutes (a minute either side for where the cap's crossing falls), and
  // the first five too where the disk itself was slow; the cached minutes never.
  const double first = disk_measured ? 500 : 0;
  CHECK(rereads >= first + 100.0 * 9);
  CHECK(rereads <= first + 100.0 * 11);
}

TEST_CASE("judgement: a node's re-reads start after its first epoch, whatever the cap",
          "[diagnosis][ledger]") {
  // 800 GB over `nodes` nodes, a cache of `cap_gb`: each node reads its shard once, then (the
  // sampler reshuffling) re-reads unless its cache holds the whole input.
  const double nodes = GENERATE(1.0, 4.0);
  const double cap_gb = GENERATE(5.0, 150.0, 400.0, 800.0, 1000.0);
  Evidence job;
  auto add = [&](const char* key, double v, Unit u) {
    job.facts.Set(NumberFact(key, v, u, Provenance{}));
  };
  add("dataset.bytes", 800e9, Unit::kBytes);
  add("runtime.mount_cache_bytes", cap_gb * 1e9, Unit::kBytes);
  add("node.count", nodes, Unit::kCount);
  const LedgerJudgement j = JudgeEvidence(job, {}, ViewAccount(job.facts), {});
  INFO(nodes << " nodes, a " << cap_gb << " GB cache");
  if (cap_gb >= 800)
    CHECK(j.mount_cache_cap_bytes == 0);
  else
    CHECK(j.mount_cache_cap_bytes == Approx(800e9 / nodes));
  // It holds a node's first epoch (its shard) where its cap does, but not the whole input.
  CHECK(j.mount_cache_holds_first_epoch == (cap_gb >= 800 / nodes && cap_gb < 800));
}

TEST_CASE("judgement: with no cap, the local disk the cache fills is what it holds",
          "[diagnosis][ledger]") {
  // 800 GB over 2 nodes, DATASET_MOUNT_CACHE_SIZE unset: a disk of 275 GB re-reads after each
  // node's first epoch, one of 1 TB holds it all.
  const double disk_gb = GENERATE(275.0, 1000.0);
  Evidence job;
  job.facts.Set(NumberFact("dataset.bytes", 800e9, Unit::kBytes, Provenance{}));
  job.facts.Set(NumberFact("node.count", 2, Unit::kCount, Provenance{}));
  job.facts.Set(
      NumberFact("runtime.mount_cache_room_bytes", disk_gb * 1e9, Unit::kBytes, Provenance{}));
  const LedgerJudgement j = JudgeEvidence(job, {}, ViewAccount(job.facts), {});
  INFO("a disk of " << disk_gb << " GB");
  CHECK(j.mount_cache_cap_bytes == Approx(disk_gb < 800 ? 400e9 : 0));
  // A later epoch finds the disk's share of the input in it: the rest it reads again.
  CHECK(j.mount_cache_miss_share == Approx(disk_gb < 800 ? 1 - disk_gb / 800 : 1));
  // The input's size unknown: a node past its disk may be streaming a larger input once.
  Evidence unsized;
  unsized.facts.Set(
      NumberFact("runtime.mount_cache_room_bytes", disk_gb * 1e9, Unit::kBytes, Provenance{}));
  CHECK(JudgeEvidence(unsized, {}, ViewAccount(unsized.facts), {}).mount_cache_cap_bytes == 0);
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

TEST_CASE("placer: every GPU stopped in a checkpoint's last minute, apart from its stop, writes",
          "[diagnosis][ledger]") {
  // As above, the burst in minutes 21-28 and the node's stop with it; then, in the burst's
  // last minute (29, `edge` Gbit/s above the quiet ones), its GPUs stop again for 20 s, apart
  // from the stop (a node whose own share of the checkpoint came later). Likewise in minute
  // 45 (as far above the quiet ones, far from any burst) and minute 10 (quiet). Only the stop
  // in the burst's edge is the checkpoint's, when that minute stands above the quiet ones.
  const double edge_gbps = GENERATE(0.0, 3.0);
  const int minutes = 60;
  Evidence job;
  Series lost;
  lost.key = "gpu.lost_gpu_s_by_time";
  auto late = [](int i, int minute) { return i == minute * 6 + 3 || i == minute * 6 + 4; };
  for (int i = 0; i < minutes * 6; ++i) {
    const bool stop = i >= 21 * 6 && i < 29 * 6;
    lost.points.push_back(
        {kStart + 10.0 * i, stop || late(i, 29) || late(i, 45) || late(i, 10) ? 80.0 : 0.0});
  }
  job.series.push_back(lost);
  job.facts.Set(NumberFact("gpu.count", 8, Unit::kCount, Provenance{}));
  job.facts.Set(NumberFact("gpu.sample_interval_s", 10, Unit::kSeconds, Provenance{}));
  std::vector<double> ingress(minutes, 0.5);
  for (int i = 21; i < 29; ++i) ingress[i] = 40;
  ingress[20] = ingress[29] = ingress[45] = 0.5 + edge_gbps;
  job.series.push_back(Minutes("metrics.ingress_gbps", ingress));
  job.timeline.push_back(Interval("data-runtime", "mount", -0.1, 0, "Success"));
  LedgerJudgement j;
  j.job_writes = true;
  j.mount_state = IdleState::kNotStorage;
  const IdleLedger ledger = BuildIdleLedger(job, {}, j);
  INFO("the edge minutes " << edge_gbps << " Gbit/s above the quiet ones");
  const double burst = 8 * 6 * 80.0, late_stop = 2 * 80.0;
  CHECK(PlacedIn(ledger, IdleState::kWrites) == Approx(edge_gbps >= 1 ? burst + late_stop : burst));
  CHECK(PlacedIn(ledger, IdleState::kNotStorage) ==
        Approx(edge_gbps >= 1 ? 2 * late_stop : 3 * late_stop));
}

TEST_CASE("placer: GPUs stopped after a mount's last read are own code where no cache served",
          "[diagnosis][ledger]") {
  // 8 GPUs idle throughout while the mount reads for 10 minutes (its pace makes any stop
  // likely), then its reads fall silent for the last 8: wholly stopped, or some GPUs fed.
  const bool once = GENERATE(false, true);
  const bool stopped = GENERATE(false, true);
  std::vector<double> lost(18, 8 * kMinute);
  for (size_t i = 10; i < lost.size(); ++i) lost[i] = stopped ? 8 * kMinute : 6 * kMinute;
  Evidence job = EightGpuMount(lost, 0, 10);
  LedgerJudgement j;
  j.mount_state = IdleState::kLatency;
  j.reads_input_once = once;  // else a cache of unknown size may hold what it reads
  const IdleLedger ledger = BuildIdleLedger(job, {}, j);
  INFO((once ? "read once" : "epochs unknown") << (stopped ? ", stopped" : ", some GPUs fed"));
  const double silent = stopped ? 8 * 8 * kMinute : 8 * 6 * kMinute;
  CHECK(PlacedIn(ledger, IdleState::kLatency) == Approx(10 * 8 * kMinute));
  CHECK(PlacedIn(ledger, IdleState::kOwnCode) == Approx(once && stopped ? silent : 0));
  CHECK(PlacedIn(ledger, IdleState::kNotStorage) == Approx(once && stopped ? 0 : silent));
}

TEST_CASE("placer: a final stop after a mount's last read, shorter than a cache's silence",
          "[diagnosis][ledger]") {
  // 8 GPUs idle throughout while the mount reads for 10 minutes (its pace makes any stop
  // likely), then stopped for the last 4 with no read (its log closed spans every half
  // minute): too short a silence to be a cache's by itself. Where the job reads its input once
  // no cache can have served it: the job's own stop (a final evaluation).
  const bool once = GENERATE(false, true);
  std::vector<double> lost(14, 8 * kMinute);
  Evidence job = EightGpuMount(lost, 0, 10);
  job.facts.Set(NumberFact("runtime.read_gap_fence_s", 60, Unit::kSeconds, Provenance{}));
  LedgerJudgement j;
  j.mount_state = IdleState::kLatency;
  j.reads_input_once = once;
  const IdleLedger ledger = BuildIdleLedger(job, {}, j);
  INFO((once ? "read once" : "epochs unknown"));
  CHECK(PlacedIn(ledger, IdleState::kLatency) == Approx((once ? 10 : 14) * 8 * kMinute));
  CHECK(PlacedIn(ledger, IdleState::kOwnCode) == Approx(once ? 4 * 8 * kMinute : 0));
}

TEST_CASE("placer: a stop in a silence of a mount's reads is the job's own, not its cache's",
          "[diagnosis][ledger]") {
  // An hour of 8 GPUs busy but for three one-minute stops, a mount served fast throughout (its
  // log's spans close every half minute: one read span). Around each stop the reads fell
  // silent for a minute and a half (the log's silences), or went on through it.
  const bool silent = GENERATE(false, true);
  std::vector<double> lost(60, 0.0);
  for (size_t at : {15, 31, 47}) lost[at] = 8 * kMinute;
  Evidence job = EightGpuMount(lost, 0, 60);
  for (size_t at : {15, 31, 47}) {
    const double m = static_cast<double>(at);
    if (silent)
      job.timeline.push_back(
          Interval("read silences", "no span closed", m - 0.3, m + 1.2, "rslex"));
  }
  LedgerJudgement j;
  j.mount_state = IdleState::kNotStorage;
  const IdleLedger ledger = BuildIdleLedger(job, {}, j);
  INFO((silent ? "reads silent in each stop" : "reads went on through the stops"));
  const double stops = 3 * 8 * kMinute;
  CHECK(PlacedIn(ledger, IdleState::kOwnCode) == Approx(silent ? stops : 0));
  CHECK(PlacedIn(ledger, IdleState::kNotStorage) == Approx(silent ? 0 : stops));
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
      Series lost = Minutes("gpu.lost_gpu_s_by_time", std::vector<double>(minutes, 100));
      lost.node = name;
      for (const auto& p : lost.points) job.series.front().points.push_back(p);
      Series util = Minutes("cpu.util_percent",
                            name == "node-0" ? cpu_zero : std::vector<double>(minutes, 20));
      util.node = name;
      job.series.push_back(util);
      TimelineInterval mount = Interval("data-runtime", "mount", -0.1, 0, "Success");
      mount.node = name;
      job.timeline.push_back(mount);
      analyzers::NodeEvidence n;
      n.node = name;
      n.evidence.series.push_back(lost);
      n.evidence.timeline.push_back(mount);
      nodes.push_back(std::move(n));
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

TEST_CASE("placer: a cache that held each node's first epoch is cleared where re-reads kept pace",
          "[diagnosis][ledger][cache]") {
  // The cache holds half the input but each node's whole first epoch, or less than that. A node
  // reads 10 Gbit/s in its first epoch (5 minutes), then half as much from storage at the same
  // pace (its cache serves the rest) or a quarter (its re-reads slowed it). Nothing names what
  // held its first reads (the mount's state without the cache: unknown, or not storage). Where
  // the cache held the whole first epoch nothing was pruned before the re-reads began, so a
  // pace kept clears the cache's blame: the state is whatever held the first reads, from the
  // first minute. A cap under the first epoch may have thrashed from the start: the blame stays
  // (but for the first reads, where something names their holder).
  const bool holds_first_epoch = GENERATE(true, false);
  const double after_gbps = GENERATE(5.0, 2.5);
  const IdleState uncached = GENERATE(IdleState::kUnknown, IdleState::kNotStorage);
  auto [job, j] = HalfCachedMount(after_gbps, uncached);
  j.mount_cache_holds_first_epoch = holds_first_epoch;
  const IdleLedger ledger = BuildIdleLedger(job, {}, j);
  INFO((holds_first_epoch ? "holds" : "under") << " the first epoch; past it " << after_gbps
                                               << " Gbit/s; uncached " << IdleStateKey(uncached));
  const double rereads = PlacedIn(ledger, IdleState::kCacheRereads);
  if (holds_first_epoch && after_gbps == 5) {
    CHECK(rereads == 0);
    CHECK(PlacedIn(ledger, uncached) == Approx(100.0 * 20));
  } else if (after_gbps == 2.5) {
    // Slowed: the re-reads held the node past the cap (a minute either side for where the
    // crossing falls); before it, where the cache held the first epoch, never.
    CHECK(rereads >= 100.0 * 14);
    if (holds_first_epoch) CHECK(rereads <= 100.0 * 16);
  } else {
    // A cap under the first epoch: the blame stands past the cap, and before it where nothing
    // names what held the first reads.
    CHECK(rereads == Approx(uncached == IdleState::kUnknown ? 100.0 * 20 : 100.0 * 15));
  }
}

TEST_CASE("placer: a cap many times the reads in flight is cleared where re-reads kept pace",
          "[diagnosis][ledger][cache]") {
  // As above, the cache under each node's first epoch; its cap many times what the mount keeps
  // in flight, or not. An LRU cache thrashes a pass only when its reads under way outgrow it:
  // a cap that outlasts them pruned only reads done, so a pace kept past it clears the
  // cache's blame (the node's loader, its own code held it: not storage); a slowed pace keeps
  // it.
  const bool outlasts = GENERATE(true, false);
  const double after_gbps = GENERATE(5.0, 2.5);
  auto [job, j] = HalfCachedMount(after_gbps, IdleState::kNotStorage);
  j.mount_cache_outlasts_in_flight = outlasts;
  const IdleLedger ledger = BuildIdleLedger(job, {}, j);
  INFO((outlasts ? "outlasts" : "not many times")
       << " the reads in flight; past the cap " << after_gbps << " Gbit/s");
  const double rereads = PlacedIn(ledger, IdleState::kCacheRereads);
  if (outlasts && after_gbps == 5) {
    CHECK(rereads == 0);
    CHECK(PlacedIn(ledger, IdleState::kNotStorage) == Approx(100.0 * 20));
  } else if (after_gbps == 2.5) {
    CHECK(rereads >= 100.0 * 14);
  } else {
    CHECK(rereads == Approx(100.0 * 15));
  }
}

TEST_CASE("judgement: a cap outlasts the mount's reads in flight by its threads and open files",
          "[diagnosis][ledger][cache]") {
  // 96 vCPUs (384 threads of 2 MB blocks: 768 MB in flight), or 8 threads set; 4 readers of
  // 1.4 GB files (a whole-file cache holds each open one: 5.6 GB), or small files (100 kB), or
  // the readers and files unknown (open files unknown may outgrow any cap: nothing is known).
  // A 30 GB cap is four times 5.6 GB and more; a 3 GB cap is four times 768 MB.
  const double cap = GENERATE(3e9, 30e9);
  const bool threads_set = GENERATE(false, true);
  const double file = GENERATE(0.0, 1e5, 1.4e9);  // 0: readers and files unknown
  Evidence job;
  job.facts.Set(NumberFact("runtime.mount_cache_bytes", cap, Unit::kBytes, Provenance{}));
  job.facts.Set(NumberFact("node.vcpus", 96, Unit::kCount, Provenance{}));
  if (threads_set)
    job.facts.Set(TextFact("runtime.setting.DATASET_MOUNT_READ_THREADS", "8", Provenance{}));
  if (file > 0) {
    job.facts.Set(NumberFact("workload.readers", 4, Unit::kCount, Provenance{}));
    job.facts.Set(NumberFact("dataset.median_file_bytes", file, Unit::kBytes, Provenance{}));
  }
  const double in_flight = std::max(threads_set ? 8 * 2e6 : 384 * 2e6, 4 * file);
  const LedgerJudgement j = JudgeEvidence(job, {}, ViewAccount(job.facts), {});
  INFO("cap " << cap << ", in flight " << in_flight << ", file " << file);
  if (file > 0) {
    CHECK(MountBytesInFlight(job.facts) == Approx(in_flight));
    CHECK(j.mount_cache_outlasts_in_flight == (cap >= 4 * in_flight));
  } else {
    CHECK_FALSE(MountBytesInFlight(job.facts));
    CHECK_FALSE(j.mount_cache_outlasts_in_flight);
  }
}
