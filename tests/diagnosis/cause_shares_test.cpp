// Which idle time each cause coincided with: the pools a class draws from, one share per
// GPU-second, the idle node that read nothing set apart; and the verdict's claims checked
// against the run's own timeline (refusals that did not coincide with the failure, "never got
// past its input" after a good download, shares past the time lost, a flag asked for again).
#include "diagnosis/cause_shares.h"

#include <catch2/catch.hpp>

#include "diagnosis/claim_checks.h"
#include "diagnosis/partition_limit.h"

using namespace feedcheck;
using namespace feedcheck::diagnosis;

namespace {

Finding Of(const std::string& id, Bottleneck b, bool secondary = false) {
  Finding f;
  f.rule_id = id;
  f.bottleneck = b;
  f.secondary = secondary;
  f.severity = Severity::kWarning;
  return f;
}

GpuTimeLost Mount(double mount_gpu_s, double after_gpu_s) {
  GpuTimeLost g;
  g.known = true;
  g.have_phases = true;
  g.mount_gpu_s = mount_gpu_s;
  g.after_data_gpu_s = after_gpu_s;
  g.lost_gpu_s = mount_gpu_s + after_gpu_s;
  g.sampled_gpu_s = 10 * g.lost_gpu_s;
  return g;
}

Fact Num(const std::string& key, double v, Unit unit = Unit::kCount) {
  return NumberFact(key, v, unit, {FactOrigin::kObserved, "test", "t", 1});
}

}  // namespace

TEST_CASE("four findings on the same idle time share it: the cause takes it, the rest none",
          "[diagnosis][shares]") {
  GpuTimeLost gpu = Mount(7140, 0);  // the demo's 119 GPU-minutes
  FactSet facts;
  IdlePools pools = PoolsOf(gpu, facts);
  std::vector<Finding> fs = {
      Of("small", Bottleneck::kSmallFiles), Of("egress", Bottleneck::kAccountEgress),
      Of("threads", Bottleneck::kClientThreads), Of("mode", Bottleneck::kAccessMode)};
  // Each symptom coincided with the same 119 minutes (the mode with none: no download ran).
  CHECK(CoincidentGpuS(fs[0], pools) == Approx(7140));
  CHECK(CoincidentGpuS(fs[1], pools) == Approx(7140));
  CHECK(CoincidentGpuS(fs[3], pools) == 0);
  double total = AllocateShares(&fs[1], &fs, pools);
  CHECK(total == Approx(7140));
  CHECK(fs[1].impact_gpu_s == Approx(7140));
  CHECK(fs[0].impact_gpu_s == 0);
  CHECK(fs[2].impact_gpu_s == 0);
  CHECK(fs[3].impact_gpu_s == 0);
}

TEST_CASE("a throttling burst draws only its own minutes; another cause takes the rest",
          "[diagnosis][shares]") {
  GpuTimeLost gpu = Mount(6000, 2000);
  FactSet facts;
  facts.Set(Num("gpu.lost_throttled_gpu_s", 900, Unit::kSeconds));
  IdlePools pools = PoolsOf(gpu, facts);
  std::vector<Finding> fs = {Of("requests", Bottleneck::kRequestRate),
                             Of("small", Bottleneck::kSmallFiles)};
  AllocateShares(&fs[0], &fs, pools);
  CHECK(fs[0].impact_gpu_s == Approx(900));
  CHECK(fs[1].impact_gpu_s == Approx(5100));  // the mount's other idle time
  // After the data phase is the job's own code: no storage cause draws it.
  CHECK(fs[0].impact_gpu_s + fs[1].impact_gpu_s <= gpu.lost_gpu_s - gpu.after_data_gpu_s);
  // A secondary finding without a stated cost gets nothing.
  std::vector<Finding> with_note = {Of("requests", Bottleneck::kRequestRate),
                                    Of("mode", Bottleneck::kAccessMode, true)};
  AllocateShares(&with_note[0], &with_note, pools);
  CHECK(with_note[1].impact_gpu_s == 0);
}

