// The idle ledger (diagnosis/idle_ledger.h) on drawn jobs: what it keeps beside its states. Of
// its not_storage time, the GPU-seconds that fell in mount minutes in which the account served
// next to nothing are counted as the mount's cache (what the none-found fix's wording reads).
// A job whose GPU samples are in one folder has its ledger by node too: each bucket's state
// shared by the nodes idle in it, summing to the job's states and to each node's GPU time lost.
// It says too whether the data runtime's log placed its time (what the cause's sources read).
// One file of the job's GPUs that names their nodes, each node's logs in a folder of that name:
// each node's stops are judged on its own samples (a stop of one node is no stop of the job's).
// A node whose own log shows it read nothing and met no failure is its own, though the job's
// other nodes failed on access.
#include "diagnosis/idle_ledger.h"

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <random>

#include "analyzers/gpu_idle_ledger.h"
#include "analyzers/throttle_kind.h"
#include "tests/diagnosis/ledger_test_jobs.h"

using namespace feedcheck;
using namespace feedcheck::diagnosis;

using feedcheck::diagnosis::ledger_test::kMinute;
using feedcheck::diagnosis::ledger_test::kStart;

namespace {

Series MakeSeries(const std::string& key, std::vector<SeriesPoint> points) {
  Series s;
  s.key = key;
  s.points = std::move(points);
  return s;
}

// A mount that succeeded, from just before kStart to `end` (of `node`, or the job's).
TimelineInterval Mount(double end, const std::string& node = "") {
  TimelineInterval mount;
  mount.lane = "data-runtime";
  mount.label = "mount";
  mount.start_epoch_s = kStart - 1;
  mount.end_epoch_s = end;
  mount.status = "Success";
  mount.node = node;
  return mount;
}

// One mount of `minutes` minutes; each minute its GPUs lost `lost[i]` GPU-s while the account
// served `egress[i]` Gbit/s.
Evidence MountJob(const std::vector<double>& lost, const std::vector<double>& egress) {
  Evidence job;
  std::vector<SeriesPoint> lost_points, egress_points;
  for (size_t i = 0; i < lost.size(); ++i) {
    lost_points.push_back({kStart + kMinute * static_cast<double>(i), lost[i]});
    egress_points.push_back({kStart + kMinute * static_cast<double>(i), egress[i]});
  }
  job.series.push_back(MakeSeries("gpu.lost_gpu_s_by_time", lost_points));
  job.series.push_back(MakeSeries("metrics.egress_gbps", egress_points));
  job.timeline.push_back(Mount(kStart + kMinute * static_cast<double>(lost.size())));
  return job;
}

}  // namespace

TEST_CASE("the ledger counts the not_storage time a mount served from its cache",
          "[diagnosis][ledger]") {
  std::mt19937 rng(GENERATE(1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u));
  std::uniform_real_distribution<double> gpu_s(0, 480);
  std::bernoulli_distribution quiet(0.4);
  const int minutes = 30;
  std::vector<double> lost(minutes), egress(minutes);
  double quiet_lost = 0, total = 0;
  for (int i = 0; i < minutes; ++i) {
    lost[i] = gpu_s(rng);
    // A quiet minute: under 2% of the job's peak (10 Gbit/s); else the account served it.
    const bool q = quiet(rng) && i != 0;
    egress[i] = i == 0 ? 10 : q ? 0.1 : 2 + 8 * gpu_s(rng) / 480;
    total += lost[i];
    if (q) quiet_lost += lost[i];
  }
  const Evidence job = MountJob(lost, egress);
  // Storage served the job fast wherever it served it: every idle minute is not storage's.
  LedgerJudgement served_fast;
  served_fast.mount_state = IdleState::kNotStorage;
  const IdleLedger ledger = BuildIdleLedger(job, {}, served_fast);
  INFO("quiet " << quiet_lost << " of " << total);
  CHECK(ledger.lost_gpu_s == Approx(total));
  CHECK(ledger.Of(IdleState::kNotStorage) == Approx(total));
  CHECK(ledger.cached_gpu_s == Approx(quiet_lost).margin(1e-6));
  // Nothing known of the mount's other minutes: only the quiet ones are placed (the cache).
  LedgerJudgement unknown;
  const IdleLedger unplaced = BuildIdleLedger(job, {}, unknown);
  CHECK(unplaced.Of(IdleState::kNotStorage) == Approx(quiet_lost).margin(1e-6));
  CHECK(unplaced.cached_gpu_s == Approx(quiet_lost).margin(1e-6));
  CHECK(unplaced.Of(IdleState::kUnknown) == Approx(total - quiet_lost).margin(1e-6));
}

