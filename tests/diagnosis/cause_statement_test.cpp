// The cause stated from the ledger alone (no rule observed it): every storage state the ledger
// can choose says what to change, with the figure that placed it, never only its own name.
#include <catch2/catch.hpp>
#include <string>

#include "core/evidence.h"
#include "diagnosis/postmortem_phases.h"

using namespace feedcheck;
using namespace feedcheck::diagnosis;

namespace {

Fact Known(const std::string& key, double v, Unit unit) {
  return NumberFact(key, v, unit, {FactOrigin::kKnowledge, "test", "test.yaml", 1});
}

DiagnosisSummary Stated(IdleState state, const FactSet& facts) {
  Evidence ev;
  Situation s;
  s.evidence = &ev;
  s.facts = &facts;
  IdleLedger ledger;
  ledger.known = true;
  CauseChoice c;
  DiagnosisSummary d;
  StateLedgerCause(s, {}, ledger, state, &c, &d);
  return d;
}

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("ledger-only causes: every storage state says what to change", "[diagnosis][cause]") {
  FactSet facts;
  facts.Set(Known("account.egress_gbps", 200, Unit::kGbps));
  facts.Set(Known("account.ingress_gbps", 60, Unit::kGbps));
  facts.Set(Known("account.requests_per_s", 40000, Unit::kPerSecond));
  facts.Set(Known("node.nic_gbps", 24, Unit::kGbps));
  facts.Set(Known("runtime.mount_cache_bytes", 20e9, Unit::kBytes));
  for (IdleState state : AllIdleStates()) {
    if (!IsStorageState(state) || state == IdleState::kBlobTarget ||
        state == IdleState::kThrottledUnknown)
      continue;  // the two refusal states have statements of their own, with or without a rule
    DiagnosisSummary d = Stated(state, facts);
    INFO(IdleStateKey(state) << ": " << d.fix);
    CHECK(d.fix.size() > 80);
    CHECK_FALSE(Has(d.fix, "charged to"));
    CHECK(d.cause == IdleStateName(state));
  }
  CHECK(Has(Stated(IdleState::kCacheRereads, facts).fix, "DATASET_MOUNT_CACHE_SIZE"));
  CHECK(Has(Stated(IdleState::kCacheRereads, facts).fix, "capped at 20 GB"));
  CHECK(Has(Stated(IdleState::kStartupDownload, facts).fix, "ro_mount"));
  CHECK(Has(Stated(IdleState::kAccountEgress, facts).fix, "egress limit (200 Gbit/s)"));
  CHECK(Has(Stated(IdleState::kAccountIngress, facts).fix, "ingress limit (60 Gbit/s)"));
  CHECK(Has(Stated(IdleState::kAccountRequests, facts).fix, "request rate limit (40,000/s)"));
  CHECK(Has(Stated(IdleState::kAccess, facts).fix, "SAS"));
  CHECK(Has(Stated(IdleState::kNodeNic, facts).fix, "24 Gbit/s"));
}

TEST_CASE("ledger-only causes: a cache re-read without a known cap still says why",
          "[diagnosis][cause]") {
  FactSet facts;
  DiagnosisSummary d = Stated(IdleState::kCacheRereads, facts);
  CHECK(Has(d.fix, "held less than the node re-read"));
  CHECK_FALSE(Has(d.fix, "capped at"));
}

TEST_CASE("ledger-only causes: re-reads past a local disk smaller than the input say so",
          "[diagnosis][cause]") {
  // No cap set: the cache fills the disk. An input larger than it is re-read; the fix is a
  // larger disk, never a cap the job did not set.
  FactSet facts;
  facts.Set(Known("runtime.mount_cache_room_bytes", 64e9, Unit::kBytes));
  facts.Set(Known("dataset.bytes", 1.2e12, Unit::kBytes));
  DiagnosisSummary d = Stated(IdleState::kCacheRereads, facts);
  INFO(d.fix);
  CHECK(Has(d.fix, "local disk holds the whole input"));
  CHECK(Has(d.fix, "64 GB of room"));
  CHECK(Has(d.fix, "1.2 TB input"));
  CHECK_FALSE(Has(d.fix, "capped at"));
  // The input fits the disk: the ledger's re-reads were past something else it measured.
  facts.Set(Known("dataset.bytes", 50e9, Unit::kBytes));
  CHECK_FALSE(Has(Stated(IdleState::kCacheRereads, facts).fix, "local disk holds"));
}

TEST_CASE("ledger-only causes: latency names distance only where the figures show it",
          "[diagnosis][cause]") {
  // Same region, no latency figures: the requests in flight for their size, not a distance
  // nothing measured.
  FactSet near;
  DiagnosisSummary d = Stated(IdleState::kLatency, near);
  CHECK(Has(d.fix, "DATASET_MOUNT_READ_THREADS"));
  CHECK(Has(d.fix, "shards"));
  CHECK_FALSE(Has(d.fix, "region"));
  // End to end far above the service's time: the way between them, with both figures.
  FactSet measured;
  measured.Set(Known("metrics.e2e_latency_ms", 75, Unit::kMilliseconds));
  measured.Set(Known("metrics.server_latency_ms", 6, Unit::kMilliseconds));
  d = Stated(IdleState::kLatency, measured);
  CHECK(Has(d.fix, "75 ms end to end against 6 ms in the service"));
  CHECK(Has(d.fix, "compute's region"));
  // Accounts in another region, no latency metrics: the distance, without made-up figures.
  FactSet far;
  far.Set(BoolFact("account.same_region", false, {}));
  d = Stated(IdleState::kLatency, far);
  CHECK(Has(d.fix, "another region than the compute"));
  CHECK_FALSE(Has(d.fix, " ms "));
  // Another region, its latency metrics close together: the region, not a path the figures
  // do not show.
  far.Set(Known("metrics.e2e_latency_ms", 30, Unit::kMilliseconds));
  far.Set(Known("metrics.server_latency_ms", 25, Unit::kMilliseconds));
  d = Stated(IdleState::kLatency, far);
  CHECK(Has(d.fix, "another region than the compute"));
  CHECK_FALSE(Has(d.fix, "went on the way"));
}

TEST_CASE("own-code stops beside a mounted output: likely, and the Ingress that would settle it",
          "[diagnosis][cause]") {
  // Stops with no read in a job that saves through an rw_mount output: a checkpoint's writes
  // stop every GPU as a validation does; only the account's Ingress in those minutes tells.
  auto stated = [](bool rw_mount, bool ingress, double own_share) {
    FactSet facts;
    if (rw_mount)
      facts.Set(NumberFact(
          "runtime.rw_mount_outputs", 1, Unit::kCount,
          {FactOrigin::kDeclared, "job/job.yml:20 (outputs.checkpoints)", "job/job.yml", 20}));
    Evidence ev;
    if (ingress) ev.series.push_back(Series{"metrics.ingress_gbps", "account ingress"});
    Situation s;
    s.evidence = &ev;
    s.facts = &facts;
    s.gpu.known = true;
    s.gpu.idle_fraction = 0.2;
    IdleLedger ledger;
    ledger.known = true;
    ledger.lost_gpu_s = 1000;
    ledger.placed_by_data_runtime = true;  // two sources: confirmed, unless the writes are open
    ledger.gpu_s[static_cast<int>(IdleState::kOwnCode)] = own_share * 1000;
    ledger.gpu_s[static_cast<int>(IdleState::kNotStorage)] = (1 - own_share) * 1000;
    CauseChoice c;
    DiagnosisSummary d;
    StateLedgerCause(s, {}, ledger, IdleState::kOwnCode, &c, &d);
    return d;
  };
  const DiagnosisSummary unsettled = stated(true, false, 0.9);
  CHECK(unsettled.confidence == "likely");
  CHECK(Has(unsettled.fix, "rw_mount output (job/job.yml:20)"));
  CHECK(Has(unsettled.fix, "--metrics Egress Ingress"));
  CHECK_FALSE(Has(unsettled.fix, "storage is not what held"));
  // The Ingress read (it showed no write holding them), no mounted output, or most of the time
  // not in stops: as before.
  for (const auto& d :
       {stated(true, true, 0.9), stated(false, false, 0.9), stated(true, false, 0.3)}) {
    INFO(d.fix);
    CHECK_FALSE(Has(d.fix, "rw_mount output"));
  }
  CHECK(stated(false, false, 0.9).confidence == "confirmed");
  CHECK(stated(true, true, 0.9).confidence == "confirmed");
  CHECK(Has(stated(false, false, 0.9).fix, "storage is not what held the GPUs back"));
}