TEST_CASE("a node idle while it read nothing is set apart from every storage cause",
          "[diagnosis][shares]") {
  std::vector<NodeRow> rows(4);
  for (int i = 0; i < 4; ++i) {
    rows[i].node = "node-" + std::to_string(i);
    rows[i].reads = 40;
    rows[i].gpu_util_mean = 92;
    rows[i].gpu_lost_gpu_s = 300;
  }
  rows[3].reads = 0;
  rows[3].gpu_util_mean = 1.5;
  rows[3].gpu_lost_gpu_s = 24000;
  auto idle = NodesIdleReadingNothing(rows, 20);
  REQUIRE(idle.size() == 1);
  CHECK(idle[0].node == "node-3");
  // A node that read but idled is not set apart; nor is a job where every node read nothing.
  rows[3].reads = 5;
  CHECK(NodesIdleReadingNothing(rows, 20).empty());
  for (auto& r : rows) r.reads = 0, r.gpu_util_mean = 1;
  CHECK(NodesIdleReadingNothing(rows, 20).empty());

  GpuTimeLost gpu = Mount(24900, 0);
  IdlePools pools = PoolsOf(gpu, FactSet{}, {{"node-3", 24000, 1.5, {}}});
  CHECK(pools.not_storage_gpu_s == Approx(24000));
  std::vector<Finding> fs = {Of("small", Bottleneck::kSmallFiles)};
  AllocateShares(&fs[0], &fs, pools);
  CHECK(fs[0].impact_gpu_s == Approx(900));

  // The idle node's split by the job's phases is taken from those pools: its idle time during
  // the others' download is not the download's to charge.
  GpuTimeLost dl;
  dl.known = dl.have_phases = true;
  dl.download_gpu_s = 7680 + 7680;  // two nodes waiting 16 min, and the idle node meanwhile
  dl.cached_gpu_s = 11520;          // the idle node after the download
  dl.lost_gpu_s = dl.download_gpu_s + dl.cached_gpu_s;
  IdleNodeReadingNothing idle_node{"node-2", 19200, 1, {}};
  idle_node.row.phases_known = true;
  idle_node.row.lost_download_gpu_s = 7680;
  idle_node.row.lost_cached_gpu_s = 11520;
  IdlePools split = PoolsOf(dl, FactSet{}, {idle_node});
  CHECK(split.download_gpu_s == Approx(7680));
  CHECK(split.cached_gpu_s == Approx(0));
  CHECK(split.not_storage_gpu_s == Approx(19200));
}

namespace {

TimelineInterval Iv(std::string lane, std::string label, double s, double e,
                    std::string status = "") {
  return {std::move(lane), std::move(label), s, e, std::move(status), "t"};
}

}  // namespace

TEST_CASE("refusals blamed for a failure must coincide with it", "[diagnosis][claims]") {
  Evidence ev;
  ev.timeline = {Iv("access", "404 refused", 100, 102),
                 Iv("data-runtime", "download", 99, 340, "Success"),
                 Iv("data-runtime", "upload", 3960, 4145, "Failure")};
  std::string why = AccessRefusalsMissFailure(ev);
  CHECK(why.find("404 refused") != std::string::npos);
  CHECK(why.find("before the upload that failed") != std::string::npos);
  CHECK(InputReadBefore(ev, 4000));
  CHECK_FALSE(InputReadBefore(ev, 200));
  // GETs refused while the download failed: they ended it.
  ev.timeline.push_back(Iv("access", "404 refused", 3900, 3950));
  CHECK(AccessRefusalsMissFailure(ev).empty());
  // The runtime's own StreamAccess verdict stands whatever the timing.
  Evidence stream;
  stream.timeline = {Iv("access", "403 refused", 10, 11),
                     Iv("data-runtime", "mount", 5000, 5100, "Failure")};
  CHECK_FALSE(AccessRefusalsMissFailure(stream).empty());
  stream.facts.Set(TextFact("runtime.stream_error", "ScriptExecution.StreamAccess.Authentication",
                            {FactOrigin::kObserved, "t", "t", 1}));
  CHECK(AccessRefusalsMissFailure(stream).empty());
}