TEST_CASE("a job's GPU samples in one folder: the ledger by node sums to its states",
          "[diagnosis][ledger][nodes]") {
  const unsigned seed = GENERATE(range(1u, 13u));
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> node_count(2, 5), gpus_per_node(1, 8);
  std::uniform_real_distribution<double> util(0, 100);
  std::bernoulli_distribution quiet(0.3);
  const int nodes = node_count(rng), gpus = gpus_per_node(rng);
  const int minutes = 40;
  // Every GPU sampled every 10 s: the analyzers' ledger of the whole job, nodes named by file.
  analyzers::GpuIdleLedger samples(10);
  for (int t = 0; t < minutes * 6; ++t)
    for (int n = 0; n < nodes; ++n) {
      // A node idles in streaks, at its own times.
      const double u = (t / 7 + n * 3 + static_cast<int>(seed)) % 4 == 0 ? 2 : util(rng);
      for (int g = 0; g < gpus; ++g)
        samples.Add(fmt::format("node-{}/gpu{}", n, g), fmt::format("node-{}", n), kStart + 10 * t,
                    u);
    }
  Evidence job;
  samples.Finish(&job, {FactOrigin::kObserved, "samples", "gpu", 0});
  // The account served the job fast, or next to nothing (the mount's cache), minute by minute.
  std::vector<SeriesPoint> egress;
  for (int m = 0; m < minutes + 1; ++m)
    egress.push_back({kStart + kMinute * m, m == 0 ? 10 : quiet(rng) ? 0.05 : 5});
  job.series.push_back(MakeSeries("metrics.egress_gbps", egress));
  TimelineInterval mount;
  mount.lane = "data-runtime";
  mount.label = "mount";
  mount.start_epoch_s = kStart + 5 * kMinute;  // unknown before it
  mount.end_epoch_s = kStart + kMinute * (minutes + 1);
  mount.status = "Success";
  job.timeline.push_back(mount);
  LedgerJudgement judgement;
  judgement.nodes = nodes;
  const IdleLedger ledger = BuildIdleLedger(job, {}, judgement);
  REQUIRE(ledger.lost_gpu_s > 0);
  REQUIRE(ledger.by_node.size() == static_cast<size_t>(nodes));
  // Each state's GPU time is its nodes' together.
  for (IdleState s : AllIdleStates()) {
    double nodes_s = 0;
    for (const auto& [node, by_state] : ledger.by_node) nodes_s += by_state[static_cast<int>(s)];
    INFO("state " << IdleStateKey(s));
    CHECK(nodes_s == Approx(ledger.Of(s)).margin(1e-6));
  }
  // Each node's states sum to the GPU time its own samples lost.
  for (const auto& [node, by_state] : ledger.by_node) {
    double sum = 0;
    for (double v : by_state) sum += v;
    const Fact* own = job.facts.Find("gpu.node_lost_gpu_s." + node);
    REQUIRE(own != nullptr);
    INFO("node " << node);
    CHECK(sum == Approx(own->number()).margin(1e-6));
  }
  // More than one state was placed, so the split is not one state copied to every node.
  int states = 0;
  for (IdleState s : AllIdleStates()) states += ledger.Of(s) > 0;
  CHECK(states >= 2);
  // A node that read nothing is taken out of every state in proportion: no split is claimed.
  LedgerJudgement dead = judgement;
  dead.nodes_reading_nothing = {"node-0"};
  dead.nodes_reading_nothing_gpu_s = job.facts.Find("gpu.node_lost_gpu_s.node-0")->number();
  CHECK(BuildIdleLedger(job, {}, dead).by_node.empty());
}

