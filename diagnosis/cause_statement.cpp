// The post-mortem's cause stated: what it is, how sure, which sources agree, what to do, and
// what would settle it when nothing does (a phase of DiagnosePostmortem, postmortem_phases.h).
#include <fmt/format.h>

#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "analyzers/text_util.h"
#include "core/units.h"
#include "diagnosis/evidence_sources.h"
#include "diagnosis/gpu_time_summary.h"
#include "diagnosis/ledger_judgement.h"
#include "diagnosis/partition_limit.h"
#include "diagnosis/postmortem_diagnosis.h"
#include "diagnosis/postmortem_phases.h"

namespace feedcheck::diagnosis {
namespace {

constexpr const char* kMetricsCommand =
    "the storage account's metrics: az monitor metrics list --resource "
    "<account id>/blobServices/default --metrics Egress Ingress Transactions --interval PT1M "
    "--aggregation Total --filter \"ResponseType eq '*'\" -o json > metrics.json, then "
    "--metrics metrics.json";
constexpr const char* kGpuCommand =
    "GPU utilisation: the workspace's GpuUtilization metric (az monitor metrics list --resource "
    "<workspace id> --metrics GpuUtilization --interval PT1M --aggregation Average --filter "
    "\"NodeId eq '*' and DeviceId eq '*'\" -o json) or nvidia-smi / DCGM samples, then --gpu FILE";
constexpr const char* kRslexFile =
    "the job's rslex.log.* files (job > Outputs + logs > system_logs/data_capability/)";

// The sources that point at the finding's cause. GPU samples show the effect (idle GPUs), not
// why, except for the access mode, where idling exactly while the download ran is the cause.
std::set<SourceKind> CauseSources(const Finding& f, bool probes_saw_storage) {
  std::set<SourceKind> out;
  for (const auto& fact : f.evidence)
    for (SourceKind s : SourcesOf(fact, probes_saw_storage))
      if (s != SourceKind::kGpuSamples || f.bottleneck == Bottleneck::kAccessMode) out.insert(s);
  return out;
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

// The idle time was on nodes that asked storage for nothing: not storage, and where.
void StateNotStorage(const Situation& s, DiagnosisSummary* d) {
  d->cause = "not storage";
  JoinSources({SourceKind::kGpuSamples, SourceKind::kDataRuntimeLog}, false, &d->agreeing_sources);
  d->confidence = "confirmed";
  std::vector<std::string> names;
  for (const auto& n : s.idle_nodes) names.push_back(n.node);
  d->fix = fmt::format(
      "Look at the job's own process on {0} (a rank that hung or waited on the others, a "
      "data loader that never started, a failed device): not storage. Storage cannot hold back "
      "a node that asks it for nothing: {0} idled while {1} data runtime read nothing (no reads "
      "in its rslex log), the other nodes busy.",
      fmt::join(names, ", "), names.size() == 1 ? "its" : "their");
}

constexpr const char* kAfterDataPhase = "the time lost after the data phase";

// The GPUs were busy enough, or storage served them: no storage cause, and where to look.
void StateNoneFound(const Situation& situation, const IdleLedger& ledger, const CauseChoice& c,
                    DiagnosisSummary* d) {
  const GpuTimeLost& gpu = situation.gpu;
  const AccountView& account = situation.account;
  d->cause = "none found";
  std::set<SourceKind> s = {SourceKind::kGpuSamples};
  if (account.have_rslex && account.log_throttled == 0) s.insert(SourceKind::kDataRuntimeLog);
  if (account.have_metrics && account.metrics_throttled == 0) s.insert(SourceKind::kStorageMetrics);
  if (ledger.placed_by_data_runtime) s.insert(SourceKind::kDataRuntimeLog);
  JoinSources(s, false, &d->agreeing_sources);
  d->confidence = s.size() >= 2 ? "confirmed" : "likely";
  // Where the idle time fell says where to look, from the ledger: after the data phase (its own
  // code), in the mount's cached epochs (its not_storage time in minutes the account served next
  // to nothing), or during reads that storage served without refusing.
  const char* when =
      ledger.lost_gpu_s > 0 && ledger.Of(IdleState::kOwnCode) >= 0.5 * ledger.lost_gpu_s
          ? kAfterDataPhase
      : ledger.lost_gpu_s > 0 && ledger.cached_gpu_s >= 0.5 * ledger.lost_gpu_s
          ? "the time lost while the mount served from its cache"
      : c.served_fast ? "the time lost while storage served every request fast, far below "
                        "its limits"
      : c.busy_burst_gpu_s >= 0 ? "the time lost outside the 503 burst, while storage served "
                                  "every request"
                                : "the time lost while storage served every request";
  // Stops with no read, where the job saves through a mounted output and no Ingress was read:
  // a checkpoint's writes stop the GPUs as a validation does, and only the account's Ingress in
  // those minutes tells them apart. Likely, not confirmed, and what would settle it.
  const Fact* rw_mount = situation.facts->Find("runtime.rw_mount_outputs");
  const bool writes_unsettled = std::string_view(when) == kAfterDataPhase && rw_mount &&
                                !situation.evidence->FindSeries("metrics.ingress_gbps");
  if (gpu.idle_fraction < kBusyIdleFraction) {
    d->fix = "Nothing to fix on the storage side.";
  } else {
    d->fix = fmt::format(
        "Look at the job's own code (data loading workers, preprocessing, evaluation, "
        "checkpoints) for {}: ",
        when);
    if (!writes_unsettled) {
      d->fix += "storage is not what held the GPUs back.";
    } else {
      const Provenance& p = rw_mount->provenance;
      d->fix += fmt::format(
          "no read of its input held the GPUs back. The job writes through an rw_mount output "
          "({}): if these stops are its checkpoints, they waited on those writes, which the "
          "account's Ingress in the same minutes would show, in {}.",
          p.line > 0 ? fmt::format("{}:{}", p.file, p.line) : p.source, kMetricsCommand);
    }
  }
  if (writes_unsettled) d->confidence = "likely";
  // A failed output write is not GPU time lost, but it is not nothing either: say so.
  for (const auto& iv : situation.evidence->timeline)
    if (iv.lane == "data-runtime" && analyzers::IContains(iv.label, "upload") &&
        iv.status.rfind("Failure", 0) == 0) {
      d->fix += fmt::format(
          " The output upload failed ({}): it cost no GPU time, but the job's outputs may "
          "not have been written; its error is in the rslex log.",
          iv.source);
      break;
    }
  if (c.busy_burst_gpu_s >= 0)
    d->fix += fmt::format(
        " A burst of 503 'server is busy' cost {} ({:.1f}% of the GPU time sampled): too little "
        "to have held the job back.",
        FormatGpuTime(c.busy_burst_gpu_s), 100 * c.busy_burst_gpu_s / gpu.sampled_gpu_s);
}

// Refused while every account figure was far below its limit: a per-blob or partition target,
// which the account's limits say nothing about.
void StatePartitionTarget(const PartitionLimit& partition, DiagnosisSummary* d) {
  d->cause = "blob or partition target";
  JoinSources({SourceKind::kDataRuntimeLog, SourceKind::kStorageMetrics}, false,
              &d->agreeing_sources);
  d->confidence = partition.confirmed ? "confirmed" : "likely";
  d->fix = fmt::format(
      "Spread the reads over more blobs (shard one large file, or give each reader its own "
      "shards) and keep AZUREML_DATASET_HTTP_RETRY_COUNT at its default. Storage refused "
      "requests while {}: no account limit was near, so the target hit was a single blob's or "
      "partition's (a blob serves up to 500 requests/s; see {}); more accounts or a raised "
      "account limit would not help.",
      partition.figures, kBlobTargetsSource);
}

// Refused, and nothing says which limit: what would tell.
void StateThrottledLimitUnknown(const Situation& s, DiagnosisSummary* d) {
  d->cause = "throttled, limit unknown";
  d->confidence = "inconclusive";
  d->settle_with = !s.account.have_metrics ? kMetricsCommand
                   : s.account.egress_limit
                       ? "StorageBlobLogs for the job's window (status, ServerLatencyMs and Uri "
                         "per request): which blobs were refused"
                       : "StorageBlobLogs for the job's window (status, ServerLatencyMs per "
                         "request) or the account's limits (--region / --account-egress-gbps)";
  d->fix =
      "Keep AZUREML_DATASET_HTTP_RETRY_COUNT at its default; compare the account's egress "
      "and transactions with its limits to see which one was hit.";
}

// An observed finding is the cause: its class, the sources that agree on it, its fix.
void StateObservedCause(const Situation& s, const std::vector<Finding>& findings, CauseChoice* c,
                        DiagnosisSummary* d) {
  const Finding& cause = *c->cause;
  const Bottleneck cls = c->cls = cause.bottleneck;
  c->rule_id = cause.rule_id;
  c->rule_title = cause.title;
  d->cause = std::string(BottleneckName(cls));
  std::set<SourceKind> sources;
  for (const auto& f : findings)
    if (!f.secondary && f.bottleneck == cls && f.basis == FindingBasis::kObserved)
      for (SourceKind k : CauseSources(f, s.probes_saw_storage)) sources.insert(k);
  // A bare 503 ServerBusy says the account throttled, not which limit: it agrees with an
  // account limit that another source names.
  if ((IsAccountLimit(cls) || cls == Bottleneck::kAccountIngress) && s.account.log_server_busy > 0)
    sources.insert(SourceKind::kDataRuntimeLog);
  if (IsAccountLimit(cls) && s.account.metrics_server_busy > 0)
    sources.insert(SourceKind::kStorageMetrics);
  const bool cleared = !IsAccountLimit(cls) && s.account.Cleared();
  JoinSources(sources, cleared, &d->agreeing_sources);
  d->confidence = d->agreeing_sources.size() >= 2 ? "confirmed" : "likely";
  d->fix = cause.message;
}

// Only a capacity finding (what the storage could deliver, not what the job saw): a suspect,
// and what would settle it.
void StateCapacitySuspect(const Situation& s, CauseChoice* c, DiagnosisSummary* d) {
  const Finding& suspect = *c->capacity_cause;
  c->cls = suspect.bottleneck;
  c->rule_id = suspect.rule_id;
  c->rule_title = suspect.title;
  d->cause = std::string(BottleneckName(c->cls));
  d->confidence = "inconclusive";
  d->settle_with = SettleWith(s.gpu, s.account, *s.facts, c->cls);
  d->fix = suspect.message;
}

void StateInconclusive(const Situation& s, DiagnosisSummary* d) {
  d->cause = "inconclusive";
  d->confidence = "inconclusive";
  d->settle_with = SettleWith(s.gpu, s.account, *s.facts, Bottleneck::kNone);
  d->fix = s.gpu.known ? "No finding explains the GPU time lost; the file below would tell more."
                       : "Without GPU samples feedcheck cannot tell whether storage cost GPU time.";
}

// The finding that states a storage cause: the describing observed finding of that state, the
// most severe first, the earliest among equals (the cause is stated before any finding is
// charged its share of the ledger).
const Finding* FindingOfState(const std::vector<Finding>& findings, IdleState state,
                              FindingBasis basis) {
  const Finding* best = nullptr;
  for (const auto& f : findings) {
    if (f.secondary || f.severity == Severity::kInfo || f.basis != basis) continue;
    if (StateOfBottleneck(f.bottleneck) != state) continue;
    if (!best || f.severity > best->severity) best = &f;
  }
  return best;
}

// What held the reads at their requests' latency, from the figures that placed it: the way to
// a distant account, else too few requests in flight for their size.
std::string LatencyFix(const FactSet& facts) {
  const std::string keep_near =
      "Keep the data in the compute's region (copy it there with azcopy), or keep more "
      "requests in flight so the latency overlaps. ";
  if (EndToEndDwarfsServer(facts))
    return keep_near +
           fmt::format(
               "Requests spent {} ms end to end against {} ms in the service: the time "
               "went on the way between the nodes and the account (another region, or a "
               "congested path), not in storage.",
               FormatNumber(*facts.Number("metrics.e2e_latency_ms")),
               FormatNumber(*facts.Number("metrics.server_latency_ms")));
  if (LatencyDwarfsServer(facts))
    return keep_near +
           "The account is in another region than the compute: every request crossed that "
           "distance both ways.";
  // Requests in flight x their size over their latency: the rate their time allows.
  return "Keep more requests in flight: raise DATASET_MOUNT_READ_THREADS or "
         "RSLEX_DOWNLOADER_THREADS (4 per core by default) and the data loader's workers, or "
         "pack small files into larger shards (tar, WebDataset): the requests' time, not "
         "storage's throughput, set the rate.";
}

// A state no rule states (the node's NIC, the job's own writes, distance): said from the ledger
// and the figures that placed it.
void StateFromLedgerOnly(const Situation& s, const IdleLedger& ledger, IdleState state,
                         DiagnosisSummary* d) {
  const FactSet& facts = *s.facts;
  d->cause = std::string(IdleStateName(state));
  std::set<SourceKind> sources = {SourceKind::kGpuSamples};
  if (ledger.placed_by_data_runtime || s.account.have_rslex)
    sources.insert(SourceKind::kDataRuntimeLog);
  if (s.account.have_metrics) sources.insert(SourceKind::kStorageMetrics);
  JoinSources(sources, false, &d->agreeing_sources);
  d->confidence = sources.size() >= 3   ? "confirmed"
                  : sources.size() == 2 ? "likely"
                                        : "inconclusive";
  const double nic = facts.Number("node.nic_gbps").value_or(0);
  switch (state) {
    case IdleState::kNodeNic:
      d->fix = fmt::format(
          "Use a VM size with a faster NIC, or spread the same data over more nodes. Each node "
          "read at its NIC's rate ({} Gbit/s) while the account stayed below its limits: the "
          "node's network was the limit, not storage's; more threads, another input mode or "
          "more storage accounts would not read faster.",
          FormatNumber(nic));
      break;
    case IdleState::kWrites:
      d->fix = fmt::format(
          "Write checkpoints less often, or to the node's local disk first and upload them in "
          "the background; keep them off the input's account if it is near its limits. The GPUs "
          "idled while the job wrote to storage (the account's Ingress peaked at {} Gbit/s in "
          "those minutes): checkpoints written through an output hold training until they are "
          "stored.",
          FormatNumber(facts.Number("metrics.ingress_gbps_peak").value_or(0)));
      break;
    case IdleState::kLatency:
      d->fix = LatencyFix(facts);
      break;
    case IdleState::kCacheRereads: {
      auto cap = facts.Number("runtime.mount_cache_bytes");
      auto room = facts.Number("runtime.mount_cache_room_bytes");
      auto input = facts.Number("dataset.bytes");
      if (!(cap && *cap > 0) && room && input && *input > *room) {
        // Nothing capped it: the local disk it fills held less than the input.
        d->fix = fmt::format(
            "Use a VM size whose local disk holds the whole input, or train on a share of it "
            "that the disk holds. The mount's cache fills the local disk ({} of room) and "
            "prunes what it read least recently, but each epoch reads a new random share of the "
            "{} input: later epochs read storage again while the GPUs waited.",
            FormatBytes(*room), FormatBytes(*input));
        break;
      }
      d->fix = fmt::format(
          "Give the mount's cache room for the whole input: leave DATASET_MOUNT_CACHE_SIZE unset "
          "(unlimited) or give it a negative value, which only keeps that much disk free, with "
          "the cache on a local disk larger than the data; or download the input if it fits on "
          "the local disk. {}: each node read past it, so later epochs read storage again while "
          "the GPUs waited.",
          cap && *cap > 0 ? fmt::format("The cache was capped at {}", FormatBytes(*cap))
                          : std::string("The cache held less than the node re-read"));
      break;
    }
    case IdleState::kStartupDownload:
      d->fix =
          "Mount the input (ro_mount) instead of downloading it: a mount starts at once and "
          "fetches what is read while the GPUs compute. Download mode copies the whole input "
          "before the job's code starts, and the GPUs stood idle while it ran.";
      break;
    case IdleState::kAccountEgress:
    case IdleState::kAccountIngress:
    case IdleState::kAccountRequests: {
      const char* what = state == IdleState::kAccountEgress    ? "egress"
                         : state == IdleState::kAccountIngress ? "ingress"
                                                               : "request rate";
      const char* key = state == IdleState::kAccountEgress    ? "account.egress_gbps"
                        : state == IdleState::kAccountIngress ? "account.ingress_gbps"
                                                              : "account.requests_per_s";
      auto limit = facts.Number(key);
      d->fix = fmt::format(
          "Ask Azure support for a higher {} limit on the account, or spread the data over more "
          "storage accounts and split the nodes between them. The GPUs idled while the account "
          "was at its {} limit{}: more threads or another input mode would not read faster.",
          what, what,
          !limit ? std::string()
          : state == IdleState::kAccountRequests
              ? fmt::format(" ({}/s)", FormatGrouped(*limit))
              : fmt::format(" ({} Gbit/s)", FormatNumber(*limit)));
      break;
    }
    case IdleState::kAccess:
      d->fix =
          "Restore the job's access to its input: renew the SAS or the identity's role, check "
          "the path and the account's name and network rules, then rerun. The job's requests "
          "were refused or never reached the account, so it read none of what it waited for.";
      break;
    case IdleState::kNotStorageNode:
    case IdleState::kBlobTarget:
    case IdleState::kThrottledUnknown:
    case IdleState::kNotStorage:
    case IdleState::kOwnCode:
    case IdleState::kUnknown:
      // Stated by their own statements (StateLedgerCause); never a storage cause said here.
      d->fix = fmt::format("The GPU time lost is charged to {}.", IdleStateName(state));
      break;
  }
}

}  // namespace

void StateLedgerCause(const Situation& s, const std::vector<Finding>& findings,
                      const IdleLedger& ledger, IdleState cause, CauseChoice* c,
                      DiagnosisSummary* d) {
  for (const auto& n : s.idle_nodes)
    d->not_storage_nodes.push_back(
        fmt::format("{}: GPUs {:.0f}% busy, {} lost, while its data runtime read nothing", n.node,
                    n.util_mean_percent, FormatGpuTime(n.lost_gpu_s)));
  switch (cause) {
    case IdleState::kNotStorageNode:
      StateNotStorage(s, d);
      return;
    case IdleState::kNotStorage:
    case IdleState::kOwnCode:
      StateNoneFound(s, ledger, *c, d);
      return;
    case IdleState::kBlobTarget:
    case IdleState::kThrottledUnknown: {
      c->busy_unexplained = true;
      const PartitionLimit partition = PartitionTargetHit(*s.facts);
      if (cause == IdleState::kBlobTarget && partition.applies)
        StatePartitionTarget(partition, d);
      else
        StateThrottledLimitUnknown(s, d);
      return;
    }
    case IdleState::kUnknown:
      c->capacity_cause = nullptr;
      for (const auto& f : findings)
        if (!f.secondary && f.severity != Severity::kInfo && f.bottleneck != Bottleneck::kNone &&
            f.basis == FindingBasis::kCapacity &&
            (!c->capacity_cause || f.severity > c->capacity_cause->severity))
          c->capacity_cause = &f;
      if (c->capacity_cause)
        StateCapacitySuspect(s, c, d);
      else
        StateInconclusive(s, d);
      return;
    default:
      break;
  }
  if (const Finding* f = FindingOfState(findings, cause, FindingBasis::kObserved)) {
    c->cause = f;
    StateObservedCause(s, findings, c, d);
  } else {
    StateFromLedgerOnly(s, ledger, cause, d);
  }
}

}  // namespace feedcheck::diagnosis