TEST_CASE("claims the run's own evidence contradicts are found", "[diagnosis][claims]") {
  Postmortem r;
  r.diagnosis.present = true;
  r.diagnosis.gpu = Mount(1000, 0);
  r.diagnosis.cause = "storage access failed";
  r.diagnosis.confidence = "likely";
  r.diagnosis.attributed_gpu_s = 1000;
  r.diagnosis.estimate.text = "no estimate: it never got past its input (storage refused it)";
  r.evidence.timeline = {Iv("access", "404 refused", 100, 102),
                         Iv("data-runtime", "download", 99, 340, "Success"),
                         Iv("data-runtime", "upload", 3960, 4145, "Failure")};
  r.findings = {Of("a", Bottleneck::kAccessFailure), Of("b", Bottleneck::kSmallFiles)};
  r.findings[0].impact_gpu_s = 1000;
  r.findings[1].impact_gpu_s = 1000;  // the same idle time twice
  r.diagnosis.settle_with = "the account's limits (--region / --account-egress-gbps)";
  r.evidence.facts.Set(
      TextFact("account.region", "eastus", {FactOrigin::kDeclared, "--region", "", 0}));
  auto claims = ContradictedClaims(r);
  auto has = [&](const char* part) {
    for (const auto& c : claims)
      if (c.find(part) != std::string::npos) return true;
    return false;
  };
  CHECK(has("sum to 2000 GPU-s, past the 1000 lost"));
  CHECK(has("never got past its input, but an input activity succeeded"));
  CHECK(has("never got past its input, but its GPUs were busy"));
  CHECK(has("blames storage access"));
  CHECK(has("asks for --region, which was given"));
  // A consistent report has none.
  Postmortem ok;
  ok.diagnosis.gpu = Mount(1000, 0);
  ok.diagnosis.cause = "small files";
  ok.diagnosis.confidence = "likely";
  ok.diagnosis.attributed_gpu_s = 1000;
  ok.findings = {Of("b", Bottleneck::kSmallFiles)};
  ok.findings[0].impact_gpu_s = 1000;
  CHECK(ContradictedClaims(ok).empty());
  // A named cause that explains none of the idle time is a contradiction.
  ok.diagnosis.attributed_gpu_s = 0;
  CHECK(ContradictedClaims(ok).size() == 1);
}

TEST_CASE("a verdict no finding carries holds its time beside the findings'",
          "[diagnosis][shares]") {
  // A blob target's refused time, and a small-files finding claiming the same minutes again.
  Postmortem r;
  r.diagnosis.gpu = Mount(1000, 0);
  r.diagnosis.cause = "blob or partition target";
  r.diagnosis.confidence = "likely";
  r.diagnosis.attributed_gpu_s = 1000;
  r.findings = {Of("small", Bottleneck::kSmallFiles)};
  r.findings[0].impact_gpu_s = 1000;
  REQUIRE(ContradictedClaims(r).size() == 1);
  CHECK(ContradictedClaims(r)[0].find("sum to 2000 GPU-s, past the 1000 lost") !=
        std::string::npos);
  // The findings share what the verdict left.
  IdlePools pools;
  pools.mount_throttled_gpu_s = 1000;
  pools.throttle_times_known = true;
  IdlePools left = LeftAfter(Bottleneck::kRequestRate, pools);
  CHECK(left.Total() == 0);
  r.findings[0].impact_gpu_s = AllocateShares(nullptr, &r.findings, left);
  CHECK(r.findings[0].impact_gpu_s == 0);
  CHECK(ContradictedClaims(r).empty());
}