TEST_CASE("the ledger says whether the data runtime's log placed its time",
          "[diagnosis][ledger][sources]") {
  // What the cause's agreeing sources read: a download or mount on the timeline placed the time
  // (the data-runtime log agrees), none did; from facts alone, the phases the analyzers timed.
  std::mt19937 rng(GENERATE(1u, 2u, 3u, 4u));
  std::uniform_real_distribution<double> gpu_s(0, 480);
  std::vector<double> lost(20), egress(20, 5);
  for (auto& l : lost) l = gpu_s(rng);
  const std::string label = GENERATE(as<std::string>{}, "mount", "download", "upload", "");
  Evidence job = MountJob(lost, egress);
  job.timeline[0].label = label;
  if (label.empty()) job.timeline.clear();
  const bool placed = label == "mount" || label == "download";
  const IdleLedger ledger = BuildIdleLedger(job, {}, LedgerJudgement{});
  CHECK(ledger.placed_by_data_runtime == placed);
  CHECK(ledger.lost_gpu_s > 0);
  // No series: the facts a saved report kept.
  const Provenance p{FactOrigin::kDerived, "test", "", 0};
  Evidence saved;
  saved.facts.Set(NumberFact("gpu.lost_gpu_s", ledger.lost_gpu_s, Unit::kSeconds, p));
  if (placed)
    saved.facts.Set(NumberFact("gpu.lost_download_gpu_s", ledger.lost_gpu_s, Unit::kSeconds, p));
  const IdleLedger from_facts = BuildIdleLedger(saved, {}, LedgerJudgement{});
  CHECK(from_facts.known);
  CHECK(from_facts.placed_by_data_runtime == placed);
  CHECK(from_facts.lost_gpu_s == Approx(ledger.lost_gpu_s));
}

TEST_CASE("one file of the job's GPUs by node: each node's stops are judged on its own",
          "[diagnosis][ledger][nodes]") {
  // Three nodes of 4 GPUs sampled every 10 s in one file that names them (Azure ML's
  // GpuUtilization by NodeId), each GPU idle 30% of its samples at random (the loader's pace),
  // and each node stopped outright for 4 minutes at its own time (a validation). On the job's
  // sum no minute is a stop of all 12 GPUs; on each node's it is.
  const unsigned seed = GENERATE(range(1u, 7u));
  // The nodes' logs in folders by the names the file gives, or by others (nothing to match);
  // or node-2 left no logs: the file's nodes are the job's, and nothing places node-2's time.
  enum class Folders { kNamedAlike, kNamedOtherwise, kNodeTwoWithout };
  const Folders folders =
      GENERATE(Folders::kNamedAlike, Folders::kNamedOtherwise, Folders::kNodeTwoWithout);
  const bool named_alike = folders != Folders::kNamedOtherwise;
  std::mt19937 rng(seed);
  std::bernoulli_distribution waits(0.3);
  const int nodes = 3, gpus = 4, minutes = 60;
  analyzers::GpuIdleLedger samples(10);
  for (int t = 0; t < minutes * 6; ++t)
    for (int n = 0; n < nodes; ++n) {
      const int from = (15 + 12 * n) * 6;
      const bool stopped = t >= from && t < from + 24;
      for (int g = 0; g < gpus; ++g)
        samples.Add(fmt::format("node-{}/gpu{}", n, g), fmt::format("node-{}", n), kStart + 10 * t,
                    stopped || waits(rng) ? 2 : 70);
    }
  Evidence job;
  samples.Finish(&job, {FactOrigin::kObserved, "samples", "gpu", 0});
  std::vector<analyzers::NodeEvidence> logs;
  for (int n = 0; n < nodes; ++n) {
    if (folders == Folders::kNodeTwoWithout && n == 2) continue;
    const std::string name = (named_alike ? "node-" : "rank-") + std::to_string(n);
    TimelineInterval mount;
    mount.lane = "data-runtime";
    mount.label = "mount";
    mount.node = name;
    mount.start_epoch_s = kStart - 1;
    mount.end_epoch_s = kStart + kMinute * minutes;
    mount.status = "Success";
    job.timeline.push_back(mount);
    analyzers::NodeEvidence node_logs;
    node_logs.node = name;
    node_logs.evidence.timeline.push_back(mount);
    logs.push_back(std::move(node_logs));
  }
  LedgerJudgement judgement;
  judgement.nodes = nodes;
  judgement.mount_state = IdleState::kNotStorage;  // storage served it fast
  const IdleLedger ledger = BuildIdleLedger(job, logs, judgement);
  INFO("seed " << seed << ", folders " << static_cast<int>(folders));
  const double stops = nodes * gpus * 240.0;
  if (folders == Folders::kNodeTwoWithout) {
    REQUIRE(ledger.by_node.size() == static_cast<size_t>(nodes));
    const auto& two = ledger.by_node.at("node-2");
    double all = 0;
    for (double v : two) all += v;
    CHECK(two[static_cast<int>(IdleState::kUnknown)] == Approx(all));
    CHECK(ledger.by_node.at("node-0")[static_cast<int>(IdleState::kOwnCode)] ==
          Approx(gpus * 240.0).epsilon(0.05));
  } else if (named_alike) {
    CHECK(ledger.Of(IdleState::kOwnCode) == Approx(stops).epsilon(0.05));
    REQUIRE(ledger.by_node.size() == static_cast<size_t>(nodes));
    for (int n = 0; n < nodes; ++n) {
      const std::string node = fmt::format("node-{}", n);
      INFO("node " << node);
      CHECK(ledger.by_node.at(node)[static_cast<int>(IdleState::kOwnCode)] ==
            Approx(gpus * 240.0).epsilon(0.05));
    }
  } else {
    CHECK(ledger.Of(IdleState::kOwnCode) == 0);
  }
  CHECK(ledger.lost_gpu_s == Approx(job.facts.Find("gpu.lost_gpu_s")->number()));
}

