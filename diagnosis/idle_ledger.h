// The idle ledger: every idle GPU-second of every node charged to exactly one state
// (idle_state.h), from the evidence present on that node at that time. Shaped after top-down
// performance analysis (Yasin, "A Top-Down Method for Performance Analysis and Counters
// Architecture", ISPASS 2014): every slot in one category, the categories summing to the whole.
// The verdict, each finding's cost, the headline and the node table all read this one account.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analyzers/job_nodes.h"
#include "core/evidence.h"
#include "diagnosis/idle_state.h"

namespace feedcheck::diagnosis {

/// What the job's evidence says as a whole, read once before the ledger places each interval:
/// which limit the refusals hit, what held the reads that were not refused, the limits.
/// Under this many bytes a request is small: its latency, not the bytes it moves, sets the rate
/// (requests in flight x their size over their latency, Little's law).
inline constexpr double kSmallRequestBytes = 512 * 1024;

struct LedgerJudgement {
  bool access_failed = false;            ///< the job stopped on a refusal or could not connect
  std::optional<double> access_onset_s;  ///< when the failure began (epoch s); none: all of it
  /// When a download failed as it filled the node's local disk (epoch s): the job never got its
  /// input, and the GPU time from then on is the download's (the input mode's) as well.
  std::optional<double> download_outgrew_disk_s;
  /// The job's downloads could not finish at any pace: one outgrew the disk, or the input is
  /// larger than the node's local disk. The GPUs' wait through them is the input mode's.
  bool download_cannot_fit = false;
  IdleState throttle_state = IdleState::kThrottledUnknown;  ///< the limit the refusals hit
  IdleState mount_state = IdleState::kUnknown;  ///< mount reads not refused, NIC or writes
  /// What mount_state would be had the requests' size not been judged small from the account's
  /// mean: the job's own, measured larger, replaces it (others' small requests hid them).
  IdleState mount_state_large_requests = IdleState::kUnknown;
  /// What mount_state would be had no cache finding blamed the mount's cache cap.
  IdleState mount_state_uncached = IdleState::kUnknown;
  /// An observed finding about the cache's disk itself (its speed, space or kind, measured by a
  /// probe): the cache held the reads whatever it re-read, from the first epoch on.
  bool cache_disk_measured = false;
  IdleState download_state = IdleState::kStartupDownload;  ///< downloads likewise
  /// Facts without the GPU series (a saved facts file): what the job's findings say held it.
  IdleState unplaced_state = IdleState::kUnknown;
  /// The job's GPUs could have started before the download ended (a mount would fix it): a
  /// download is the mode's wait, however close to the NIC's rate it ran.
  bool download_is_the_wait = false;
  /// Storage refused requests somewhere in the job (any log or metric): the GPU time no
  /// activity places may be the refusals' when no time says otherwise (facts without series).
  bool refusals_seen = false;
  double nic_gbps = 0;              ///< each node's NIC (0: unknown)
  double egress_limit_gbps = 0;     ///< the account's (0: unknown)
  double ingress_limit_gbps = 0;    ///< the account's (0: unknown)
  double requests_limit_per_s = 0;  ///< the account's (0: unknown)
  /// What each node's download read at, from the job's own bytes and time (dataset.bytes over
  /// runtime.download_s; every node downloads its whole input); 0: not known. Unlike the
  /// account's Egress it holds no other workload's traffic.
  double own_download_gbps = 0;
  /// The size of the job's requests, when known (the metrics' bytes per request, else the
  /// profile's file size): small ones are held by their latency (requests in flight x size over
  /// latency), large ones are not.
  bool small_requests = false;
  bool large_requests = false;
  /// The read rate per node its requests' latency allows (runtime.latency_cap_gbps); 0: not
  /// known. A node reading at about this rate was held by latency; one well below it, not.
  double latency_cap_gbps = 0;
  /// A mount's cap counts the requests really in flight (LatencyCap::in_flight_known: its
  /// readers declared, or large files read by no more threads than one reader keeps busy).
  /// Else the cap counts the runtime's threads, an upper bound: a node at it was held by
  /// latency, one well below it shows nothing (its readers may have kept few in flight). Kept
  /// where the placer sizes the cap again from the job's measured requests: a mean of requests
  /// cannot tell files just under a block from larger ones.
  bool mount_cap_in_flight_known = false;
  /// What a node reads before the mount's capped disk cache (DATASET_MOUNT_CACHE_SIZE) makes it
  /// re-read, bytes; 0: never. The cap itself, or with the input's size known, its shard (from
  /// the second epoch on, when the cap is below the whole input: the sampler reshuffles every
  /// epoch) or never (the cap holds all of it); 0 too when the job reads its data once.
  double mount_cache_cap_bytes = 0;
  /// The share of a later epoch's reads storage serves: the input its cache cannot hold (the
  /// sampler reshuffles, so the cache holds a random share of each epoch), 1 when unknown.
  double mount_cache_miss_share = 1;
  /// The cache holds a node's whole shard of the input (its first epoch), though not the whole
  /// input: nothing is pruned before its second epoch, so no first read waited on the cache.
  bool mount_cache_holds_first_epoch = false;
  /// The job reads its input once (workload.epochs = 1): a mount's cache serves none of it.
  bool reads_input_once = false;
  /// The job writes through storage while it runs (an output in rw_mount or upload mode, an
  /// upload activity): the account's Ingress bursts can be its own.
  bool job_writes = false;
  double nodes = 1;                             ///< nodes reading at once when the log cannot tell
  std::set<std::string> nodes_reading_nothing;  ///< idle nodes whose own log shows no read
  double nodes_reading_nothing_gpu_s = 0;       ///< the GPU time those nodes lost, together
};

/// GPU-seconds by state.
using StateGpuS = std::array<double, kIdleStateCount>;

struct IdleLedger {
  bool known = false;     ///< GPU samples were read
  double lost_gpu_s = 0;  ///< the sum of every state
  double sampled_gpu_s = 0;
  double unplaced_gpu_s = 0;  ///< of the unknown state: no data-runtime activity to place it
  /// The data runtime's log placed the time: a download or mount activity on the timeline (or,
  /// from facts alone, the phase totals timed against one).
  bool placed_by_data_runtime = false;
  /// Placed interval by interval, against when each sample was taken (the GPU series), not from
  /// phase totals: a refusal that held the GPUs is then in its own state.
  bool timed = false;
  /// Of the not_storage state: what fell in mount minutes in which the account served next to
  /// nothing and refused nothing, the mount reading from its own cache.
  double cached_gpu_s = 0;
  StateGpuS gpu_s{};
  /// Per node: each node's own buckets when its GPU samples are in its folder, else the job's
  /// buckets shared by the nodes idle in them (ledger_nodes.h); sums to the states above.
  std::map<std::string, StateGpuS> by_node;
  IdleState cause = IdleState::kUnknown;  ///< set by ChooseLedgerCause
  /// The account's Egress that was other clients', Gbit/s (0: none shown): what a fix for this
  /// job cannot take back, held in its replay.
  double others_egress_gbps = 0;

