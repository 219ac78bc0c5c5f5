// Refusals with every account figure far below its limit: a blob's or a partition's target, and
// StorageBlobLogs telling one hot blob from a partition's many.
#include "diagnosis/partition_limit.h"

#include <catch2/catch.hpp>
#include <string>

using namespace feedcheck;
using namespace feedcheck::diagnosis;

namespace {

Fact Num(const std::string& key, double v, Unit unit = Unit::kCount) {
  return NumberFact(key, v, unit, {FactOrigin::kObserved, "test", "t", 1});
}

}  // namespace

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
