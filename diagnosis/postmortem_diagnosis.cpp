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
#include "diagnosis/cause_shares.h"
#include "diagnosis/claim_checks.h"
#include "diagnosis/cluster_nodes.h"
#include "diagnosis/evidence_sources.h"
#include "diagnosis/fix_estimate.h"
#include "diagnosis/gpu_time_summary.h"
#include "diagnosis/partition_limit.h"
#include "rules/advice.h"

namespace feedcheck::diagnosis {

namespace {

constexpr const char* kMetricsCommand =
    "the storage account's metrics: az monitor metrics list --resource "
    "<account id>/blobServices/default --metrics Egress Transactions --interval PT1M "
    "--aggregation Total --filter \"ResponseType eq '*'\" -o json > metrics.json, then "
    "--metrics metrics.json";
constexpr const char* kGpuCommand =
    "GPU utilisation: the workspace's GpuUtilization metric (az monitor metrics list --resource "
    "<workspace id> --metrics GpuUtilization --interval PT1M --aggregation Average --filter "
    "\"NodeId eq '*' and DeviceId eq '*'\" -o json) or nvidia-smi / DCGM samples, then --gpu FILE";
constexpr const char* kRslexFile =
    "the job's rslex.log.* files (job > Outputs + logs > system_logs/data_capability/)";

std::optional<double> Number(const FactSet& facts, const std::string& key) {
  const Fact* f = facts.Find(key);
  return f && f->is_number() ? std::optional<double>(f->number()) : std::nullopt;
}

double Count(const FactSet& facts, const std::string& key) {
  return Number(facts, key).value_or(0);
}

// What the account side showed, from every source that saw it.
struct AccountView {
  bool have_metrics = false;
  bool have_rslex = false;
  double log_throttled = 0;  // per-node logs, any kind
  double log_server_busy = 0;
  double metrics_throttled = 0;  // account-wide
  double metrics_server_busy = 0;
  std::optional<double> egress_peak, egress_limit, requests_peak, requests_limit;

