#include "diagnosis/postmortem_diagnosis.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>
#include <string>

#include "analyzers/text_util.h"
#include "core/measurement_caveat.h"
#include "core/units.h"
#include "diagnosis/access_fix_estimate.h"
#include "diagnosis/account_view.h"
#include "diagnosis/cause_shares.h"
#include "diagnosis/claim_checks.h"
#include "diagnosis/cluster_nodes.h"
#include "diagnosis/evidence_sources.h"
#include "diagnosis/fix_estimate.h"
#include "diagnosis/gpu_time_summary.h"
#include "diagnosis/partition_limit.h"
#include "diagnosis/postmortem_phases.h"
#include "rules/advice.h"

namespace feedcheck::diagnosis {

namespace {

std::string RecommendedMode(const Finding& f) {
  for (const auto& c : f.config)
    if (c.kind == rules::kInputModeFragment) return c.text;
  return "";
}

// Throttling: the account refused requests at known times.
bool IsThrottleClass(Bottleneck b) { return IsAccountLimit(b) || b == Bottleneck::kAccountIngress; }

// The idle GPU time the finding's symptom coincided with (cause_shares.h).
double ImpactOf(const Finding& f, const GpuTimeLost& gpu, const IdlePools& pools) {
  if (!gpu.known || f.bottleneck == Bottleneck::kNone) return -1;
  return CoincidentGpuS(f, pools);
}

std::string ImpactText(const Finding& f, const GpuTimeLost& gpu) {
  if (f.impact_gpu_s < 0) return "";
  // A brief throttling burst did cost its own time; the note says how much.
  if (f.secondary && f.secondary_note.rfind("cost ", 0) == 0) return f.secondary_note;
  if (f.secondary) return fmt::format("0 GPU time in this job ({})", f.secondary_note);
  // Its symptom was present, but the idle time it coincided with is already the cause's.
  if (f.impact_gpu_s <= 0)
    return "none of its own: the idle time it coincided with is charged to the cause";
  if (f.bottleneck == Bottleneck::kAccessFailure)
    return fmt::format("{}, all the GPU time lost: the job failed on access",
                       FormatGpuTime(f.impact_gpu_s));
  const char* when = !gpu.have_phases                          ? "while GPUs were idle"
                     : f.bottleneck == Bottleneck::kAccessMode ? "while the download ran"
                                                               : "while data loaded";
  return fmt::format("{} {}", FormatGpuTime(f.impact_gpu_s), when);
}

void MarkSecondary(Finding* f, std::string note) {
  if (f->secondary) return;
  f->secondary = true;
  f->secondary_note = std::move(note);
}

}  // namespace

void AddObservedWorkloadFacts(FactSet* facts) {
  // An explicit cap on the mount's disk cache (a negative value leaves space free instead).
  if (const Fact* cap = facts->Find("runtime.setting.DATASET_MOUNT_CACHE_SIZE");
      cap && cap->is_text()) {
    std::optional<double> bytes = ParseBytes(cap->text());
    if (!bytes) bytes = analyzers::ParseDouble(cap->text());  // usize: bare bytes
    if (bytes && *bytes > 0) {
      Provenance p = cap->provenance;
      p.origin = FactOrigin::kDerived;
      p.source = "DATASET_MOUNT_CACHE_SIZE=" + cap->text() + " (" + cap->provenance.source + ")";
      facts->Set(NumberFact("runtime.mount_cache_bytes", *bytes, Unit::kBytes, p));
    }
  }
  if (facts->Find("workload.mode")) return;
  const Fact* mode = facts->Find("runtime.mode");
  if (!mode || !mode->is_text()) return;
  std::string m = mode->text() == "download" ? "download"
                  : mode->text() == "mount"  ? "ro_mount"
                                             : "";
  if (m.empty()) return;
  Provenance p = mode->provenance;
  p.source = "the mode the data runtime used (" + mode->provenance.source + ")";
  facts->Set(TextFact("workload.mode", m, p));
}

namespace {

// The situation; access findings the refusals did not cause are made secondary.
Situation Assess(const Evidence& evidence, std::vector<NodeRow>* nodes, std::vector<Finding>* all) {
  std::vector<Finding>& findings = *all;
  Situation s;
  s.evidence = &evidence;
  s.facts = &evidence.facts;
  const FactSet& facts = evidence.facts;
  s.gpu = SummarizeGpuTime(facts);
  s.account = ViewAccount(facts);
  s.probes_saw_storage = !CaveatOf(facts).any();
  const GpuTimeLost& gpu = s.gpu;
  // Nodes whose GPUs idled while they read nothing: their idle time is no storage cause's.
  AddGpuNodeRows(facts, nodes);
  const double busy_percent = facts.Number("gpu.busy_threshold_percent").value_or(10) * 2;
  s.idle_nodes = NodesIdleReadingNothing(*nodes, busy_percent);
  for (const auto& n : s.idle_nodes) s.not_storage_gpu_s += n.lost_gpu_s;
  s.pools = PoolsOf(gpu, facts, s.idle_nodes);
  const IdlePools& pools = s.pools;
  double data_lost =
      gpu.have_phases || !gpu.known
          ? pools.download_gpu_s + pools.mount_throttled_gpu_s + pools.mount_other_gpu_s
          : pools.unknown_gpu_s;
  // Refusals that did not coincide with the activity that failed did not end the job (two 404s
  // on optional files at the start, an upload that timed out an hour later).
  if (std::string why = AccessRefusalsMissFailure(evidence); !why.empty())
    for (auto& f : findings)
      if (f.bottleneck == Bottleneck::kAccessFailure) MarkSecondary(&f, why);
  // Storage refused the job outright: whatever the GPUs did, the job failed on access.
  const bool access_failed = std::any_of(findings.begin(), findings.end(), [](const Finding& f) {
    return f.bottleneck == Bottleneck::kAccessFailure && f.severity != Severity::kInfo &&
           !f.secondary;
  });
  s.gpus_busy =
      !access_failed && gpu.known && gpu.sampled_gpu_s > 0 &&
      (gpu.idle_fraction < kBusyIdleFraction || data_lost < kBusyIdleFraction * gpu.sampled_gpu_s);
  return s;
}

// What each finding cost, and which ones do not describe this job.
void CostFindings(const Situation& s, std::vector<Finding>* all) {
  std::vector<Finding>& findings = *all;
  const GpuTimeLost& gpu = s.gpu;
  const AccountView& account = s.account;
  const IdlePools& pools = s.pools;
  const bool gpus_busy = s.gpus_busy;
  const std::vector<IdleNodeReadingNothing>& idle_nodes = s.idle_nodes;
  for (auto& f : findings) {
    f.impact_gpu_s = ImpactOf(f, gpu, pools);
    if (f.bottleneck == Bottleneck::kNone) continue;
    if (std::string why = Contradiction(f, account); !why.empty())
      MarkSecondary(&f, "would have limited a larger run; not this one: " + why);
    else if (gpus_busy && f.bottleneck != Bottleneck::kAccessFailure && !idle_nodes.empty())
      MarkSecondary(&f, fmt::format("did not cost GPU time in this job: the idle time was on {}, "
                                    "which read nothing",
                                    idle_nodes.front().node));
    else if (gpus_busy && f.bottleneck != Bottleneck::kAccessFailure)
      MarkSecondary(&f, f.basis == FindingBasis::kCapacity
                            ? "would have limited a larger run; the GPUs were busy in this one"
                            : "did not cost GPU time in this job: the GPUs were busy");
    else if (f.impact_gpu_s == 0 && f.basis == FindingBasis::kObserved && gpu.lost_gpu_s > 0)
      MarkSecondary(&f, "its symptom coincided with no idle GPU time");
  }
}

// The cause: the observed finding that cost the most GPU time; among equals, the class that
// caps the others. Throttling too brief to matter, storage that served the job fast and 503s
// no named limit explains are settled here too.
CauseChoice ChooseCause(Situation* s, std::vector<Finding>* all) {
  std::vector<Finding>& findings = *all;
  const GpuTimeLost& gpu = s->gpu;
  const AccountView& account = s->account;
  const FactSet& facts = *s->facts;
  const IdlePools& pools = s->pools;
  bool& gpus_busy = s->gpus_busy;
  auto better = [](const Finding* a, const Finding* b) {
    if (a->impact_gpu_s != b->impact_gpu_s) return a->impact_gpu_s > b->impact_gpu_s;
    if (a->bottleneck != b->bottleneck)
      return BottleneckRank(a->bottleneck) < BottleneckRank(b->bottleneck);
    return a->severity > b->severity;
  };
  auto pick = [&](const Finding** cause, const Finding** capacity_cause) {
    *cause = *capacity_cause = nullptr;
    for (const auto& f : findings) {
      if (f.secondary || f.bottleneck == Bottleneck::kNone || f.severity == Severity::kInfo)
        continue;
      const Finding*& slot = f.basis == FindingBasis::kObserved ? *cause : *capacity_cause;
      if (!slot || better(&f, slot)) slot = &f;
    }
  };
  const Finding* cause = nullptr;
  const Finding* capacity_cause = nullptr;
  pick(&cause, &capacity_cause);
  // Throttling that cost under a tenth of the GPU time (a short burst in a long job) did not
  // hold this job back; the rest of its idle time fell while storage served every request.
  if (cause && IsThrottleClass(cause->bottleneck) && gpu.known && gpu.sampled_gpu_s > 0 &&
      cause->impact_gpu_s >= 0 && cause->impact_gpu_s < kBusyIdleFraction * gpu.sampled_gpu_s) {
    for (auto& f : findings) {
      if (f.bottleneck == Bottleneck::kNone) continue;
      if (IsThrottleClass(f.bottleneck) && f.basis == FindingBasis::kObserved)
        MarkSecondary(&f, fmt::format("cost {} ({:.1f}% of the GPU time sampled) while storage "
                                      "refused requests: too little to have held the job back",
                                      FormatGpuTime(std::max(0.0, f.impact_gpu_s)),
                                      100 * std::max(0.0, f.impact_gpu_s) / gpu.sampled_gpu_s));
      else
        MarkSecondary(&f, f.basis == FindingBasis::kCapacity
                              ? "would have limited a larger run; storage cost this one little"
                              : "did not cost GPU time in this job: storage cost it little");
    }
    gpus_busy = true;
    pick(&cause, &capacity_cause);
  }
  bool server_busy = account.log_server_busy > 0 || account.metrics_server_busy > 0;
  // Nothing observed explains the idle time and storage demonstrably served the job fast: the
  // GPUs waited on what comes after storage (the job's own input pipeline), not on storage.
  const bool served_fast = !cause && !gpus_busy && !server_busy && gpu.known &&
                           gpu.sampled_gpu_s > 0 && StorageServedFast(account, facts);
  if (served_fast) {
    for (auto& f : findings)
      if (f.bottleneck != Bottleneck::kNone)
        MarkSecondary(&f, f.basis == FindingBasis::kCapacity
                              ? "would have limited a larger run; storage served this one fast"
                              : "did not cost GPU time in this job: storage served it fast");
    gpus_busy = true;
  }
  // A 503 names no limit; an account limit another source names (egress, request rate, or
  // ingress with the account's Ingress at its limit) explains it.
  bool busy_unexplained =
      server_busy && !gpus_busy &&
      (!cause || (cause->bottleneck != Bottleneck::kAccountIngress &&
                  BottleneckRank(cause->bottleneck) > BottleneckRank(Bottleneck::kRequestRate)));
  // A bare 503 "server is busy" is charged what the refusals covered, as throttling that names
  // its limit is: a burst under a tenth of the GPU time did not hold the job back, and the
  // rest of the idle time fell while storage served every request.
  double busy_burst_gpu_s = -1;
  if (busy_unexplained && gpu.known && gpu.sampled_gpu_s > 0 &&
      ThrottleCostGpuS(pools) < kBusyIdleFraction * gpu.sampled_gpu_s) {
    busy_unexplained = false;
    busy_burst_gpu_s = ThrottleCostGpuS(pools);
    if (!cause) {
      for (auto& f : findings)
        if (f.bottleneck != Bottleneck::kNone)
          MarkSecondary(&f, f.basis == FindingBasis::kCapacity
                                ? "would have limited a larger run; storage cost this one little"
                                : "did not cost GPU time in this job: storage cost it little");
      gpus_busy = true;
    }
  }
  CauseChoice c;
  c.cause = cause;
  c.capacity_cause = capacity_cause;
  c.served_fast = served_fast;
  c.busy_unexplained = busy_unexplained;
  c.busy_burst_gpu_s = busy_burst_gpu_s;
  return c;
}

// Advice that works against the cause becomes secondary.
void DemoteAgainstCause(const CauseChoice& c, std::vector<Finding>* all) {
  std::vector<Finding>& findings = *all;
  const Finding* cause = c.cause;
  const Bottleneck cls = c.cls;
  const bool busy_unexplained = c.busy_unexplained;
  std::string cause_mode = cause ? RecommendedMode(*cause) : "";
  for (auto& f : findings) {
    if (f.secondary || (cause && &f == cause)) continue;
    if ((IsAccountLimit(cls) || busy_unexplained) &&
        (f.bottleneck == Bottleneck::kClientThreads || f.bottleneck == Bottleneck::kAccessMode)) {
      MarkSecondary(&f,
                    "after the account limit is lifted: more threads or an earlier start "
                    "against a throttled account only add 503s");
      continue;
    }
    std::string mode = RecommendedMode(f);
    if (!cause_mode.empty() && !mode.empty() && mode != cause_mode)
      MarkSecondary(&f, fmt::format("contradicts the fix (input mode {})", cause_mode));
  }
}

// Each finding's own share of the idle time, the cause first, and its cost in words.
void ShareIdleTime(const Situation& s, const CauseChoice& c, std::vector<Finding>* all,
                   DiagnosisSummary* summary) {
  std::vector<Finding>& findings = *all;
  DiagnosisSummary& d = *summary;
  const GpuTimeLost& gpu = s.gpu;
  const IdlePools& pools = s.pools;
  const Finding* cause = c.cause;
  const bool busy_unexplained = c.busy_unexplained;
  const std::string& rule_id = c.rule_id;
  // Each finding's own share of the idle time: the cause first; never more than was lost.
  if (gpu.known) {
    // A throttling verdict no finding carries (blob or partition target, limit unknown) holds
    // the refused time itself: the findings share what it left.
    const bool throttle_verdict = busy_unexplained && d.attributed_gpu_s > 0 && rule_id.empty();
    AllocateShares(cause, &findings,
                   throttle_verdict ? LeftAfter(Bottleneck::kRequestRate, pools) : pools);
    if (!rule_id.empty() && d.attributed_gpu_s >= 0)
      for (const auto& f : findings)
        if (f.rule_id == rule_id) d.attributed_gpu_s = f.impact_gpu_s;
  }
  for (auto& f : findings) f.impact = ImpactText(f, gpu);
}

// Order: the cause (rule `rule_id`), then what else cost GPU time, then the rest; secondary
// last.
void RankFindings(const std::string& rule_id, std::vector<Finding>* all) {
  std::vector<Finding>& findings = *all;
  const std::string cause_id = rule_id;
  std::stable_sort(findings.begin(), findings.end(), [&](const Finding& a, const Finding& b) {
    if (a.secondary != b.secondary) return !a.secondary;
    bool ac = a.rule_id == cause_id, bc = b.rule_id == cause_id;
    if (ac != bc) return ac;
    if (a.impact_gpu_s != b.impact_gpu_s) return a.impact_gpu_s > b.impact_gpu_s;
    if (a.bottleneck != b.bottleneck)
      return BottleneckRank(a.bottleneck) < BottleneckRank(b.bottleneck);
    return a.severity > b.severity;
  });
}

// What fixing the cause `cls` buys (a straggler's catching up, on a client-side cause), and
// the nodes.
void EstimateWhatTheFixBuys(const Situation& s, Bottleneck cls, std::vector<NodeRow> nodes,
                            DiagnosisSummary* summary) {
  DiagnosisSummary& d = *summary;
  const GpuTimeLost& gpu = s.gpu;
  const FactSet& facts = *s.facts;
  if (cls == Bottleneck::kAccessFailure)
    d.estimate = EstimateAccessFix(*s.evidence, gpu);
  else if (cls != Bottleneck::kNone && d.confidence != "inconclusive")
    d.estimate = EstimateFix(cls, facts, gpu);
  d.straggler = MarkStraggler(&nodes);
  // A straggling download on a client-side cause: the fix is that node catching up.
  if (!d.straggler.empty() && d.confidence != "inconclusive" &&
      (cls == Bottleneck::kClientThreads || cls == Bottleneck::kCacheDisk)) {
    std::vector<double> others;
    const NodeRow* slow = nullptr;
    for (const auto& n : nodes) {
      if (n.straggler)
        slow = &n;
      else if (n.download_s >= 0)
        others.push_back(n.download_s);
    }
    if (slow && slow->download_s > 0 && !others.empty()) {
      std::sort(others.begin(), others.end());
      double median = others.size() % 2
                          ? others[others.size() / 2]
                          : (others[others.size() / 2 - 1] + others[others.size() / 2]) / 2;
      FixEstimate catch_up = EstimateCatchUp(facts, gpu, slow->node, slow->download_s, median);
      if (catch_up.available) d.estimate = std::move(catch_up);
    }
  }
  d.nodes = std::move(nodes);
}

// The verdict and its detail, the settings of the primary findings, and everything concluded,
// into `postmortem`.
void WriteVerdict(const Situation& s, const CauseChoice& c, DiagnosisSummary d,
                  std::vector<Finding> findings, std::vector<SkippedRule> skipped,
                  Postmortem* postmortem) {
  const GpuTimeLost& gpu = s.gpu;
  const Bottleneck cls = c.cls;
  const std::string& rule_id = c.rule_id;
  const std::string& rule_title = c.rule_title;
  // The settings to paste: only the primary findings'.
  std::vector<Finding> primary;
  for (const auto& f : findings)
    if (!f.secondary) primary.push_back(f);
  std::stable_sort(primary.begin(), primary.end(),
                   [](const Finding& a, const Finding& b) { return a.severity > b.severity; });
  rules::Advice advice = rules::MergeAdvice(primary);

  // "none found, confirmed" read as if nothing had been found for sure: the verdict says what
  // was found (the cause stays "none found" in the result, for scripts).
  postmortem->verdict = d.cause == "inconclusive" ? d.cause
                        : d.cause == "none found"
                            ? fmt::format("no storage bottleneck, {}", d.confidence)
                            : fmt::format("{}, {}", d.cause, d.confidence);
  if (d.cause == "none found")
    postmortem->verdict_level = VerdictLevel::kGood;
  else if (d.cause == "not storage")
    postmortem->verdict_level = VerdictLevel::kWarning;  // GPU time lost, but not to storage
  else if (d.confidence == "inconclusive")
    postmortem->verdict_level = VerdictLevel::kUnknown;
  else if (cls == Bottleneck::kAccessFailure)
    postmortem->verdict_level = VerdictLevel::kBad;  // the job failed, however busy it was before
  else
    postmortem->verdict_level = gpu.known && d.attributed_gpu_s >= 0 &&
                                        d.attributed_gpu_s < kBusyIdleFraction * gpu.sampled_gpu_s
                                    ? VerdictLevel::kWarning
                                    : VerdictLevel::kBad;
  std::string detail;
  if (!rule_id.empty()) detail = fmt::format("{} [{}]", rule_title, rule_id);
  if (!d.agreeing_sources.empty())
    detail += fmt::format("{}{}: {}", detail.empty() ? "" : "; ",
                          d.agreeing_sources.size() >= 2 ? "sources that agree" : "source",
                          fmt::join(d.agreeing_sources, " + "));
  if (!d.settle_with.empty())
    detail += fmt::format("{}would settle it: {}", detail.empty() ? "" : "\n", d.settle_with);
  postmortem->verdict_detail = detail;
  postmortem->findings = std::move(findings);
  postmortem->skipped = std::move(skipped);
  postmortem->env = advice.env;
  postmortem->config = advice.config;
  postmortem->diagnosis = std::move(d);
}

}  // namespace

void DiagnosePostmortem(const rules::RuleSet& rule_set, std::vector<NodeRow> nodes,
                        Postmortem* postmortem) {
  AddObservedWorkloadFacts(&postmortem->evidence.facts);
  rules::EvaluationResult result = rule_set.Evaluate(postmortem->evidence.facts);
  std::vector<Finding>& findings = result.findings;
  Situation s = Assess(postmortem->evidence, &nodes, &findings);
  DiagnosisSummary d;
  d.present = true;
  d.gpu = s.gpu;
  CostFindings(s, &findings);
  CauseChoice c = ChooseCause(&s, &findings);
  StateCause(s, findings, &c, &d);
  DemoteAgainstCause(c, &findings);
  ShareIdleTime(s, c, &findings, &d);
  RankFindings(c.rule_id, &findings);
  EstimateWhatTheFixBuys(s, c.cls, std::move(nodes), &d);
  WriteVerdict(s, c, std::move(d), std::move(findings), std::move(result.skipped), postmortem);
}

}  // namespace feedcheck::diagnosis
