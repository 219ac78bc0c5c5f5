// The ledger's mount cache (diagnosis/ledger_placer.h, diagnosis/ledger_judgement.h) rule by
// rule, on small made-up jobs built through the ledger: a property over each rule's threshold,
// on both sides of it.
//   - A mount node whose log shows its reads was served from its cache where they fell silent
//     for 5 minutes or more; a shorter gap is only its log's pace.
//   - Before a mount's first read, the node waited for it: no cache served it, and no stop was
//     the job's own.
//   - Past the mount cache's cap, re-reads held the node where it read slower than before;
//     rates that wander too much to show a slowing leave it unmeasured (the re-reads).
//   - After a mount's last read, GPUs stopped outright where no cache could serve (a job
//     that reads its input once) are the job's own; some GPUs fed, its cache's. So too a
//     final stop too short for a cache's silence, where the job reads its input once.
//   - A whole stop in a silence of a mount's reads is the job's own (nothing read for it).
//   - A cache that held each node's first epoch is cleared where the nodes re-read at their
//     first pace.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "diagnosis/account_view.h"
#include "diagnosis/idle_ledger.h"
#include "diagnosis/ledger_judgement.h"
#include "tests/diagnosis/ledger_test_jobs.h"

using namespace feedcheck;
using namespace feedcheck::diagnosis;
using namespace feedcheck::diagnosis::ledger_test;

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
  // 200 Gbit/s in minutes 12-15, or from minute 8 to the end, or never. A minute is the
  // cache's where the account served next to nothing (2% of its most), its most below the
  // limit; and a minute at the limit measures the account, not the node's pace: its slow
  // re-reads are neither the cache serving nor a pace kept.
  const int burst_from = GENERATE(0, 12, 8);  // 0: no burst
  const int minutes = 20;
  const int burst_to = burst_from == 12 ? 16 : minutes;
  Evidence job = Mount(minutes);
  std::vector<double> egress;
  for (int i = 0; i < minutes; ++i)
    egress.push_back(i < 5 ? 10 : burst_from > 0 && i >= burst_from && i < burst_to ? 200 : 2.4);
  job.series.push_back(Minutes("metrics.egress_gbps", egress));
  LedgerJudgement j;
  j.mount_state = IdleState::kCacheRereads;
  j.mount_state_uncached = IdleState::kLatency;
  j.mount_cache_cap_bytes = 10e9 / 8 * 60 * 5 - 1;
  j.egress_limit_gbps = 200;
  const IdleLedger ledger = BuildIdleLedger(job, {}, j);
  INFO("a burst of others at the limit from minute " << burst_from << " to " << burst_to);
  // Every re-read minute past the cap (5-19) but the burst's, which the account's limit holds.
  const int rereads = 15 - (burst_from > 0 ? burst_to - burst_from : 0);
  CHECK(PlacedIn(ledger, IdleState::kCacheRereads) >= 100.0 * rereads);
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

TEST_CASE("placer: small requests with no cap to weigh them are their latency's, cache or not",
          "[diagnosis][ledger]") {
  // The node slowed past its cache's cap, and a cache finding blames it; but its requests are
  // small and nothing gives their latency cap: one request per file holds first reads and
  // re-reads alike. Where the requests are large, or a probe measured the cache's disk itself
  // slow, the re-reads keep the time past the cap.
  const bool small = GENERATE(true, false);
  const bool disk_measured = GENERATE(false, true);
  auto [job, j] = HalfCachedMount(2.5, IdleState::kLatency);
  j.small_requests = small;
  j.latency_cap_gbps = 0;
  j.cache_disk_measured = disk_measured;
  const IdleLedger ledger = BuildIdleLedger(job, {}, j);
  INFO((small ? "small requests" : "large requests") << (disk_measured ? ", disk slow" : ""));
  const double rereads = PlacedIn(ledger, IdleState::kCacheRereads);
  CHECK(rereads + PlacedIn(ledger, IdleState::kLatency) == Approx(100.0 * 20));
  if (small && !disk_measured)
    CHECK(rereads == 0);
  else
    CHECK(rereads >= 100.0 * 14);
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