TEST_CASE("throttled with the account far below its limits: a blob or partition target",
          "[diagnosis][partition]") {
  FactSet f;
  f.Set(Num("runtime.throttled.server_busy", 480));
  f.Set(Num("metrics.egress_gbps_peak", 6.5, Unit::kGbps));
  f.Set(Num("account.egress_gbps", 200, Unit::kGbps));
  f.Set(Num("metrics.requests_per_s_peak", 3800, Unit::kPerSecond));
  f.Set(Num("account.requests_per_s", 40000, Unit::kPerSecond));
  PartitionLimit p = PartitionTargetHit(f);
  CHECK(p.applies);
  CHECK_FALSE(p.confirmed);
  CHECK(p.figures.find("6.5 of the account's 200 Gbit/s") != std::string::npos);
  // A ResponseType that names the account's limit settles it the other way.
  FactSet named = f;
  named.Set(Num("metrics.throttled.ClientAccountRequestThrottlingError", 30));
  CHECK_FALSE(PartitionTargetHit(named).applies);
  // Egress near the limit: the account, not a blob.
  FactSet near = f;
  near.Set(Num("metrics.egress_gbps_peak", 190, Unit::kGbps));
  CHECK_FALSE(PartitionTargetHit(near).applies);
  // Without the account's limits nothing can be said.
  FactSet unknown;
  unknown.Set(Num("runtime.throttled.server_busy", 480));
  unknown.Set(Num("metrics.egress_gbps_peak", 6.5, Unit::kGbps));
  CHECK_FALSE(PartitionTargetHit(unknown).applies);
  // No refusals: nothing was hit.
  FactSet quiet = f;
  quiet.Set(Num("runtime.throttled.server_busy", 0));
  CHECK_FALSE(PartitionTargetHit(quiet).applies);
}

TEST_CASE("StorageBlobLogs tell one hot blob from a partition's many", "[diagnosis][partition]") {
  FactSet f;
  f.Set(Num("runtime.throttled.server_busy", 480));
  f.Set(Num("metrics.egress_gbps_peak", 9.5, Unit::kGbps));
  f.Set(Num("account.egress_gbps", 200, Unit::kGbps));
  f.Set(Num("metrics.requests_per_s_peak", 2500, Unit::kPerSecond));
  f.Set(Num("account.requests_per_s", 40000, Unit::kPerSecond));
  f.Set(Num("metrics.bloblog.throttled", 300));
  Provenance where;
  f.Set(TextFact("metrics.bloblog.hot_blob", "data/train/shard-00017.tar", where));
  f.Set(Num("metrics.bloblog.hot_blob_throttled_share", 0.72, Unit::kFraction));
  f.Set(Num("metrics.bloblog.hot_blob_requests_per_s_peak", 610, Unit::kPerSecond));
  PartitionLimit blob = PartitionTargetHit(f);
  CHECK(blob.confirmed);
  CHECK(blob.one_blob);
  CHECK(blob.hot_blob == "data/train/shard-00017.tar");
  CHECK(blob.figures.find("72% of the refused requests on one blob, data/train/shard-00017.tar, "
                          "which met up to 610 requests in a second") != std::string::npos);
  // Spread thin, none near a blob's 500/s: the partition.
  f.Set(Num("metrics.bloblog.hot_blob_throttled_share", 0.04, Unit::kFraction));
  f.Set(Num("metrics.bloblog.hot_blob_requests_per_s_peak", 35, Unit::kPerSecond));
  PartitionLimit spread = PartitionTargetHit(f);
  CHECK(spread.confirmed);
  CHECK_FALSE(spread.one_blob);
  CHECK(spread.figures.find("partition, not one blob") != std::string::npos);
  // Without refusals in StorageBlobLogs their Uri says nothing about the target.
  f.Set(Num("metrics.bloblog.throttled", 0));
  PartitionLimit unconfirmed = PartitionTargetHit(f);
  CHECK_FALSE(unconfirmed.confirmed);
  CHECK(unconfirmed.hot_blob.empty());
}