TEST_CASE("a node that read nothing and met no failure is its own, though the job failed",
          "[diagnosis][ledger][nodes]") {
  // Two nodes, 10 minutes, every GPU-second lost. node-0's log shows its mount failing (the
  // input's name never resolved); node-1 read nothing. Where node-1's own log shows no failure,
  // its GPUs idled for a reason of its own (a dead node): its time is not_storage_node. Where
  // its log shows the failure too, or it left no log, the job's access failure holds it.
  enum class NodeOne { kOwnLogNoFailure, kOwnLogFailed, kNoLog };
  const NodeOne one = GENERATE(NodeOne::kOwnLogNoFailure, NodeOne::kOwnLogFailed, NodeOne::kNoLog);
  const int minutes = 10;
  Evidence job;
  std::vector<analyzers::NodeEvidence> nodes;
  std::vector<SeriesPoint> job_points;
  for (int m = 0; m < minutes; ++m) job_points.push_back({kStart + kMinute * m, 200});
  job.series.push_back(MakeSeries("gpu.lost_gpu_s_by_time", job_points));
  auto failed_mount = [&](const std::string& node) {
    TimelineInterval mount;
    mount.lane = "data-runtime";
    mount.label = "mount";
    mount.start_epoch_s = kStart - 1;
    mount.end_epoch_s = kStart + 5 * kMinute;
    mount.status = "Failure";
    mount.node = node;
    job.timeline.push_back(mount);
  };
  failed_mount("node-0");
  if (one == NodeOne::kOwnLogFailed) failed_mount("node-1");
  for (const std::string name : {"node-0", "node-1"}) {
    analyzers::NodeEvidence n;
    n.node = name;
    std::vector<SeriesPoint> points;
    for (int m = 0; m < minutes; ++m) points.push_back({kStart + kMinute * m, 100});
    Series lost = MakeSeries("gpu.lost_gpu_s_by_time", points);
    lost.node = name;
    n.evidence.series.push_back(lost);
    if (name == "node-0" || one != NodeOne::kNoLog)
      n.evidence.facts.Set(NumberFact("runtime.non_success_responses", 0, Unit::kCount, {}));
    nodes.push_back(std::move(n));
  }
  LedgerJudgement j;
  j.access_failed = true;
  j.access_onset_s = kStart - 1;
  j.nodes = 2;
  j.nodes_reading_nothing = {"node-1"};
  const IdleLedger ledger = BuildIdleLedger(job, nodes, j);
  INFO("node-1: " << static_cast<int>(one));
  REQUIRE(ledger.by_node.count("node-1") == 1);
  const auto& node_one = ledger.by_node.at("node-1");
  const double own = node_one[static_cast<int>(IdleState::kNotStorageNode)];
  const double access = node_one[static_cast<int>(IdleState::kAccess)];
  if (one == NodeOne::kOwnLogNoFailure) {
    CHECK(own == Approx(100.0 * minutes));
    CHECK(access == 0);
  } else {
    CHECK(access == Approx(100.0 * minutes));
    CHECK(own == 0);
  }
  // node-0 failed: access, whatever node-1 did.
  CHECK(ledger.by_node.at("node-0")[static_cast<int>(IdleState::kAccess)] ==
        Approx(100.0 * minutes));
}