  bool EgressFarBelowLimit() const {
    return egress_peak && egress_limit && *egress_limit > 0 && *egress_peak < 0.5 * *egress_limit;
  }
  bool RequestsFarBelowLimit() const {
    return requests_peak && requests_limit && *requests_limit > 0 &&
           *requests_peak < 0.5 * *requests_limit;
  }
  // The account demonstrably was not the limit: metrics read, no throttling anywhere, and
  // egress (when its limit is known) far below it.
  bool Cleared() const {
    return have_metrics && log_throttled == 0 && metrics_throttled == 0 &&
           (!egress_limit || EgressFarBelowLimit());
  }
};

// The account served the job fast: its metrics were read, nothing was refused, egress (and
// requests, when their limit is known) stayed far below the limits, and requests spent about
// as long end to end as in the service (the guide's sign of a client starved of threads or
// CPU is end-to-end latency far above the server's).
bool StorageServedFast(const AccountView& a, const FactSet& facts) {
  if (!a.Cleared() || !a.egress_limit) return false;
  if (a.requests_limit && a.requests_peak && !a.RequestsFarBelowLimit()) return false;
  auto e2e = Number(facts, "metrics.e2e_latency_ms");
  auto server = Number(facts, "metrics.server_latency_ms");
  if (!e2e || !server) return false;
  return !(*e2e > 2 * *server && *e2e - *server > 20);
}

AccountView ViewAccount(const FactSet& facts) {
  AccountView v;
  for (const auto& [key, fact] : facts) {
    if (!fact.is_number()) continue;
    if (key.rfind("metrics.", 0) == 0) v.have_metrics = true;
    if (key == "runtime.non_success_responses" || key == "runtime.retries") v.have_rslex = true;
    if (key.rfind("runtime.throttled.", 0) == 0) v.log_throttled += fact.number();
  }
  v.log_server_busy = Count(facts, "runtime.throttled.server_busy");
  v.metrics_throttled = Count(facts, "metrics.throttled_total");
  v.metrics_server_busy = Count(facts, "metrics.throttled.ServerBusyError");
  v.egress_peak = Number(facts, "metrics.egress_gbps_peak");
  v.egress_limit = Number(facts, "account.egress_gbps");
  v.requests_peak = Number(facts, "metrics.requests_per_s_peak");
  v.requests_limit = Number(facts, "account.requests_per_s");
  return v;
}

// Why a capacity finding (arithmetic on paper) does not describe this job, or "".
std::string Contradiction(const Finding& f, const AccountView& a) {
  if (f.basis != FindingBasis::kCapacity) return "";
  if (f.bottleneck == Bottleneck::kAccountEgress && a.EgressFarBelowLimit() &&
      a.log_throttled == 0 && a.metrics_throttled == 0)
    return fmt::format(
        "egress peaked at {:.1f} Gbit/s, far below the account's {:.0f}, with no "
        "throttling",
        *a.egress_peak, *a.egress_limit);
  if (f.bottleneck == Bottleneck::kRequestRate && a.RequestsFarBelowLimit() &&
      a.log_throttled == 0 && a.metrics_throttled == 0)
    return fmt::format(
        "transactions peaked at {:.0f}/s, far below the account's {:.0f}/s, with "
        "no throttling",
        *a.requests_peak, *a.requests_limit);
  return "";
}

// The sources that point at the finding's cause. GPU samples show the effect (idle GPUs), not
// why, except for the access mode, where idling exactly while the download ran is the cause.
std::set<SourceKind> CauseSources(const Finding& f, bool probes_saw_storage) {
  std::set<SourceKind> out;
  for (const auto& fact : f.evidence)
    for (SourceKind s : SourcesOf(fact, probes_saw_storage))
      if (s != SourceKind::kGpuSamples || f.bottleneck == Bottleneck::kAccessMode) out.insert(s);
  return out;
}

std::string RecommendedMode(const Finding& f) {
  for (const auto& c : f.config)
    if (c.kind == rules::kInputModeFragment) return c.text;
  return "";
}

// Throttling: the account refused requests at known times.
bool IsThrottleClass(Bottleneck b) { return IsAccountLimit(b) || b == Bottleneck::kAccountIngress; }

// What refusals cost. Throttling that covered less than half of a mount's idle time (a burst)
// costs the GPU time lost while requests were refused, not the mount's other idle time.
// Refusals over most of it were the mount's condition: all of it, as a download's GPUs wait for
// all of the download. The same holds for a bare 503 "server is busy" that names no limit.
double ThrottleCostGpuS(const IdlePools& pools) {
  Finding throttling;
  throttling.bottleneck = Bottleneck::kRequestRate;
  return CoincidentGpuS(throttling, pools);
}

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

std::string SettleWith(const GpuTimeLost& gpu, const AccountView& a, const FactSet& facts,
                       Bottleneck capacity_class) {
  if (!gpu.known) return kGpuCommand;
  if (IsAccountLimit(capacity_class) && !a.have_metrics) return kMetricsCommand;
  if (!a.have_rslex) return kRslexFile;
  if (!a.have_metrics) return kMetricsCommand;
  if (!facts.Find("runtime.mode"))
    return "the job's data-capability.log (job > Outputs + logs > system_logs/data_capability/)";
  return "a pre-flight of the same storage from a node of this size (feedcheck preflight ... "
         "--json, then --with): what the storage and the node can deliver";
}

void JoinSources(const std::set<SourceKind>& sources, bool account_cleared,
                 std::vector<std::string>* out) {
  for (SourceKind s : sources) out->emplace_back(SourceKindName(s));
  // The metrics clearing the account are the same source as metrics already counted.
  if (account_cleared && sources.count(SourceKind::kStorageMetrics) == 0)
    out->emplace_back("storage account metrics (below its limits, no throttling)");
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

void DiagnosePostmortem(const rules::RuleSet& rule_set, std::vector<NodeRow> nodes,
                        Postmortem* postmortem) {
  FactSet& facts = postmortem->evidence.facts;
  AddObservedWorkloadFacts(&facts);
  rules::EvaluationResult result = rule_set.Evaluate(facts);
  std::vector<Finding>& findings = result.findings;
  DiagnosisSummary d;
  d.present = true;
  d.gpu = SummarizeGpuTime(facts);
  AccountView account = ViewAccount(facts);
  // Figures from a loopback or emulator target (a demo's Azurite) confirm nothing about the
  // job's storage account.
  const bool probes_saw_storage = !CaveatOf(facts).any();
  const GpuTimeLost& gpu = d.gpu;
  // Nodes whose GPUs idled while they read nothing: their idle time is no storage cause's.
  AddGpuNodeRows(facts, &nodes);
  const double busy_percent = Number(facts, "gpu.busy_threshold_percent").value_or(10) * 2;
  std::vector<IdleNodeReadingNothing> idle_nodes = NodesIdleReadingNothing(nodes, busy_percent);
  double not_storage_gpu_s = 0;
  for (const auto& n : idle_nodes) not_storage_gpu_s += n.lost_gpu_s;
  const IdlePools pools = PoolsOf(gpu, facts, idle_nodes);
  double data_lost =
      gpu.have_phases || !gpu.known
          ? pools.download_gpu_s + pools.mount_throttled_gpu_s + pools.mount_other_gpu_s
          : pools.unknown_gpu_s;
  // Refusals that did not coincide with the activity that failed did not end the job (two 404s
  // on optional files at the start, an upload that timed out an hour later).
  if (std::string why = AccessRefusalsMissFailure(postmortem->evidence); !why.empty())
    for (auto& f : findings)
      if (f.bottleneck == Bottleneck::kAccessFailure) MarkSecondary(&f, why);
  // Storage refused the job outright: whatever the GPUs did, the job failed on access.
  const bool access_failed = std::any_of(findings.begin(), findings.end(), [](const Finding& f) {
    return f.bottleneck == Bottleneck::kAccessFailure && f.severity != Severity::kInfo &&
           !f.secondary;
  });
  bool gpus_busy =
      !access_failed && gpu.known && gpu.sampled_gpu_s > 0 &&
      (gpu.idle_fraction < kBusyIdleFraction || data_lost < kBusyIdleFraction * gpu.sampled_gpu_s);

  // 1. What each finding cost, and which ones do not describe this job.
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

  // 2. The cause: the observed finding that cost the most GPU time; among equals, the class
  // that caps the others.
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
  Bottleneck cls = Bottleneck::kNone;
  std::string rule_id, rule_title;  // copies: sorting below moves the findings
  const bool idle_nodes_explain =
      gpus_busy && !idle_nodes.empty() && not_storage_gpu_s >= kBusyIdleFraction * gpu.lost_gpu_s;
  for (const auto& n : idle_nodes)
    d.not_storage_nodes.push_back(
        fmt::format("{}: GPUs {:.0f}% busy, {} lost, while its data runtime read nothing", n.node,
                    n.util_mean_percent, FormatGpuTime(n.lost_gpu_s)));
  const PartitionLimit partition = PartitionTargetHit(facts);
  if (idle_nodes_explain) {
    // The idle time was on nodes that asked storage for nothing: not storage, and where.
    d.cause = "not storage";
    JoinSources({SourceKind::kGpuSamples, SourceKind::kDataRuntimeLog}, false, &d.agreeing_sources);
    d.confidence = "confirmed";
    std::vector<std::string> names;
    for (const auto& n : idle_nodes) names.push_back(n.node);
    d.fix = fmt::format(
        "Not storage: {} idled while {} data runtime read nothing (no reads in its rslex log), "
        "the other nodes busy. Storage cannot hold back a node that asks it for nothing: look "
        "at that node's own process (a rank that hung or waited on the others, a data loader "
        "that never started, a failed device).",
        fmt::join(names, ", "), names.size() == 1 ? "its" : "their");
    d.attributed_gpu_s = not_storage_gpu_s;
  } else if (gpus_busy) {
    d.cause = "none found";
    std::set<SourceKind> s = {SourceKind::kGpuSamples};
    if (account.have_rslex && account.log_throttled == 0) s.insert(SourceKind::kDataRuntimeLog);
    if (account.have_metrics && account.metrics_throttled == 0)
      s.insert(SourceKind::kStorageMetrics);
    if (gpu.have_phases) s.insert(SourceKind::kDataRuntimeLog);
    JoinSources(s, false, &d.agreeing_sources);
    d.confidence = s.size() >= 2 ? "confirmed" : "likely";
    // Where the idle time fell says where to look: after the data phase, in the mount's cached
    // epochs, or during reads that storage served without refusing.
    const char* when =
        gpu.have_phases && gpu.after_data_gpu_s >= 0.5 * gpu.lost_gpu_s
            ? "the time lost after the data phase"
        : gpu.have_phases && gpu.cached_gpu_s >= 0.5 * gpu.lost_gpu_s
            ? "the time lost while the mount served from its cache"
        : served_fast ? "the time lost while storage served every request fast, far below "
                        "its limits"
        : busy_burst_gpu_s >= 0 ? "the time lost outside the 503 burst, while storage served every "
                                  "request"
                                : "the time lost while storage served every request";
    d.fix = gpu.idle_fraction >= kBusyIdleFraction
                ? fmt::format(
                      "Storage is not what held the GPUs back: look at the job's own code "
                      "(data loading workers, preprocessing, evaluation, checkpoints) for "
                      "{}.",
                      when)
                : "Nothing to fix on the storage side.";
    // A failed output write is not GPU time lost, but it is not nothing either: say so.
    for (const auto& iv : postmortem->evidence.timeline)
      if (iv.lane == "data-runtime" && analyzers::IContains(iv.label, "upload") &&
          iv.status.rfind("Failure", 0) == 0) {
        d.fix += fmt::format(
            " The output upload failed ({}): it cost no GPU time, but the job's outputs may "
            "not have been written; its error is in the rslex log.",
            iv.source);
        break;
      }
    if (busy_burst_gpu_s >= 0)
      d.fix += fmt::format(
          " A burst of 503 'server is busy' cost {} ({:.1f}% of the GPU time sampled): too little "
          "to have held the job back.",
          FormatGpuTime(busy_burst_gpu_s), 100 * busy_burst_gpu_s / gpu.sampled_gpu_s);
  } else if (busy_unexplained && partition.applies) {
    // Refused while every account figure was far below its limit: a per-blob or partition
    // target, which the account's limits say nothing about.
    d.cause = "blob or partition target";
    JoinSources({SourceKind::kDataRuntimeLog, SourceKind::kStorageMetrics}, false,
                &d.agreeing_sources);
    d.confidence = partition.confirmed ? "confirmed" : "likely";
    d.fix = fmt::format(
        "Storage refused requests while {}: no account limit was near, so the target hit was a "
        "single blob's or partition's (a blob serves up to 500 requests/s; see {}). Spread the "
        "reads over more blobs (shard one large file, or give each reader its own shards), keep "
        "AZUREML_DATASET_HTTP_RETRY_COUNT at its default; more accounts or a raised account "
        "limit would not help.",
        partition.figures, kBlobTargetsSource);
    d.attributed_gpu_s = gpu.known ? ThrottleCostGpuS(pools) : -1;
  } else if (busy_unexplained) {
    d.cause = "throttled, limit unknown";
    d.confidence = "inconclusive";
    d.settle_with = !account.have_metrics ? kMetricsCommand
                    : account.egress_limit
                        ? "StorageBlobLogs for the job's window (status, ServerLatencyMs and Uri "
                          "per request): which blobs were refused"
                        : "StorageBlobLogs for the job's window (status, ServerLatencyMs per "
                          "request) or the account's limits (--region / --account-egress-gbps)";
    d.fix =
        "Keep AZUREML_DATASET_HTTP_RETRY_COUNT at its default; compare the account's egress "
        "and transactions with its limits to see which one was hit.";
    d.attributed_gpu_s = gpu.known ? ThrottleCostGpuS(pools) : -1;
  } else if (cause) {
    cls = cause->bottleneck;
    rule_id = cause->rule_id;
    rule_title = cause->title;
    d.cause = std::string(BottleneckName(cls));
    std::set<SourceKind> sources;
    for (const auto& f : findings)
      if (!f.secondary && f.bottleneck == cls && f.basis == FindingBasis::kObserved)
        for (SourceKind s : CauseSources(f, probes_saw_storage)) sources.insert(s);
    // A bare 503 ServerBusy says the account throttled, not which limit: it agrees with an
    // account limit that another source names.
    if ((IsAccountLimit(cls) || cls == Bottleneck::kAccountIngress) && account.log_server_busy > 0)
      sources.insert(SourceKind::kDataRuntimeLog);
    if (IsAccountLimit(cls) && account.metrics_server_busy > 0)
      sources.insert(SourceKind::kStorageMetrics);
    bool cleared = !IsAccountLimit(cls) && account.Cleared();
    JoinSources(sources, cleared, &d.agreeing_sources);
    d.confidence = d.agreeing_sources.size() >= 2 ? "confirmed" : "likely";
    d.fix = cause->message;
    d.attributed_gpu_s = cause->impact_gpu_s;
  } else if (capacity_cause) {
    cls = capacity_cause->bottleneck;
    rule_id = capacity_cause->rule_id;
    rule_title = capacity_cause->title;
    d.cause = std::string(BottleneckName(cls));
    d.confidence = "inconclusive";
    d.settle_with = SettleWith(gpu, account, facts, cls);
    d.fix = capacity_cause->message;
  } else {
    d.cause = "inconclusive";
    d.confidence = "inconclusive";
    d.settle_with = SettleWith(gpu, account, facts, Bottleneck::kNone);
    d.fix = gpu.known ? "No finding explains the GPU time lost; the file below would tell more."
                      : "Without GPU samples feedcheck cannot tell whether storage cost GPU time.";
  }

  // 3. Advice that works against the cause becomes secondary.
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

  // 4. Order: the cause, then what else cost GPU time, then the rest; secondary last.
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

  // 5. What the fix buys, and the nodes.
  if (cls == Bottleneck::kAccessFailure)
    d.estimate = EstimateAccessFix(postmortem->evidence, gpu);
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
  postmortem->skipped = std::move(result.skipped);
  postmortem->env = advice.env;
  postmortem->config = advice.config;
  postmortem->diagnosis = std::move(d);
}

}  // namespace feedcheck::diagnosis
