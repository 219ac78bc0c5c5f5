#include "diagnosis/ledger_judgement.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string>

#include "analyzers/text_util.h"
#include "core/units.h"
#include "diagnosis/data_wait_cause.h"
#include "diagnosis/latency_cap.h"
#include "diagnosis/ledger_unit.h"
#include "diagnosis/partition_limit.h"

namespace feedcheck::diagnosis {

namespace {

// The GPUs waited for a download where they lost this much of the time sampled while it ran.
constexpr double kDownloadWaitShare = 0.8;

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

// What the mount's disk cache can hold, bytes: its explicit cap (DATASET_MOUNT_CACHE_SIZE), else
// the local disk it fills where the input's size is known; 0 otherwise. Without the input's size
// a node that read more than its disk may still be in its first epoch of a larger input: a
// stream read once re-reads nothing. (A cap the job set is its own statement of the cache.)
double MountCacheHoldsBytes(const FactSet& facts) {
  if (auto cap = facts.Number("runtime.mount_cache_bytes"); cap && *cap > 0) return *cap;
  if (facts.Number("dataset.bytes").value_or(0) <= 0) return 0;
  return facts.Number("runtime.mount_cache_room_bytes").value_or(0);
}

}  // namespace

bool EndToEndDwarfsServer(const FactSet& facts) {
  auto e2e = facts.Number("metrics.e2e_latency_ms");
  auto server = facts.Number("metrics.server_latency_ms");
  return e2e && server && *e2e > 2 * *server && *e2e - *server > 20;
}

// The GPUs idled through the job's downloads (most of the GPU time sampled while one ran was
// lost): they waited for all of it, as a job does for its input in download mode. The
// access-mode finding says so only where that wait was a share of the job worth advice on.
bool GpusWaitedForDownloads(const Evidence& ev) {
  const Series* lost = ev.FindSeries("gpu.lost_gpu_s_by_time");
  const Series* sampled = ev.FindSeries("gpu.sampled_gpu_s_by_time");
  if (!lost || !sampled || lost->points.size() != sampled->points.size()) return false;
  const std::vector<ledger::Span> downloads = ledger::ActivitiesOf(ev.timeline, nullptr).downloads;
  double lost_in = 0, sampled_in = 0;
  for (size_t i = 0; i < lost->points.size(); ++i) {
    const double t = lost->points[i].x;
    if (!ledger::Inside(downloads, t) || !std::isfinite(lost->points[i].y) ||
        !std::isfinite(sampled->points[i].y))
      continue;
    lost_in += lost->points[i].y;
    sampled_in += sampled->points[i].y;
  }
  return sampled_in > 0 && lost_in >= kDownloadWaitShare * sampled_in;
}

bool LatencyDwarfsServer(const FactSet& facts) {
  if (EndToEndDwarfsServer(facts)) return true;
  const Fact* same = facts.Find("account.same_region");
  return same && same->is_bool() && !std::get<bool>(same->value);
}

// The input activity that failed first (nullptr: none failed); with `unfinished`, also one the
// log never saw end (the job was stopped as it failed). Defined with the input checks.
const TimelineInterval* FirstFailedInput(const Evidence& ev, bool unfinished = false);

LedgerJudgement JudgeEvidence(const Evidence& ev, const std::vector<Finding>& findings,
                              const AccountView& account,
                              const std::vector<IdleNodeReadingNothing>& idle_nodes) {
  LedgerJudgement j;
  const FactSet& facts = ev.facts;
  j.access_failed = std::any_of(findings.begin(), findings.end(), [](const Finding& f) {
    return Describes(f) && f.bottleneck == Bottleneck::kAccessFailure;
  });
  // The failure's onset: the start of the first activity that failed, but no earlier than
  // storage's first refusal of the kind that ends a job, less the retries' last delay before
  // it was logged (a download that ran for an hour before its credential expired failed then).
  // Connections that never got a response log no refusal: the activity's start.
  if (j.access_failed) {
    std::optional<double> first_refusal, first_failed;
    for (const auto& iv : ev.timeline) {
      std::optional<double>* first =
          iv.lane == "access"                                               ? &first_refusal
          : iv.lane == "data-runtime" && iv.status.rfind("Failure", 0) == 0 ? &first_failed
                                                                            : nullptr;
      if (first && (!*first || iv.start_epoch_s < **first)) *first = iv.start_epoch_s;
    }
    j.access_onset_s = first_failed;
    if (first_refusal) {
      const double from = *first_refusal - ledger::RefusalPadS(facts);
      j.access_onset_s = first_failed ? std::max(*first_failed, from) : *first_refusal;
    }
  }
  // A download that failed as it filled the disk: from its end on, the GPUs had no input.
  if (InputFailedOnFullDisk(ev)) {
    const TimelineInterval* failed = FirstFailedInput(ev, true);
    // A download the log never saw end ran until the job stopped: its own time throughout.
    if (analyzers::IContains(failed->label, "download"))
      j.download_outgrew_disk_s =
          failed->status == "unfinished" ? ledger::kInf : failed->end_epoch_s;
  }
  // A download copies the whole input to each node's local disk: an input larger than it
  // cannot be copied, however the copy goes, before or after it fills the disk.
  const auto input_bytes = facts.Number("dataset.bytes");
  const auto disk_bytes = facts.Number("node.local_disk_bytes");
  j.download_cannot_fit = j.download_outgrew_disk_s.has_value() ||
                          (input_bytes && disk_bytes && *disk_bytes > 0 &&
                           *input_bytes > *disk_bytes && facts.Text("workload.mode") == "download");
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
  j.cache_disk_measured = std::any_of(findings.begin(), findings.end(), [](const Finding& f) {
    return Observed(f, Bottleneck::kCacheDisk) &&
           std::any_of(f.evidence.begin(), f.evidence.end(),
                       [](const Fact& e) { return e.key.rfind("probe.disk.", 0) == 0; });
  });
  // Requests this small spend most of their time in flight: the rate is requests in flight x
  // their size over their latency (Little's law), far below what storage or a loader moves.
  // The job's own files first: the reads' sizes may also hold other workloads'.
  const double request_bytes = facts.Number("dataset.median_file_bytes")
                                   .value_or(facts.Number("dataset.mean_file_bytes")
                                                 .value_or(ReadRequestBytes(facts).value_or(0)));
  const bool small_requests = request_bytes > 0 && request_bytes < kSmallRequestBytes;
  const bool latency_observed = AnyObserved(findings, Bottleneck::kSmallFiles) ||
                                AnyObserved(findings, Bottleneck::kClientThreads) ||
                                LatencyDwarfsServer(facts);
  const bool latency = latency_observed || small_requests;
  auto mount_state = [&](bool held_by_latency, bool blame_cache) {
    return blame_cache && cache                ? IdleState::kCacheRereads
           : held_by_latency                   ? IdleState::kLatency
           : StorageServedFast(account, facts) ? IdleState::kNotStorage
                                               : IdleState::kUnknown;
  };
  j.mount_state = mount_state(latency, true);
  j.mount_state_large_requests = mount_state(latency_observed, true);
  j.mount_state_uncached = mount_state(latency, false);
  // The training loop's own clock, where profiler traces were read: a loop that did not wait
  // for its data, or waited on its own input pipeline while storage answered fast, was not held
  // by storage; one that waited while reads were slow was held by their latency.
  if (auto wait = facts.Number("trace.loader_wait_fraction")) {
    std::string why;
    std::optional<bool> cpu_busy;  // the nodes' CPU (Azure ML's CpuUtilization), when recorded
    if (auto cpu = facts.Number("cpu.util_mean")) cpu_busy = *cpu >= kCpuBusyPercent;
    const DataWaitVerdict v = ClassifyDataWait({*wait, StorageSpeedOf(facts, &why), cpu_busy});
    // Reads fast one by one still hold a loop that has too few of them in flight (Little's
    // law): small requests, or a latency cap the placer weighs each node's rate against. The
    // mount's latency then stands against a trace that saw fast reads, unless the node's CPU
    // was busy (its input pipeline, whatever the reads).
    const bool cap_known = facts.Number("runtime.latency_cap_gbps").value_or(0) > 0;
    // A loop that did not wait while its GPUs worked says nothing of the time they idled (a
    // trace taken after the first epoch, the cache serving): "not input" needs idle GPUs in the
    // traced steps.
    const bool traced_idle =
        facts.Number("trace.gpu_idle_fraction").value_or(1) >= kTracedIdleShare;
    // The mount's state, and the one its cache's re-reads would leave (what held the reads the
    // cache did not force).
    auto by_trace = [&](IdleState state) {
      const bool latency_by_law =
          state == IdleState::kLatency && (cap_known || small_requests) && cpu_busy != true;
      const bool pipeline = v.cause == DataWaitCause::kInputPipeline && !latency_by_law;
      if ((v.cause == DataWaitCause::kNotInput ? traced_idle : pipeline) &&
          (state == IdleState::kUnknown || state == IdleState::kLatency))
        return IdleState::kNotStorage;
      if (v.cause == DataWaitCause::kStorage && state == IdleState::kUnknown)
        return IdleState::kLatency;
      return state;
    };
    j.mount_state = by_trace(j.mount_state);
    j.mount_state_uncached = by_trace(j.mount_state_uncached);
  }
  j.download_state = latency ? IdleState::kLatency
                     : cache ? IdleState::kCacheRereads
                             : IdleState::kStartupDownload;
  j.unplaced_state = cache                                            ? IdleState::kCacheRereads
                     : latency                                        ? IdleState::kLatency
                     : AnyObserved(findings, Bottleneck::kAccessMode) ? IdleState::kStartupDownload
                                                                      : IdleState::kUnknown;
  j.refusals_seen = account.log_throttled > 0 || account.metrics_throttled > 0 ||
                    j.throttle_state != IdleState::kThrottledUnknown;
  j.download_is_the_wait =
      AnyObserved(findings, Bottleneck::kAccessMode) || GpusWaitedForDownloads(ev);
  j.ingress_limit_gbps = facts.Number("account.ingress_gbps").value_or(0);
  j.requests_limit_per_s = facts.Number("account.requests_per_s").value_or(0);
  j.job_writes =
      facts.Number("runtime.writing_outputs").value_or(0) > 0 ||
      AnyObserved(findings, Bottleneck::kAccountIngress) ||
      std::any_of(ev.timeline.begin(), ev.timeline.end(), [](const TimelineInterval& iv) {
        return iv.lane == "data-runtime" && analyzers::IContains(iv.label, "upload");
      });
  const double epochs = facts.Number("workload.epochs").value_or(0);
  j.reads_input_once = epochs == 1;
  if (epochs != 1) j.mount_cache_cap_bytes = MountCacheHoldsBytes(facts);
  // A node re-reads from its second epoch on when its cache cannot hold the whole input (the
  // sampler reshuffles: each epoch's shard is a new share of it), never when it can. Its first
  // epoch reads its shard once, whatever the cap drops meanwhile: the re-reads start after it.
  if (auto input = facts.Number("dataset.bytes");
      input && *input > 0 && j.mount_cache_cap_bytes > 0) {
    const double nodes = std::max(1.0, facts.Number("node.count").value_or(1));
    if (j.mount_cache_cap_bytes < *input) {
      j.mount_cache_miss_share = 1 - j.mount_cache_cap_bytes / *input;
      j.mount_cache_holds_first_epoch = j.mount_cache_cap_bytes >= *input / nodes;
    }
    j.mount_cache_cap_bytes = j.mount_cache_cap_bytes >= *input ? 0 : *input / nodes;
  }
  if (auto bytes = facts.Number("dataset.bytes"), s = facts.Number("runtime.download_s");
      bytes && s && *bytes > 0 && *s > 0)
    j.own_download_gbps = *bytes * 8 / 1e9 / *s;
  j.latency_cap_gbps = facts.Number("runtime.latency_cap_gbps").value_or(0);
  if (auto cap = LatencyCapOf(facts, false)) j.mount_cap_in_flight_known = cap->in_flight_known;
  j.small_requests = small_requests;
  j.large_requests = request_bytes >= kSmallRequestBytes;
  j.nic_gbps = facts.Number("node.nic_gbps").value_or(0);
  j.egress_limit_gbps = facts.Number("account.egress_gbps").value_or(0);
  j.nodes = std::max(1.0, facts.Number("node.count").value_or(1));
  for (const auto& n : idle_nodes) {
    j.nodes_reading_nothing.insert(n.node);
    j.nodes_reading_nothing_gpu_s += std::max(0.0, n.lost_gpu_s);
  }
  return j;
}

}  // namespace feedcheck::diagnosis