TEST_CASE("a checkpoint refused in part: the node's refusal lines say when, to one of their gaps",
          "[diagnosis][ledger][nodes]") {
  // One node of 8 GPUs, 20 minutes in 10 s buckets, writing a checkpoint from minute 5 to 8
  // (every GPU idle, the account's Ingress in a burst at 58 of its 60 Gbit/s). The account's
  // metrics refused minutes 5 to 8, every client's; the node's own log wrote a refusal every 10 s
  // from 6:30 to 7:00. While it writes, the node was refused only about its lines: a gap before the
  // first and after the last. Where its log wrote one line a stretch (no gap to go by), the
  // account's minutes hold.
  const bool single_lines = GENERATE(false, true);
  const double bucket = 10, end = kStart + 20 * kMinute;
  const double ckpt_from = kStart + 5 * kMinute, ckpt_to = kStart + 8 * kMinute;
  Evidence job;
  std::vector<SeriesPoint> lost, ingress;
  for (double t = kStart; t < end; t += bucket)
    lost.push_back({t, t >= ckpt_from && t < ckpt_to ? 8 * bucket : 0});
  for (double t = kStart; t < end; t += kMinute)
    ingress.push_back({t, t >= ckpt_from && t < ckpt_to ? 58 : 0.5});
  job.series.push_back(MakeSeries("gpu.lost_gpu_s_by_time", lost));
  job.series.push_back(MakeSeries("metrics.ingress_gbps", ingress));
  const TimelineInterval mount = Mount(end, "node-0");
  job.timeline.push_back(mount);
  TimelineInterval minutes;
  minutes.lane = "storage";
  minutes.label = "ClientAccountBandwidthThrottlingError";
  minutes.status = "metrics";
  minutes.start_epoch_s = ckpt_from;
  minutes.end_epoch_s = ckpt_to;
  job.timeline.push_back(minutes);

  analyzers::NodeEvidence n;
  n.node = "node-0";
  Series node_lost = MakeSeries("gpu.lost_gpu_s_by_time", lost);
  node_lost.node = "node-0";
  n.evidence.series.push_back(node_lost);
  n.evidence.timeline.push_back(mount);
  const double first = kStart + 6.5 * kMinute, last = kStart + 7 * kMinute;
  double lines = 0;
  auto refusal = [&](double from, double to) {
    TimelineInterval iv;
    iv.lane = "storage";
    iv.status = "rslex";
    iv.label = std::string(analyzers::ThrottleKindLabel(analyzers::ThrottleKind::kIngress));
    iv.start_epoch_s = from;
    iv.end_epoch_s = to + 1;  // a line's own second
    iv.node = "node-0";
    n.evidence.timeline.push_back(iv);
    job.timeline.push_back(iv);
  };
  if (single_lines) {
    refusal(first, first);
    refusal(last, last);
    lines = 2;
  } else {
    refusal(first, last);  // one line every 10 s: 4 lines
    lines = 4;
  }
  n.evidence.facts.Set(NumberFact("runtime.non_success_responses", lines, Unit::kCount, {}));
  n.evidence.facts.Set(NumberFact("runtime.throttled.ingress", lines, Unit::kCount, {}));

  LedgerJudgement j;
  j.job_writes = true;
  j.ingress_limit_gbps = 60;
  j.throttle_state = IdleState::kAccountIngress;
  j.refusals_seen = true;
  j.nodes = 1;
  const IdleLedger ledger = BuildIdleLedger(job, {n}, j);
  const double refused = ledger.gpu_s[static_cast<int>(IdleState::kAccountIngress)];
  const double writes = ledger.gpu_s[static_cast<int>(IdleState::kWrites)];
  std::string all;
  for (int s = 0; s < static_cast<int>(ledger.gpu_s.size()); ++s)
    if (ledger.gpu_s[s] > 0) all += fmt::format(" {}={}", s, ledger.gpu_s[s]);
  INFO("single lines: " << single_lines << "; ingress " << refused << " GPU-s, writes " << writes
                        << ";" << all << " lost " << ledger.lost_gpu_s);
  CHECK(refused + writes == Approx(8 * 3 * kMinute));
  if (single_lines) {
    CHECK(refused == Approx(8 * 3 * kMinute));  // the account's minutes
  } else {
    // 6:20 to 7:11, to the bucket: 6 buckets refused of the 18 written.
    CHECK(refused >= 8 * 40);
    CHECK(refused <= 8 * 70);
  }
}