  double Of(IdleState s) const { return gpu_s[static_cast<int>(s)]; }
  double StorageGpuS() const;
};

/// Places every idle GPU bucket of the job (per node when its nodes hold all of its GPU time
/// lost, else the job's) in one state. `job`: the job's evidence (the lost series, the
/// data-runtime and storage lanes, the account's egress and ingress series); `nodes`: what
/// each node folder showed.
IdleLedger BuildIdleLedger(const Evidence& job, const std::vector<analyzers::NodeEvidence>& nodes,
                           const LedgerJudgement& judgement);

/// Under this share of the sampled GPU time lost to storage, storage did not hold the job back.
inline constexpr double kStorageMattersFraction = 0.10;

/// The verdict's state: the largest storage state (the earlier in precedence among equals), or,
/// when storage cost under kStorageMattersFraction of the sampled GPU time, the largest state
/// that was not storage (unknown only when most of the time lost could not be placed at all).
/// A job that failed on access is that, whatever else it lost; so is one whose download did
/// not fit the node's disk (`download_outgrew_disk`: the input mode). Without GPU samples there is
/// no ledger: `observed_state`, the state of the observed finding that caps the others, if any.
/// `refusals_seen`: storage refused requests at times the ledger placed; the time outside them
/// was served without refusal, so unplaced mount time does not make the verdict unknown.
IdleState ChooseLedgerCause(const IdleLedger& ledger, bool access_failed,
                            std::optional<IdleState> observed_state = std::nullopt,
                            bool refusals_seen = false, bool download_outgrew_disk = false);

}  // namespace feedcheck::diagnosis