namespace feedcheck::diagnosis {

namespace {

bool IsInputActivity(const TimelineInterval& iv) {
  return iv.lane == "data-runtime" &&
         (analyzers::IContains(iv.label, "download") || analyzers::IContains(iv.label, "mount"));
}

// GPUs idle this share of their sampled time or more idled throughout.
constexpr double kNeverReadIdleShare = 0.95;

// A critical finding the job's evidence observed, with those of the facts `keys` it has.
Finding CriticalObserved(const Evidence& ev, const char* rule_id, Bottleneck bottleneck,
                         std::initializer_list<const char*> keys) {
  Finding f;
  f.rule_id = rule_id;
  f.severity = Severity::kCritical;
  f.bottleneck = bottleneck;
  f.basis = FindingBasis::kObserved;
  for (const char* key : keys)
    if (const Fact* fact = ev.facts.Find(key)) f.evidence.push_back(*fact);
  return f;
}

bool AnyReadSpan(const FactSet& facts) {
  for (const auto& [key, fact] : facts)
    if (key.rfind("runtime.span_busy_s.", 0) == 0 && fact.is_number() && fact.number() > 0)
      return true;
  return false;
}

}  // namespace

const TimelineInterval* FirstFailedInput(const Evidence& ev, bool unfinished) {
  const TimelineInterval* first = nullptr;
  for (const auto& iv : ev.timeline)
    if (IsInputActivity(iv) &&
        (iv.status.rfind("Failure", 0) == 0 || (unfinished && iv.status == "unfinished")) &&
        (!first || iv.start_epoch_s < first->start_epoch_s))
      first = &iv;
  return first;
}

bool InputFailedOnFullDisk(const Evidence& ev) {
  return ev.facts.NumberOr("runtime.disk_full_lines", 0) > 0 &&
         FirstFailedInput(ev, true) != nullptr;
}

Finding FullDiskFinding(const Evidence& ev) {
  Finding f = CriticalObserved(ev, "input-disk-full", Bottleneck::kAccessMode,
                               {"runtime.disk_full_lines", "runtime.activity_failures",
                                "runtime.download_s", "node.local_disk_bytes"});
  const TimelineInterval* failed = FirstFailedInput(ev, true);
  const Fact* said = ev.facts.Find("runtime.disk_full_lines");
  const std::string where =
      said ? said->provenance.file + ":" + std::to_string(said->provenance.line) : std::string();
  const auto disk = ev.facts.Number("node.local_disk_bytes");
  const std::string this_disk =
      disk && *disk > 0 ? fmt::format(" (this size has {})", FormatBytes(*disk)) : std::string();
  if (failed && analyzers::IContains(failed->label, "download")) {
    f.title = "The input did not fit the node's local disk";
    f.message = fmt::format(
        "Mount the input instead (mode: ro_mount), which reads it as the job goes and is meant "
        "for data larger than the local disk, or use a VM size with a larger local disk{}. The "
        "download filled the disk and failed (\"No space left on device\", {}): a download "
        "must fit the disk whole, so no GPU time went to training.",
        this_disk, where);
  } else {
    f.title = "The node's local disk filled while the job read its input";
    f.message = fmt::format(
        "Write the job's own files to an output, not the node's temporary disk, or keep disk "
        "free from the mount's cache with a negative DATASET_MOUNT_CACHE_SIZE (the space to "
        "leave free); a VM size with a larger local disk{} gives both room. The data runtime "
        "ran out of disk (\"No space left on device\", {}) and its input failed.",
        this_disk, where);
  }
  f.source =
      "Azure ML docs, \"Access data in a job\", sections \"Download\" and \"Monitor disk usage "
      "during a job\", "
      "https://learn.microsoft.com/azure/machine-learning/how-to-read-write-data-v2";
  return f;
}

// Without the data runtime's log (no input activity to tell): the account's metrics show it
// served not a byte in any minute they cover (Egress nothing), while it answered requests with
// client errors (AuthorizationError: 403s; ClientOtherError: 404s among them), and the GPUs
// idled throughout. Other clients' reads would show as Egress: this says nothing then.
bool MetricsServedNothing(const Evidence& ev) {
  if (std::any_of(ev.timeline.begin(), ev.timeline.end(), IsInputActivity)) return false;
  const FactSet& f = ev.facts;
  const auto peak = f.Number("metrics.egress_gbps_peak");
  return peak && *peak <= 0 && f.Number("gpu.idle_fraction").value_or(0) >= kNeverReadIdleShare &&
         f.NumberOr("metrics.transactions.AuthorizationError", 0) +
                 f.NumberOr("metrics.transactions.ClientOtherError", 0) >
             0;
}

bool InputNeverRead(const Evidence& ev) {
  // The disk filled: storage served what was asked (FullDiskFinding says what to change).
  if (InputFailedOnFullDisk(ev)) return false;
  if (MetricsServedNothing(ev)) return true;
  int failed = 0, succeeded = 0;
  for (const auto& iv : ev.timeline) {
    if (!IsInputActivity(iv)) continue;
    if (iv.status.rfind("Failure", 0) == 0) ++failed;
    if (iv.status.rfind("Success", 0) == 0) ++succeeded;
  }
  // A failure is an access failure when something refused or could not reach storage: a
  // refusal (403, 404), a mount that failed, the runtime giving up on a request, a StreamAccess
  // error. A download cancelled mid-way after hours of reads is not one.
  const FactSet& f = ev.facts;
  const bool refused = std::any_of(ev.timeline.begin(), ev.timeline.end(),
                                   [](const TimelineInterval& iv) { return iv.lane == "access"; });
  const bool access_signs = refused || f.NumberOr("runtime.retry_give_ups", 0) > 0 ||
                            f.NumberOr("runtime.mount_failures", 0) > 0 ||
                            f.Find("runtime.stream_error") != nullptr;
  if (failed > 0 && succeeded == 0 && access_signs) return true;
  // The mount came up, but every read behind it failed until the runtime gave up.
  return f.NumberOr("runtime.retry_give_ups", 0) > 0 && !AnyReadSpan(f) &&
         (f.NumberOr("runtime.mount_failures", 0) > 0 ||
          f.NumberOr("runtime.activity_failures", 0) > 0);
}

Finding NeverReadFinding(const Evidence& ev) {
  constexpr const char* kTitle = "The job never read its input";
  if (MetricsServedNothing(ev)) {
    Finding f = CriticalObserved(
        ev, "input-never-read", Bottleneck::kAccessFailure,
        {"metrics.egress_gbps_peak", "metrics.transactions.AuthorizationError",
         "metrics.transactions.ClientOtherError", "gpu.idle_fraction", "metrics.account"});
    f.title = kTitle;
    f.message = fmt::format(
        "Check the input's path against the container's listing, and that the job's identity or "
        "SAS may read it. The storage account served not a byte while the job ran (Egress 0 in "
        "every minute its metrics cover) and answered {:.0f} requests with client errors "
        "(AuthorizationError: 403; ClientOtherError: 404 and others), while the GPUs idled "
        "throughout: no GPU time went to training. The data runtime's logs (system_logs/"
        "data_capability) would name the failed request.",
        ev.facts.NumberOr("metrics.transactions.AuthorizationError", 0) +
            ev.facts.NumberOr("metrics.transactions.ClientOtherError", 0));
    f.source =
        "\"Troubleshoot data access errors\", Azure Machine Learning documentation, "
        "https://learn.microsoft.com/azure/machine-learning/how-to-troubleshoot-data-access; "
        "\"Azure Blob Storage monitoring data reference\" (the Transactions metric's "
        "ResponseType), https://learn.microsoft.com/azure/storage/blobs/"
        "monitor-blob-storage-reference";
    return f;
  }
  Finding f =
      CriticalObserved(ev, "input-never-read", Bottleneck::kAccessFailure,
                       {"runtime.activity_failures", "runtime.mount_failures",
                        "runtime.retry_give_ups", "runtime.retries", "runtime.stream_error"});
  f.title = kTitle;
  const TimelineInterval* first_failure = FirstFailedInput(ev);
  f.message =
      "Check that the compute can reach the storage account: its name resolves and connects "
      "from the cluster's virtual network (private endpoint and DNS zone, firewall, service "
      "endpoint), and that the job's identity or SAS may read the path. Every input activity "
      "failed or the data runtime gave up retrying without a single read, so no GPU time went "
      "to training at all";
  if (first_failure)
    f.message += " (" + first_failure->label + " failed: " + first_failure->source + ")";
  f.message += ".";
  f.source =
      "\"Troubleshoot data access errors\", Azure Machine Learning documentation, "
      "https://learn.microsoft.com/azure/machine-learning/how-to-troubleshoot-data-access";
  return f;
}

}  // namespace feedcheck::diagnosis
