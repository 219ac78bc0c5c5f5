#include "diagnosis/postmortem_diagnosis.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>
#include <string>

#include "analyzers/text_util.h"
#include "core/gpu_time_text.h"
#include "core/measurement_caveat.h"
#include "core/units.h"
#include "diagnosis/access_fix_estimate.h"
#include "diagnosis/account_view.h"
#include "diagnosis/claim_checks.h"
#include "diagnosis/cluster_nodes.h"
#include "diagnosis/evidence_sources.h"
#include "diagnosis/fix_estimate.h"
#include "diagnosis/gpu_time_summary.h"
#include "diagnosis/idle_ledger.h"
#include "diagnosis/idle_nodes.h"
#include "diagnosis/latency_cap.h"
#include "diagnosis/ledger_judgement.h"
#include "diagnosis/ledger_text.h"
#include "diagnosis/partition_limit.h"
#include "diagnosis/postmortem_phases.h"
#include "rules/access_decision.h"
#include "rules/advice.h"

namespace feedcheck::diagnosis {

namespace {

// The disk the data runtime never uses, DATASET_RESERVED_FREE_DISK_SPACE's default ("Access data
// in a job", Azure Machine Learning documentation, the mount settings table).
constexpr double kReservedFreeDiskBytes = 150e6;

std::string RecommendedMode(const Finding& f) {
  for (const auto& c : f.config)
    if (c.kind == rules::kInputModeFragment) return c.text;
  return "";
}

std::string ImpactText(const Finding& f, const GpuTimeLost& gpu) {
  if (f.impact_gpu_s < 0) return "";
  // Storage that cost too little to matter did cost its own time; the note says how much.
  if (f.secondary && f.secondary_note.rfind("cost ", 0) == 0) return f.secondary_note;
  if (f.secondary) return fmt::format("0 GPU time in this job ({})", f.secondary_note);
  // Its state's idle time is held by an earlier finding of the same state.
  if (f.impact_gpu_s <= 0)
    return "none of its own: the idle time of its kind is charged to the finding above";
  if (gpu.lost_gpu_s <= 0) return FormatGpuTime(f.impact_gpu_s);
  return fmt::format("{} ({} of the GPU time lost)", FormatGpuTime(f.impact_gpu_s),
                     SharePercent(f.impact_gpu_s / gpu.lost_gpu_s));
}

void MarkSecondary(Finding* f, std::string note) {
  if (f->secondary) return;
  f->secondary = true;
  f->secondary_note = std::move(note);
}

}  // namespace

void AddObservedWorkloadFacts(FactSet* facts) {
  // An explicit cap on the mount's disk cache (a negative value leaves space free instead):
  // the setting's bytes, > 0 a cap, < 0 the space kept free, 0 neither (unset, or no size).
  double setting_bytes = 0;
  const Fact* cap = facts->Find("runtime.setting.DATASET_MOUNT_CACHE_SIZE");
  if (cap && cap->is_text()) {
    const std::string& text = cap->text();
    const bool negative = !text.empty() && text[0] == '-';
    const std::string magnitude = negative ? text.substr(1) : text;
    std::optional<double> bytes = ParseBytes(magnitude);
    if (!bytes) bytes = analyzers::ParseDouble(magnitude);  // usize: bare bytes
    // A size negative after the sign ("--10GB") is no size at all.
    if (bytes && *bytes >= 0) setting_bytes = negative ? -*bytes : *bytes;
    if (setting_bytes > 0) {
      Provenance p = cap->provenance;
      p.origin = FactOrigin::kDerived;
      p.source = "DATASET_MOUNT_CACHE_SIZE=" + text + " (" + cap->provenance.source + ")";
      facts->Set(NumberFact("runtime.mount_cache_bytes", setting_bytes, Unit::kBytes, p));
    }
  }
  // What the cache can hold when nothing caps it: the local disk it fills ("Unlimited"), less
  // the space a negative value keeps free and the last 150 MB the runtime never uses
  // (DATASET_RESERVED_FREE_DISK_SPACE); full, it prunes the least recently used files.
  if (setting_bytes <= 0)
    if (const Fact* disk = facts->Find("node.local_disk_bytes"); disk && disk->is_number()) {
      const double keep_free = -setting_bytes;
      const double room = disk->number() - keep_free - kReservedFreeDiskBytes;
      if (room > 0) {
        Provenance p = disk->provenance;
        p.origin = FactOrigin::kDerived;
        p.source = fmt::format(
            "the node's local disk, {}{}, less the 150 MB the data runtime never uses ({})",
            FormatBytes(disk->number()),
            keep_free > 0 ? fmt::format(", less the {} DATASET_MOUNT_CACHE_SIZE={} keeps free",
                                        FormatBytes(keep_free), cap->text())
                          : std::string(),
            disk->provenance.source);
        facts->Set(NumberFact("runtime.mount_cache_room_bytes", room, Unit::kBytes, p));
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
  // Nodes whose GPUs idled while they read nothing: their idle time is no storage cause's.
  AddGpuNodeRows(facts, nodes);
  const double busy_percent = facts.Number("gpu.busy_threshold_percent").value_or(10) * 2;
  s.idle_nodes =
      NodesIdleReadingNothing(*nodes, busy_percent, NodesMeetingFailure(evidence.timeline));
  // Refusals that did not coincide with the activity that failed did not end the job (two 404s
  // on optional files at the start, an upload that timed out an hour later).
  if (std::string why = AccessRefusalsMissFailure(evidence); !why.empty())
    for (auto& f : findings)
      if (f.bottleneck == Bottleneck::kAccessFailure) MarkSecondary(&f, why);
  return s;
}

// The state of the observed finding whose class caps the others: the cause when no GPU samples
// were read to weigh them by.
std::optional<IdleState> CappingObservedState(const std::vector<Finding>& findings) {
  const Finding* best = nullptr;
  for (const auto& f : findings)
    if (!f.secondary && f.severity != Severity::kInfo && f.basis == FindingBasis::kObserved &&
        f.bottleneck != Bottleneck::kNone &&
        (!best || BottleneckRank(f.bottleneck) < BottleneckRank(best->bottleneck)))
      best = &f;
  return best ? StateOfBottleneck(best->bottleneck) : std::nullopt;
}

// Findings that do not describe this job: capacity arithmetic its observations contradict.
void MarkContradicted(const Situation& s, std::vector<Finding>* all) {
  for (auto& f : *all) {
    if (f.bottleneck == Bottleneck::kNone) continue;
    if (std::string why = Contradiction(f, s.account); !why.empty())
      MarkSecondary(&f, "would have limited a larger run; not this one: " + why);
  }
}

// Each finding costs its state's share of the ledger: the first finding of a state (the cause's
// own first) holds it, the others of that state had none of their own. A finding whose state
// holds nothing did not describe this job; storage that cost too little to matter held no job
// back.
void CostFromLedger(const Situation& s, const IdleLedger& ledger, IdleState cause,
                    std::vector<Finding>* all) {
  std::vector<Finding>& findings = *all;
  const bool storage_cause = IsStorageState(cause);
  std::set<IdleState> held;
  // The cause's finding first, so it holds its state's share: the one the cause statement
  // names (FindingOfState: the most severe, the earliest among equals).
  std::vector<Finding*> order;
  for (auto& f : findings)
    if (StateOfBottleneck(f.bottleneck) == cause && !f.secondary &&
        f.basis == FindingBasis::kObserved)
      order.push_back(&f);
  std::stable_sort(order.begin(), order.end(),
                   [](const Finding* a, const Finding* b) { return a->severity > b->severity; });
  for (auto& f : findings)
    if (std::find(order.begin(), order.end(), &f) == order.end()) order.push_back(&f);
  for (Finding* f : order) {
    auto state = StateOfBottleneck(f->bottleneck);
    if (!state || !s.gpu.known) {
      f->impact_gpu_s = -1;
      continue;
    }
    const double share = ledger.Of(*state);
    if (f->secondary) {
      f->impact_gpu_s = 0;
      continue;
    }
    // Nothing placed the idle time: a finding is neither charged nor cleared by it.
    if (cause == IdleState::kUnknown) {
      f->impact_gpu_s = held.insert(*state).second ? share : 0;
      continue;
    }
    if (!storage_cause && f->bottleneck != Bottleneck::kAccessFailure) {
      if (share > 0 && s.gpu.sampled_gpu_s > 0)
        MarkSecondary(f, fmt::format("cost {} ({:.1f}% of the GPU time sampled): too little to "
                                     "have held the job back",
                                     FormatGpuTime(share), 100 * share / s.gpu.sampled_gpu_s));
      else
        MarkSecondary(f, f->basis == FindingBasis::kCapacity
                             ? "would have limited a larger run; storage cost this one little"
                             : "did not cost GPU time in this job: storage cost it little");
      f->impact_gpu_s = held.insert(*state).second ? share : 0;
      continue;
    }
    if (share <= 0) {
      f->impact_gpu_s = 0;
      MarkSecondary(f, f->basis == FindingBasis::kCapacity
                           ? "would have limited a larger run; its symptom held no idle GPU "
                             "time in this one"
                           : "its symptom coincided with no idle GPU time");
      continue;
    }
    f->impact_gpu_s = held.insert(*state).second ? share : 0;
  }
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
void EstimateWhatTheFixBuys(const Situation& s, Bottleneck cls, const LedgerReplay& replay,
                            std::vector<NodeRow> nodes, DiagnosisSummary* summary) {
  DiagnosisSummary& d = *summary;
  const GpuTimeLost& gpu = s.gpu;
  const FactSet& facts = *s.facts;
  if (cls == Bottleneck::kAccessFailure) {
    double read_nothing_gpu_s = 0;
    for (const auto& n : s.idle_nodes) read_nothing_gpu_s += std::max(0.0, n.lost_gpu_s);
    d.estimate = EstimateAccessFix(*s.evidence, gpu, read_nothing_gpu_s);
  } else if (cls == Bottleneck::kAccessMode && InputFailedOnFullDisk(*s.evidence)) {
    // The download never finished: nothing shows the job training, to replay.
    d.estimate = FixEstimate{};
    d.estimate.text =
        "no estimate of the job once its input is mounted: it never got past its input (the "
        "download filled the node's disk and failed), so these logs do not show it training";
  } else if (cls != Bottleneck::kNone && d.confidence != "inconclusive") {
    d.estimate = EstimateFix(cls, facts, gpu, replay);
  }
  // A replay that wins nothing back (the job's own share of a shared account, nodes already at
  // their NICs) is no figure to print: it would contradict the diagnosis.
  if (d.estimate.available &&
      d.estimate.idle_fraction_after >= d.estimate.idle_fraction_before - 0.005) {
    d.estimate.available = false;
    d.estimate.text = fmt::format(
        "no figure: lifting the {} alone wins no GPU time back in this replay (the next limit, "
        "such as the nodes' own NICs or the job's share of a shared account, holds it)",
        d.cause);
    d.estimate.assumptions.clear();
  }
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
  // The settings act on the mode the fix leaves the job in: the cause's recommended mode, else
  // the mode the job ran with. One decision with advise and lint (rules/access_decision.h): no
  // setting is pasted that the mode ignores.
  std::string mode;
  for (const auto& f : primary)
    if (f.rule_id == rule_id && !rule_id.empty()) mode = RecommendedMode(f);
  if (mode.empty())
    if (const Fact* m = s.facts->Find("workload.mode"); m && m->is_text()) mode = m->text();
  std::vector<rules::DroppedSetting> dropped;
  rules::Advice advice =
      mode.empty() ? rules::MergeAdvice(primary) : rules::AdviceForMode(primary, mode, &dropped);

  // "none found, confirmed" read as if nothing had been found for sure: the verdict says what
  // was found (the cause stays "none found" in the result, for scripts). Without GPU samples the
  // confidence keeps the cause's and says that its cost in GPU time was not measured (an
  // inconclusive verdict already names the GPU samples among what would settle it).
  const std::string confidence = ConfidenceText(d.confidence, gpu.known);
  postmortem->verdict = d.cause == "inconclusive" ? d.cause
                        : d.cause == "none found"
                            ? fmt::format("no storage bottleneck, {}", confidence)
                            : fmt::format("{}, {}", d.cause, confidence);
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
  DiagnosePostmortem(rule_set, std::move(nodes), {}, postmortem);
}

void DiagnosePostmortem(const rules::RuleSet& rule_set, std::vector<NodeRow> nodes,
                        const std::vector<analyzers::NodeEvidence>& node_evidence,
                        Postmortem* postmortem) {
  AddObservedWorkloadFacts(&postmortem->evidence.facts);
  AddLatencyCapFacts(&postmortem->evidence.facts);
  rules::EvaluationResult result = rule_set.Evaluate(postmortem->evidence.facts);
  std::vector<Finding>& findings = result.findings;
  Situation s = Assess(postmortem->evidence, &nodes, &findings);
  MarkContradicted(s, &findings);
  // A job that never read its input failed on access, whatever the error looked like.
  if (InputNeverRead(postmortem->evidence) &&
      std::none_of(findings.begin(), findings.end(), [](const Finding& f) {
        return f.bottleneck == Bottleneck::kAccessFailure && !f.secondary &&
               f.severity != Severity::kInfo;
      }))
    findings.push_back(NeverReadFinding(postmortem->evidence));
  // An input that failed as the node's disk filled is critical too: the job could not train.
  if (InputFailedOnFullDisk(postmortem->evidence))
    findings.push_back(FullDiskFinding(postmortem->evidence));
  // One ledger of every idle GPU-second; the verdict, the costs and the headline read it.
  const LedgerJudgement judgement =
      JudgeEvidence(postmortem->evidence, findings, s.account, s.idle_nodes);
  const IdleLedger ledger = BuildIdleLedger(postmortem->evidence, node_evidence, judgement);
  const IdleState cause_state =
      ChooseLedgerCause(ledger, judgement.access_failed, CappingObservedState(findings),
                        judgement.refusals_seen, judgement.download_outgrew_disk_s.has_value());
  DiagnosisSummary d;
  d.present = true;
  d.gpu = s.gpu;
  CauseChoice c;
  c.served_fast = judgement.mount_state == IdleState::kNotStorage;
  // Refusals too brief to matter: what they cost is still said.
  if (!IsStorageState(cause_state) && ledger.Of(IdleState::kThrottledUnknown) > 0)
    c.busy_burst_gpu_s = ledger.Of(IdleState::kThrottledUnknown);
  StateLedgerCause(s, findings, ledger, cause_state, &c, &d);
  DemoteAgainstCause(c, &findings);
  CostFromLedger(s, ledger, cause_state, &findings);
  d.ledger = LedgerSummaryOf(ledger, cause_state);
  PutLedgerOnNodes(d.ledger, &nodes);
  OrderByGpuTimeLost(&nodes);
  // The one place the headline's split and the cause's cost are set: the ledger's (no GPU
  // samples, no ledger: neither is known).
  if (ledger.known) {
    d.gpu.headline = LedgerHeadline(s.gpu, ledger);
    d.attributed_gpu_s = IsStorageState(cause_state) || cause_state == IdleState::kNotStorageNode
                             ? ledger.Of(cause_state)
                             : -1;
  }
  for (auto& f : findings) f.impact = ImpactText(f, s.gpu);
  RankFindings(c.rule_id, &findings);
  LedgerReplay replay;
  if (ledger.known && IsStorageState(cause_state)) replay.cause_gpu_s = ledger.Of(cause_state);
  replay.others_egress_gbps = ledger.others_egress_gbps;
  EstimateWhatTheFixBuys(s, c.cls, replay, std::move(nodes), &d);
  WriteVerdict(s, c, std::move(d), std::move(findings), std::move(result.skipped), postmortem);
}

}  // namespace feedcheck::diagnosis
