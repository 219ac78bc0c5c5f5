#include "diagnosis/ledger_judgement.h"

#include <algorithm>

#include "diagnosis/partition_limit.h"

namespace feedcheck::diagnosis {

namespace {

bool Describes(const Finding& f) {
  return !f.secondary && f.severity != Severity::kInfo && f.bottleneck != Bottleneck::kNone;
}

bool Observed(const Finding& f, Bottleneck b) {
  return Describes(f) && f.basis == FindingBasis::kObserved && f.bottleneck == b;
}

bool AnyObserved(const std::vector<Finding>& findings, Bottleneck b) {
  return std::any_of(findings.begin(), findings.end(),
                     [&](const Finding& f) { return Observed(f, b); });
}

}  // namespace

bool LatencyDwarfsServer(const FactSet& facts) {
  auto e2e = facts.Number("metrics.e2e_latency_ms");
  auto server = facts.Number("metrics.server_latency_ms");
  if (e2e && server && *e2e > 2 * *server && *e2e - *server > 20) return true;
  const Fact* same = facts.Find("account.same_region");
  return same && same->is_bool() && !std::get<bool>(same->value);
}

LedgerJudgement JudgeEvidence(const Evidence& ev, const std::vector<Finding>& findings,
                              const AccountView& account,
                              const std::vector<IdleNodeReadingNothing>& idle_nodes) {
  LedgerJudgement j;
  const FactSet& facts = ev.facts;
  j.access_failed = std::any_of(findings.begin(), findings.end(), [](const Finding& f) {
    return Describes(f) && f.bottleneck == Bottleneck::kAccessFailure;
  });
  if (j.access_failed)
    for (const auto& iv : ev.timeline) {
      const bool refused = iv.lane == "access";
      const bool failed = iv.lane == "data-runtime" && iv.status.rfind("Failure", 0) == 0;
      if ((refused || failed) && (!j.access_onset_s || iv.start_epoch_s < *j.access_onset_s))
        j.access_onset_s = iv.start_epoch_s;
    }
  // The limit the refusals hit: the one an observed finding names, else a blob's or partition's
  // when every account figure stayed far below its limit, else unknown.
  if (AnyObserved(findings, Bottleneck::kAccountEgress))
    j.throttle_state = IdleState::kAccountEgress;
  else if (AnyObserved(findings, Bottleneck::kRequestRate))
    j.throttle_state = IdleState::kAccountRequests;
  else if (AnyObserved(findings, Bottleneck::kAccountIngress))
    j.throttle_state = IdleState::kAccountIngress;
  else if (PartitionTargetHit(facts).applies)
    j.throttle_state = IdleState::kBlobTarget;
  // Reads that were not refused: what the evidence says held them.
  const bool cache = AnyObserved(findings, Bottleneck::kCacheDisk);
  const bool latency = AnyObserved(findings, Bottleneck::kSmallFiles) ||
                       AnyObserved(findings, Bottleneck::kClientThreads) ||
                       LatencyDwarfsServer(facts);
  j.mount_state = cache                               ? IdleState::kCacheRereads
                  : latency                           ? IdleState::kLatency
                  : StorageServedFast(account, facts) ? IdleState::kNotStorage
                                                      : IdleState::kUnknown;
  j.download_state = latency ? IdleState::kLatency
                     : cache ? IdleState::kCacheRereads
                             : IdleState::kStartupDownload;
  j.unplaced_state = cache                                            ? IdleState::kCacheRereads
                     : latency                                        ? IdleState::kLatency
                     : AnyObserved(findings, Bottleneck::kAccessMode) ? IdleState::kStartupDownload
                                                                      : IdleState::kUnknown;
  j.refusals_seen = account.log_throttled > 0 || account.metrics_throttled > 0 ||
                    j.throttle_state != IdleState::kThrottledUnknown;
  j.download_is_the_wait = AnyObserved(findings, Bottleneck::kAccessMode);
  j.nic_gbps = facts.Number("node.nic_gbps").value_or(0);
  j.egress_limit_gbps = facts.Number("account.egress_gbps").value_or(0);
  j.nodes = std::max(1.0, facts.Number("node.count").value_or(1));
  for (const auto& n : idle_nodes) j.nodes_reading_nothing.insert(n.node);
  return j;
}

}  // namespace feedcheck::diagnosis
