#include "diagnosis/ledger_placer.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "analyzers/bounded_series.h"
#include "analyzers/gpu_phases.h"
#include "analyzers/series_at.h"
#include "analyzers/text_util.h"
#include "analyzers/throttle_kind.h"
#include "diagnosis/data_wait_cause.h"
#include "diagnosis/latency_cap.h"
#include "diagnosis/ledger_writes.h"

namespace feedcheck::diagnosis::ledger {

namespace {

using analyzers::SeriesAt;

// A node reads at its NIC's rate from this share of it on, while the account stays under this
// share of its egress limit (else the account is the limit).
constexpr double kNicShare = 0.85;
constexpr double kAccountShare = 0.9;
// A refusal that names no limit (a generic 503 ServerBusy) is the account's bandwidth only where
// the account served at its limit then: one refusing for minutes holds its Egress pinned there,
// within the minute's rounding; a few percent under it, a blob or partition refused.
constexpr double kPinnedAtLimitShare = 0.97;
// A download under this share of the NIC, refused nothing and the account far from its limit,
// crawled: its requests' latency (small files, few threads) held it, not the mode.
constexpr double kCrawlShare = 0.5;
// A node reading at this share of its latency cap (requests in flight x their size over their
// end-to-end time) was held by that latency: it could not have read faster with those threads.
constexpr double kAtLatencyCapShare = 0.7;
// A refusal of the account's bandwidth while the node wrote, with Ingress at this share of its
// limit or more, refused its writes (the limit counts both directions).
constexpr double kWritingRefusedIngressShare = 0.5;
// A mount's capped cache held its nodes when, past the cap, they read slower than before it
// (the median of the account's minutes, per node): by three standard errors of the two medians
// and by this share at least (a drift is not a slowing)...
constexpr double kRereadsSlowerMinShare = 0.05;
// ...which is measured only where a slowing by this share would show.
constexpr double kRereadsSlowingShown = 0.2;
// A stop ended with the node's reads when its last read closed this close to the stop's end
// (a few of the log's gaps between closes).
constexpr double kStopEndsWithReadsS = 120;

}  // namespace

class Placer::Impl {
 public:
  Impl(const Evidence& job, const LedgerJudgement& j, const std::vector<LedgerUnit>& units)
      : j_(j),
        latency_cap_gbps_(j.latency_cap_gbps),
        mount_state_(j.mount_state),
        small_requests_(j.small_requests),
        egress_(job.FindSeries("metrics.egress_gbps")),
        ingress_(job.FindSeries("metrics.ingress_gbps")),
        requests_(job.FindSeries("metrics.requests_per_s")),
        bursts_(job.FindSeries("metrics.ingress_gbps"), j.job_writes,
                job.FindSeries("gpu.lost_gpu_s_by_time"),
                job.FindSeries("gpu.sampled_gpu_s_by_time")) {
    std::array<analyzers::IntervalMerger, kLoggedKinds.size()> logged;
    for (auto& merger : logged)
      merger = analyzers::IntervalMerger(0, std::numeric_limits<size_t>::max());
    for (const auto& iv : job.timeline) {
      if (iv.lane != "storage") continue;
      if (iv.status == "metrics") metric_refusals_.push_back(&iv);
      if (iv.status != "rslex") continue;
      bool said_busy = false;
      const analyzers::ThrottleKind kind = analyzers::ThrottleKindOfLabel(iv.label, &said_busy);
      for (size_t k = 0; k < kLoggedKinds.size(); ++k)
        if (kind == kLoggedKinds[k] && (kind != analyzers::ThrottleKind::kServerBusy || said_busy))
          logged[k].Add(iv.start_epoch_s, iv.end_epoch_s);
    }
    for (size_t k = 0; k < kLoggedKinds.size(); ++k)
      for (const auto& iv : logged[k].Result()) logged_[k].push_back({iv.start, iv.end});
    for (const auto& u : units)
      // A node whose own log shows it read nothing (a dead node, its mount idle) moved none of
      // the account's bytes: the others' rate is not shared with it.
      if (!u.node.empty() && u.activities.any && !u.reads_nothing)
        node_reads_.push_back(&u.activities);
    // Other clients of the account: its Egress in quiet minutes (the 10th percentile), less
    // what the job's own nodes could have read then (each at most its NIC, or its latency cap).
    // What remains was somebody else's; it is not the job's rate.
    double node_max = j_.nic_gbps > 0 ? j_.nic_gbps : kInf;
    if (j_.latency_cap_gbps > 0) node_max = std::min(node_max, j_.latency_cap_gbps);
    if (egress_.present() && std::isfinite(node_max))
      others_gbps_ = std::max(0.0, egress_.tenth_percentile() - j_.nodes * node_max);
    floor_others_gbps_ = others_gbps_;
    cached_below_gbps_ = analyzers::CachedEgressBelowGbps(job.FindSeries("metrics.egress_gbps"),
                                                          j_.egress_limit_gbps);
    // Better: the minutes in which no node's data runtime read or wrote anything (its rslex
    // log closed no span), between its first and last activity. Their Egress was all others'.
    MeasureOthers(job, units);
    SumReadBytes(job.FindSeries("metrics.egress_gbps"));
    // A capped cache the job's evidence blamed, where the nodes were measured re-reading as
    // fast as they first read: whatever held their first reads held them, when that is known
    // (their latency). Else the cap may have held every epoch alike (a cap far under what the
    // readers keep in flight thrashes from the start), and the blame stands.
    // So too, whatever held them, where the cache held a node's whole first epoch: nothing was
    // pruned before the re-reads began, so no cap thrashed from the start.
    if (rereads_measured_ && !rereads_slowed_ && mount_state_ == IdleState::kCacheRereads &&
        (Uncached() == IdleState::kLatency || j_.mount_cache_holds_first_epoch))
      mount_state_ = Uncached();
  }

  double others_gbps() const { return others_gbps_; }

  bool FromCache(const LedgerUnit& u, double t) const {
    if (Inside(u.activities.downloads, t) || !Inside(u.activities.mounts, t)) return false;
    return (Cached(t) && !Inside(u.reads, t)) || ReadsSilent(u.reads, t, u.samples_end);
  }

  IdleState Place(const LedgerUnit& u, double t) const {
    // A node whose own log shows it read nothing and met no failure: its GPUs idled for a reason
    // of its own, though the job's other nodes failed to reach the input (the ledger places each
    // node's time by the evidence on that node).
    if (u.reads_nothing && u.own_log && !u.met_access_failure) return IdleState::kNotStorageNode;
    if (j_.access_failed && (!j_.access_onset_s || t >= *j_.access_onset_s))
      return IdleState::kAccess;
    // The download failed as it filled the disk: no input to train on from then on.
    if (j_.download_outgrew_disk_s && t >= *j_.download_outgrew_disk_s)
      return IdleState::kStartupDownload;
    if (u.reads_nothing) return IdleState::kNotStorageNode;
    const Activities& a = u.activities;
    const bool in_download = Inside(a.downloads, t);
    // A download the disk could not hold failed at any pace: the GPUs' wait through it was the
    // mode's (a faster copy, its latency or a limit lifted, only fills the disk sooner).
    if (in_download && j_.download_cannot_fit) return IdleState::kStartupDownload;
    const bool in_mount = !in_download && Inside(a.mounts, t);
    const bool in_upload = Inside(a.uploads, t);
    const bool reading = in_download || in_mount;
    // A refusal while the node reads, writes, or might do either (no log; outputs the job
    // writes through a mount log no activity of their own). While it writes, only the minutes
    // refused: the write held the GPUs either side of them.
    // Not while it downloads: the job's code starts once its inputs are copied, and only its
    // code writes outputs (another client's Ingress then is no write of the job's).
    const bool writing = !in_download && Writing(u, t, in_upload, reading);
    // A stop of the job's own only padded by a refusal either side (no request refused in it)
    // is the job's: the pad allows for retries the node might still wait for, and its loop was
    // not waiting for input.
    const bool own_stop_unrefused =
        !writing && Inside(u.own_phases, t) && !Inside(u.refused_lines, t);
    if (Inside(writing ? u.refusals_unpadded : u.refusals, t) && !own_stop_unrefused &&
        (reading || in_upload || !a.any || j_.job_writes)) {
      // Refused while its log shows it read nothing (its download done, no mount): what the
      // node sent then were its outputs' writes.
      const bool writes_refused = writing || (a.any && !reading && !in_upload);
      return LimitAt(t, writes_refused);
    }
    if (writing) return IdleState::kWrites;
    // A checkpoint's first and last minutes carry only part of its bytes: a stop of the node's
    // in a minute above the quiet ones next to a burst is the checkpoint's.
    if (Inside(u.own_phases, t) && bursts_.AtEdge(t)) return IdleState::kWrites;
    // No log of the data runtime: nothing says when it read, so a finding about the whole
    // job (small files, a capped cache) cannot say which idle time was its.
    if (!a.any) return IdleState::kUnknown;
    if (in_download) {
      // The GPUs wait for a download whatever its rate: at a good share of the NIC, that wait
      // is the mode's (a mount starts at once). One that crawled far below the NIC and the
      // account, refused nothing, was held by its requests' latency (small files, few threads).
      // The job's own rate when known: the account's Egress also carries other workloads.
      const bool own = j_.own_download_gbps > 0;
      auto rate = own ? std::optional<double>(j_.own_download_gbps) : NodeRate(t);
      // Little's law, where the latency, the threads and the request size are known: a
      // download under its NIC reading at about the rate its requests in flight allow was held
      // by their latency; one well below that rate, by its disk or the NIC.
      if (latency_cap_gbps_ > 0) {
        const bool under_nic = j_.nic_gbps <= 0 || latency_cap_gbps_ < kNicShare * j_.nic_gbps;
        if (under_nic && (!rate || *rate >= kAtLatencyCapShare * latency_cap_gbps_))
          return IdleState::kLatency;
        return j_.download_state == IdleState::kLatency ? IdleState::kStartupDownload
                                                        : j_.download_state;
      }
      const bool at_nic = rate && j_.nic_gbps > 0 && *rate >= kNicShare * j_.nic_gbps;
      // The job's own rate at the NIC's: whatever the latency evidence says (small requests, a
      // distant region, the client side slow), the NIC held this download.
      const bool own_at_nic = own && at_nic;
      if (j_.small_requests && !own_at_nic) return IdleState::kLatency;
      // A crawl of large requests is not their latency: the disk or the client's own pace, the
      // mode's wait as far as the GPUs are concerned.
      if (rate && j_.nic_gbps > 0 && *rate < kCrawlShare * j_.nic_gbps && !AccountNearLimit(t) &&
          !j_.large_requests)
        return IdleState::kLatency;
      if (at_nic && !j_.download_is_the_wait) return IdleState::kNodeNic;
      // Held by the NIC while the GPUs waited for the whole input: the mode's wait.
      if (own_at_nic && j_.download_state == IdleState::kLatency)
        return IdleState::kStartupDownload;
      return j_.download_state;
    }
    if (reading) {
      // A stop of the job's own while its mount served no read (none logged then, or none at
      // all: DEBUG spans off; or a silence far longer than the log's gaps between closes).
      // Not before the node's first read closed: its loop waited for its first batch then.
      if (in_mount && Inside(u.own_phases, t) && !BeforeFirstRead(u, t) &&
          (!Inside(u.reads, t) || Inside(u.read_silences, t)))
        return IdleState::kOwnCode;
      // A node whose log shows its reads, none for minutes around then: the mount served it
      // from its cache.
      // Unless its GPUs stopped outright where the cache could serve nothing (the job reads
      // its input once, or the node had read more than the cap holds: no reshuffled epoch is
      // in it). Nothing asked storage then, and no cache fed the loader: the job's own stop.
      if (in_mount && ReadsSilent(u.reads, t, u.samples_end))
        return (j_.reads_input_once || PastCacheCap(t)) && Inside(u.whole_stops, t)
                   ? IdleState::kOwnCode
                   : IdleState::kNotStorage;
      if (AtNic(t)) return IdleState::kNodeNic;
      // The node's CPU busy while its GPUs waited (Azure ML's CpuUtilization): its input
      // pipeline (decode, transforms, the loader's workers) could not have fed them faster
      // whatever storage served. Not in a stop of the job's own, which its own code held.
      if (in_mount && CpuBusy(u, t) && !Inside(u.own_phases, t)) return IdleState::kNotStorage;
      // The same law for the mount: at its latency cap it could read no faster (whatever it
      // re-read); well below it, storage answered faster than the node asked (its loader, its
      // own code, the mount's cache), unless the cache's cap made it re-read.
      const std::optional<double> rate =
          in_mount && latency_cap_gbps_ > 0 && !CapDrownedByOthers(t) ? NodeRate(t) : std::nullopt;
      // Small requests with no latency cap to weigh them: their latency holds the node before
      // any re-read does (one request per file, a few readers: far under what storage serves).
      const bool small_uncapped = !rate && small_requests_;
      // (A minute the account served next to nothing was the cache serving, not a re-read.)
      const bool rereading =
          in_mount && !small_uncapped && rereads_slowed_ && PastCacheCap(t) && !Cached(t);
      // A node's rate is measured where other clients' traffic was (their quiet minutes); else
      // it is only a bound, too high by what they read beyond their quietest minutes, and
      // re-reads the cap forces come first.
      if (rereading && !quiet_known_) return IdleState::kCacheRereads;
      if (rate && *rate >= kAtLatencyCapShare * latency_cap_gbps_) return IdleState::kLatency;
      if (rereading) return IdleState::kCacheRereads;
      // Well under it: storage answered faster than the node asked, where the cap counts the
      // requests really in flight (LedgerJudgement::mount_cap_in_flight_known); a bound shows
      // nothing.
      if (rate && j_.mount_cap_in_flight_known && mount_state_ != IdleState::kCacheRereads &&
          !u.mount_mostly_refused)
        return IdleState::kNotStorage;
      // Served from the mount's cache: the account quiet, and no read prefetched from storage
      // then (the node's read spans, where its log has them).
      if (in_mount && Cached(t) && !Inside(u.reads, t)) return IdleState::kNotStorage;
      if (in_mount && mount_state_ == IdleState::kUnknown && u.mount_mostly_refused)
        return j_.throttle_state;
      if (in_download) return j_.download_state;
      // No re-read before the node has read what its cache (its first epoch) holds: whatever
      // held its first reads, where that is known. Not a cache whose disk was measured slow.
      if (mount_state_ == IdleState::kCacheRereads && j_.mount_cache_cap_bytes > 0 &&
          !j_.cache_disk_measured && !read_bytes_.empty() && !PastCacheCap(t) &&
          (Uncached() != IdleState::kUnknown || j_.mount_cache_holds_first_epoch))
        return Uncached();
      // A stop while reads went on (a validation reads its own data), where no evidence says
      // what held the mount: the job's own phase, by its GPUs.
      // Unless the node read through the stop and its reads ended with it: the GPUs waited
      // for those reads and worked once they were done (a first epoch the cache then served).
      // Nothing refused and the account far from its limits: their latency held them.
      if (mount_state_ == IdleState::kUnknown && Inside(u.own_phases, t))
        return StopEndedWithReads(u, t) && !AccountNearLimit(t) ? IdleState::kLatency
                                                                : IdleState::kOwnCode;
      // Nor does a cache finding move small requests with no cap to weigh them (above): their
      // latency holds the node, first reads and re-reads alike, unless the cache's disk itself
      // was measured slow. (A cap drowned by other clients' traffic is still a cap.)
      if (small_requests_ && latency_cap_gbps_ <= 0 && mount_state_ == IdleState::kCacheRereads &&
          !j_.cache_disk_measured)
        return Uncached();
      return mount_state_;
    }
    if (t < *a.first_data) return IdleState::kUnknown;
    // After its input (a download's copy is local): a whole stop is the job's own phase; the
    // scattered waits between are its input pipeline's, reading what storage already served.
    return Inside(u.own_phases, t) ? IdleState::kOwnCode : IdleState::kNotStorage;
  }

 private:
  // The account's Ingress at a checkpoint's rate, or (without the metric) an upload while the
  // data phase is still on, or a stop of the node's own at the declared checkpoint cadence: the
  // job waited for its writes.
  bool Writing(const LedgerUnit& u, double t, bool in_upload, bool reading) const {
    if (!j_.job_writes) return false;
    if (bursts_.present()) return bursts_.Writing(t);
    return (in_upload && reading) || Inside(u.declared_checkpoints, t);
  }
  // The node's CPU at t stood where its input pipeline is taken to be busy.
  static bool CpuBusy(const LedgerUnit& u, double t) {
    const std::optional<double> cpu = u.cpu(t);
    return cpu && *cpu >= kCpuBusyPercent;
  }
  // What each node read at t: the account's egress over the nodes reading then.
  std::optional<double> NodeRate(double t) const {
    auto e = egress_(t);
    if (!e) return std::nullopt;
    return std::max(0.0, *e - OthersAt(*e)) / ReadersAt(t);
  }
  // Other clients' Egress in a minute whose whole Egress was `egress_gbps`: their quiet
  // minutes' level, unless that stood above the whole beyond their wander. They were not
  // there then (a burst of theirs while the job was not reading says nothing of the minutes
  // it read): the bound the account's floor gives.
  double OthersAt(double egress_gbps) const {
    if (quiet_known_ && others_gbps_ > egress_gbps + others_spread_gbps_)
      return std::min(egress_gbps, floor_others_gbps_);
    return others_gbps_;
  }
  // The nodes in an input activity at t (all of them when the logs cannot tell).
  double ReadersAt(double t) const {
    double readers = 0;
    for (const Activities* a : node_reads_)
      if (Inside(a->downloads, t) || Inside(a->mounts, t)) readers += 1;
    return readers > 0 ? readers : std::max(1.0, j_.nodes);
  }
  // The node's log shows reads, none closed yet at `t`.
  static bool BeforeFirstRead(const LedgerUnit& u, double t) {
    return !u.reads.empty() &&
           std::all_of(u.reads.begin(), u.reads.end(), [&](const Span& r) { return t < r.start; });
  }
  // The nodes have each read more than the mount's cache cap holds by t (the account's egress
  // summed over time, over the nodes reading).
  bool PastCacheCap(double t) const {
    if (j_.mount_cache_cap_bytes <= 0 || read_bytes_.empty()) return false;
    auto it =
        std::upper_bound(read_bytes_.begin(), read_bytes_.end(), t,
                         [](double v, const std::pair<double, double>& p) { return v < p.first; });
    if (it == read_bytes_.begin()) return false;
    return std::prev(it)->second > j_.mount_cache_cap_bytes;
  }
  void SumReadBytes(const Series* egress) {
    if (!egress_.present() || !egress) return;
    double width = 60, total = 0;
    for (size_t i = 1; i < egress->points.size(); ++i) {
      double w = egress->points[i].x - egress->points[i - 1].x;
      if (w > 0 && (i == 1 || w < width)) width = w;
    }
    std::vector<double> before, after;  // each node's rate, before and after the cap filled
    for (const auto& p : egress->points) {
      if (!std::isfinite(p.y) || p.y <= 0) continue;
      auto per_node = NodeRate(p.x + width / 2);
      if (per_node) total += *per_node * 1e9 / 8 * width;
      read_bytes_.push_back({p.x + width, total});
      // The rates of minutes the nodes read storage: one the cache served is no re-read's, and
      // one at the account's limit measures the account (another workload's burst may fill
      // it), not the nodes' pace. Past the cap a node reads from storage only the share its
      // cache misses: its pace is that rate over the share.
      if (per_node && *per_node > 0 && j_.mount_cache_cap_bytes > 0 && !Cached(p.x + width / 2) &&
          !AccountNearLimit(p.x + width / 2)) {
        if (total > j_.mount_cache_cap_bytes)
          after.push_back(*per_node / j_.mount_cache_miss_share);
        else
          before.push_back(*per_node);
      }
    }
    // The re-reads held the node only where they slowed it: a node that re-read as fast as it
    // first read was held by whatever held its first reads (its loader, their latency). Any
    // slowing beyond the noise is theirs: past the cap, the node reads at the slower of its
    // old limit and its re-reads. The noise is the two medians' standard errors (each
    // stretch's wander in its median absolute deviation, which a few refused or bursting
    // minutes do not move: other clients' traffic and what is left of it). Where it would hide
    // a slowing by a fifth, the slowing is not measured.
    if (before.size() >= 3 && after.size() >= 3) {
      const double first = Median(before);
      auto standard_error = [](const std::vector<double>& v) {
        const double m = Median(v);
        std::vector<double> deviations;
        for (double x : v) deviations.push_back(std::fabs(x - m));
        // 1.4826 MAD estimates a normal spread's sigma; the median's error is 1.2533 sigma/sqrt(n).
        return 1.4826 * Median(deviations) * 1.2533 / std::sqrt(static_cast<double>(v.size()));
      };
      const double noise = 3 * (standard_error(before) + standard_error(after));
      if (noise < kRereadsSlowingShown * first) {
        rereads_slowed_ = Median(after) < first - std::max(noise, kRereadsSlowerMinShare * first);
        rereads_measured_ = true;
      }
    }
  }
  // The mount's state had the job's evidence not blamed its cache: its requests' latency when
  // they were small (the job's own, where measured), else the judgement's.
  IdleState Uncached() const {
    if (small_requests_ && (j_.mount_state_uncached == IdleState::kNotStorage ||
                            j_.mount_state_uncached == IdleState::kUnknown))
      return IdleState::kLatency;
    return j_.mount_state_uncached;
  }
  // The node's stop at t ran while it read (its reads cover half of it or more) and ended with
  // its reads (its last read within kStopEndsWithReadsS of the stop's end), and the node's
  // samples went on after it.
  bool StopEndedWithReads(const LedgerUnit& u, double t) const {
    if (!u.last_read_s) return false;
    for (const auto& p : u.own_phases) {
      if (t < p.start || t >= p.end) continue;
      // The GPUs worked after it (a stop to the end of the samples ended with the job).
      return std::fabs(p.end - *u.last_read_s) <= kStopEndsWithReadsS &&
             p.end + kStopEndsWithReadsS < u.samples_end &&
             Covered(p, u.reads) >= 0.5 * (p.end - p.start);
    }
    return false;
  }
  bool AccountNearLimit(double t) const {
    auto e = egress_(t);
    return e && j_.egress_limit_gbps > 0 && *e >= kAccountShare * j_.egress_limit_gbps;
  }
  // Each node reading at its NIC's rate, with the account below its own limit.
  bool AtNic(double t) const {
    if (j_.nic_gbps <= 0 || AccountNearLimit(t)) return false;
    // Requests in flight that cannot fill the NIC at their latency do not make it the limit:
    // the Egress above that cap was other clients'.
    if (latency_cap_gbps_ > 0 && latency_cap_gbps_ < kNicShare * j_.nic_gbps) return false;
    auto rate = NodeRate(t);
    if (!rate || *rate < kNicShare * j_.nic_gbps) return false;
    // A NIC-bound node must be shown: an account busier in its quiet minutes than every node's
    // NIC together carries others' traffic the job's share cannot be told from.
    if (!quiet_known_ && egress_.tenth_percentile() > j_.nodes * j_.nic_gbps) {
      auto e = egress_(t);
      return e && (*e - egress_.tenth_percentile()) / ReadersAt(t) >= kNicShare * j_.nic_gbps;
    }
    return true;
  }
  bool Cached(double t) const {
    auto e = egress_(t);
    return e && *e < cached_below_gbps_;
  }

  // Which limit a refusal at t hit: the one the account's metrics show at its limit in that
  // minute (ingress first: the metric's bandwidth throttling counts both directions), else all
  // of them far below theirs (a blob's or partition's target), else what the job's evidence
  // named as a whole.
  IdleState LimitAt(double t, bool writing) const {
    auto at_limit_when = [&](double when, const SeriesAt& s, double limit,
                             double share = kAccountShare) {
      auto v = s(when);
      return limit > 0 && v && *v >= share * limit;
    };
    auto at_limit = [&](const SeriesAt& s, double limit) { return at_limit_when(t, s, limit); };
    // The minute's own ResponseType first: Azure says which limit refused (an account's
    // bandwidth or request rate, or a server busy at one blob or partition). Its figures are
    // read in that minute (a refusal lined up within a minute of it may fall outside).
    // The account's own limits have ResponseTypes of their own. A minute that names only
    // others (ServerBusyError) was refused by a partition's or a blob's target, unless its
    // Egress or Ingress was at the account's limit: an account's bandwidth limit also answers
    // 503 ServerBusy ("Egress is over the account limit."). Its Transactions at their limit say
    // less: they count the refused retries themselves.
    const std::vector<const TimelineInterval*> named = MetricRefusalsAt(t);
    if (!named.empty()) {
      auto names = [&](const char* type) {
        return std::any_of(named.begin(), named.end(), [&](const TimelineInterval* iv) {
          return analyzers::IContains(iv->label, type);
        });
      };
      const TimelineInterval* first = named.front();
      const double when = std::clamp(t, first->start_epoch_s,
                                     std::max(first->start_epoch_s, first->end_epoch_s - 1));
      if (names("AccountBandwidth")) {
        auto share = [&](const SeriesAt& s, double limit) {
          auto v = s(when);
          return limit > 0 && v ? *v / limit : 0.0;
        };
        // The bandwidth limit counts both ways: a node writing its checkpoint then, with
        // Ingress at half its limit or more, was refused its writes.
        if (writing && share(ingress_, j_.ingress_limit_gbps) >= kWritingRefusedIngressShare)
          return IdleState::kAccountIngress;
        // A node that was reading was refused its reads: Egress at the limit first.
        if (!writing && at_limit_when(when, egress_, j_.egress_limit_gbps))
          return IdleState::kAccountEgress;
        if (at_limit_when(when, ingress_, j_.ingress_limit_gbps)) return IdleState::kAccountIngress;
        if (at_limit_when(when, egress_, j_.egress_limit_gbps)) return IdleState::kAccountEgress;
        return share(ingress_, j_.ingress_limit_gbps) > share(egress_, j_.egress_limit_gbps)
                   ? IdleState::kAccountIngress
                   : IdleState::kAccountEgress;
      }
      if (names("AccountRequest")) return IdleState::kAccountRequests;
      if (!writing && at_limit_when(when, egress_, j_.egress_limit_gbps, kPinnedAtLimitShare))
        return IdleState::kAccountEgress;
      if (at_limit_when(when, ingress_, j_.ingress_limit_gbps, kPinnedAtLimitShare))
        return IdleState::kAccountIngress;
      if (at_limit_when(when, egress_, j_.egress_limit_gbps, kPinnedAtLimitShare))
        return IdleState::kAccountEgress;
      return IdleState::kBlobTarget;
    }
    // Then the refusal's own body, where the log kept one: Azure names the account limit that
    // refused it, or says only that the server was busy, which no account limit answers.
    const analyzers::ThrottleKind logged = LoggedRefusalAt(t);
    const bool said_busy = logged == analyzers::ThrottleKind::kServerBusy;
    switch (logged) {
      case analyzers::ThrottleKind::kEgress:
        return IdleState::kAccountEgress;
      case analyzers::ThrottleKind::kIngress:
        return IdleState::kAccountIngress;
      case analyzers::ThrottleKind::kRequests:
        return IdleState::kAccountRequests;
      default:
        break;
    }
    if (!said_busy) {
      if (at_limit(ingress_, j_.ingress_limit_gbps)) return IdleState::kAccountIngress;
      if (at_limit(egress_, j_.egress_limit_gbps)) return IdleState::kAccountEgress;
      if (at_limit(requests_, j_.requests_limit_per_s)) return IdleState::kAccountRequests;
    }
    // A limit the service itself named (a ResponseType, a logged body) is not second-guessed
    // by the limits the knowledge base expects: accounts get raised limits. Unless this
    // refusal's body said otherwise: the job met that limit at other times.
    const bool named_elsewhere = j_.throttle_state != IdleState::kThrottledUnknown &&
                                 j_.throttle_state != IdleState::kBlobTarget;
    // Only a limit that refuses what the node sent then: egress refuses reads, ingress writes
    // (this refusal's own line did not say which limit refused it).
    const IdleState other_way = writing ? IdleState::kAccountEgress : IdleState::kAccountIngress;
    if (named_elsewhere && !said_busy && j_.throttle_state != other_way) return j_.throttle_state;
    auto e = egress_(t);
    auto r = requests_(t);
    if (e && r && j_.egress_limit_gbps > 0 && j_.requests_limit_per_s > 0 &&
        *e < 0.5 * j_.egress_limit_gbps && *r < 0.5 * j_.requests_limit_per_s &&
        (!ingress_(t) || j_.ingress_limit_gbps <= 0 || *ingress_(t) < 0.5 * j_.ingress_limit_gbps))
      return IdleState::kBlobTarget;
    return named_elsewhere ? IdleState::kThrottledUnknown : j_.throttle_state;
  }

  // The kind of the job's logged refusals at t (within the retry pad when none covers it): an
  // account limit a body named, else kServerBusy where a body said the server was busy;
  // kNotThrottled when the log names nothing then (no refusal, or none with a body).
  analyzers::ThrottleKind LoggedRefusalAt(double t) const {
    for (double pad : {0.0, kRefusalPadS})
      for (size_t k = 0; k < kLoggedKinds.size(); ++k)
        if (Near(logged_[k], t, pad)) return kLoggedKinds[k];
    return analyzers::ThrottleKind::kNotThrottled;
  }
  // The log's refusals by what their bodies said, in the order they are asked: each account
  // limit's, then a busy server's. Kept as sorted, disjoint spans: a job refused for hours on
  // many nodes has thousands, and every refused GPU bucket asks.
  static constexpr std::array<analyzers::ThrottleKind, 4> kLoggedKinds = {
      analyzers::ThrottleKind::kEgress, analyzers::ThrottleKind::kIngress,
      analyzers::ThrottleKind::kRequests, analyzers::ThrottleKind::kServerBusy};
  // One of the disjoint, sorted `spans` covers t, widened by `pad` each side.
  static bool Near(const std::vector<Span>& spans, double t, double pad) {
    auto it = std::upper_bound(spans.begin(), spans.end(), t - pad,
                               [](double v, const Span& s) { return v < s.end; });
    return it != spans.end() && t >= it->start - pad && t < it->end + pad;
  }

  // The minutes in which the job read nothing: every node has its own rslex log, none closed a
  // span within a minute of it, and the job was under way (a node had started its input
  // activity, and its GPUs were still sampled). `quiet`: the Egress series' indices of those
  // minutes; `reading`: of the minutes a span closed in. None with fewer than three quiet ones.
  struct JobMinutes {
    std::vector<size_t> quiet, reading;
  };
  static std::optional<JobMinutes> QuietMinutes(const Evidence& job,
                                                const std::vector<LedgerUnit>& units) {
    const Series* egress = job.FindSeries("metrics.egress_gbps");
    if (!egress || units.empty()) return std::nullopt;
    std::vector<Span> busy;
    double first = kInf, last = -kInf;
    for (const auto& u : units) {
      if (!u.own_log || !u.activities.first_data) return std::nullopt;
      first = std::min(first, *u.activities.first_data);
    }
    for (const auto& iv : job.timeline) {
      if (iv.lane != "reads") continue;
      busy.push_back({iv.start_epoch_s - kRefusalPadS, iv.end_epoch_s + kRefusalPadS});
      last = std::max(last, iv.end_epoch_s);
    }
    if (busy.empty()) return std::nullopt;
    // The job ran until its last GPU sample, reading or not (epochs from the mount's cache).
    if (const Series* lost = job.FindSeries("gpu.lost_gpu_s_by_time");
        lost && !lost->points.empty())
      last = std::max(last, lost->points.back().x);
    JobMinutes m;
    for (size_t i = 0; i + 1 < egress->points.size(); ++i) {
      const Span minute{egress->points[i].x, egress->points[i + 1].x};
      if (minute.start < first || minute.end > last || !std::isfinite(egress->points[i].y))
        continue;
      (Covered(minute, busy) > 0 ? m.reading : m.quiet).push_back(i);
    }
    if (m.quiet.size() < 3) return std::nullopt;
    return m;
  }

  // The nodes reading at their latency cap together move less than other clients' traffic
  // wanders in a minute: the job's rate, the account's less theirs, cannot tell the cap from
  // a slower pace.
  bool CapDrownedByOthers(double t) const {
    return others_spread_gbps_ > 0 && latency_cap_gbps_ * ReadersAt(t) < others_spread_gbps_;
  }

  static double Median(std::vector<double> v) {
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
  }

  // Other clients' Egress (and requests) from the job's quiet minutes; then, when the job's
  // file size was not declared, the bytes one of its own requests moved (its minutes' Egress
  // and Transactions above the others'), and the latency cap again with them: other clients'
  // large reads otherwise hide the job's small files in the account's mean.
  void MeasureOthers(const Evidence& job, const std::vector<LedgerUnit>& units) {
    const Series* egress = job.FindSeries("metrics.egress_gbps");
    auto minutes = QuietMinutes(job, units);
    if (!egress) return;
    const FactSet& facts = job.facts;
    const bool size_declared =
        facts.Find("dataset.median_file_bytes") || facts.Find("dataset.mean_file_bytes");
    if (!minutes) {
      // No quiet minute: the job read throughout. Its own requests are best seen in the
      // account's quietest minutes (Egress at its 10th percentile or under, while a node read),
      // when the others were least busy.
      if (!size_declared) ApplyOwnRequestBytes(facts, QuietestBytesPerRequest(*egress, units));
      return;
    }
    std::vector<double> quiet_egress, quiet_requests;
    for (size_t i : minutes->quiet) {
      quiet_egress.push_back(std::max(0.0, egress->points[i].y));
      if (auto r = requests_(egress->points[i].x)) quiet_requests.push_back(std::max(0.0, *r));
    }
    others_gbps_ = Median(quiet_egress);
    // How much their traffic wanders from minute to minute: the spread of the quiet minutes
    // (10th to 90th percentile).
    std::sort(quiet_egress.begin(), quiet_egress.end());
    others_spread_gbps_ =
        quiet_egress[quiet_egress.size() * 9 / 10] - quiet_egress[quiet_egress.size() / 10];
    quiet_known_ = true;
    if (quiet_requests.size() < 3 || size_declared) return;
    const double others_rps = Median(quiet_requests);
    // Each reading minute's own bytes over its own requests; their median, which a minute of
    // another client's burst does not move (in a sum, one such minute's thousands of large
    // requests drown an hour of the job's small ones). A minute at the account's limit
    // measures the account: left out.
    double bytes = 0, requests = 0;
    std::vector<double> per_minute;
    for (size_t i : minutes->reading) {
      auto r = requests_(egress->points[i].x);
      if (!r || !std::isfinite(egress->points[i].y) || AccountNearLimit(egress->points[i].x))
        continue;
      const double own_bytes = (egress->points[i].y - OthersAt(egress->points[i].y)) * 1e9 / 8;
      const double own_requests = *r - others_rps;
      if (own_bytes > 0 && own_requests > 0) {
        bytes += own_bytes;
        requests += own_requests;
        per_minute.push_back(own_bytes / own_requests);
      }
    }
    if (!(requests > 0) || !(bytes > 0)) return;
    ApplyOwnRequestBytes(facts, per_minute.size() >= 3 ? Median(per_minute) : bytes / requests);
  }

  // The account's bytes per request over its quietest minutes in which a node read: 0 when
  // fewer than three.
  double QuietestBytesPerRequest(const Series& egress, const std::vector<LedgerUnit>& units) const {
    const double floor = egress_.tenth_percentile();
    double bytes = 0, requests = 0;
    int minutes = 0;
    for (const auto& p : egress.points) {
      auto r = requests_(p.x);
      if (!r || !std::isfinite(p.y) || p.y <= 0 || p.y > floor || !(*r > 0)) continue;
      bool read = false;
      for (const auto& u : units)
        read = read || Inside(u.activities.downloads, p.x) || Inside(u.activities.mounts, p.x);
      if (!read) continue;
      bytes += p.y * 1e9 / 8 * 60;
      requests += *r * 60;
      ++minutes;
    }
    return minutes >= 3 && requests > 0 ? bytes / requests : 0;
  }

  // The job's own bytes per request, measured apart from the account's other clients.
  void ApplyOwnRequestBytes(const FactSet& facts, double own_bytes) {
    // The blob logs measured the reads' size request by request: no estimate replaces that.
    if (!(own_bytes > 0) || facts.Has("metrics.bloblog.read_bytes_p50")) return;
    // Only the correction the others' reads call for: their large reads hide the job's small
    // files. Requests smaller than the account's mean are theirs as much as the job's (listings,
    // metadata), and leave the account's figure standing.
    const double mean = facts.Number("metrics.bytes_per_request").value_or(0);
    // Nor the other way round, except where the account's mean made the job's requests small
    // and its own are not: others' small requests (listings, small files of their own) hid the
    // job's large ones, which no latency holds the way it holds small ones.
    const bool hidden_large = own_bytes >= kSmallRequestBytes && small_requests_;
    if (mean > 0 && own_bytes >= mean && !hidden_large) return;
    FactSet own = facts;
    Provenance p;
    p.origin = FactOrigin::kDerived;
    own.Set(NumberFact("metrics.bytes_per_request", own_bytes, Unit::kBytes, p));
    auto cap = LatencyCapForJob(own);
    latency_cap_gbps_ = cap ? cap->gbps : 0;
    if (hidden_large) {
      small_requests_ = false;
      if (mount_state_ == IdleState::kLatency) mount_state_ = j_.mount_state_large_requests;
      return;
    }
    // Its own requests small, where the account's mean said large: held by their latency
    // unless something else was observed (a capped cache, a finding).
    if (own_bytes < kSmallRequestBytes &&
        (mount_state_ == IdleState::kNotStorage || mount_state_ == IdleState::kUnknown))
      mount_state_ = IdleState::kLatency;
    if (own_bytes < kSmallRequestBytes) small_requests_ = true;
  }

  // The metrics' refusals in the minute holding t (else those within a minute of it).
  std::vector<const TimelineInterval*> MetricRefusalsAt(double t) const {
    std::vector<const TimelineInterval*> in, near;
    for (const TimelineInterval* iv : metric_refusals_) {
      if (t >= iv->start_epoch_s && t < iv->end_epoch_s)
        in.push_back(iv);
      else if (t >= iv->start_epoch_s - kRefusalPadS && t < iv->end_epoch_s + kRefusalPadS)
        near.push_back(iv);
    }
    return in.empty() ? near : in;
  }

  const LedgerJudgement& j_;
  double latency_cap_gbps_;  // the judgement's, or again with the job's own request size
  IdleState mount_state_;    // the judgement's, or latency for the job's own small requests
  bool small_requests_;      // the judgement's, or the job's own requests measured small
  std::vector<const TimelineInterval*> metric_refusals_;
  std::array<std::vector<Span>, kLoggedKinds.size()> logged_;  // by kLoggedKinds
  SeriesAt egress_, ingress_, requests_;
  IngressBursts bursts_;
  double others_gbps_ = 0;         // the account's Egress that was surely not the job's
  double floor_others_gbps_ = 0;   // ...by the account's floor alone (no quiet minute)
  double cached_below_gbps_ = 0;   // a mount minute under this Egress was its cache's
  double others_spread_gbps_ = 0;  // how much it wandered in the job's quiet minutes
  bool quiet_known_ = false;       // others_gbps_ measured in the job's quiet minutes
  bool rereads_slowed_ = true;     // past the cache's cap, the nodes read slower (or not known)
  bool rereads_measured_ = false;  // ...and that was measured
  std::vector<std::pair<double, double>> read_bytes_;  // (time, bytes each node read by then)
  std::vector<const Activities*> node_reads_;
};

Placer::Placer(const Evidence& job, const LedgerJudgement& j, const std::vector<LedgerUnit>& units)
    : impl_(std::make_unique<Impl>(job, j, units)) {}
Placer::~Placer() = default;
double Placer::others_gbps() const { return impl_->others_gbps(); }
IdleState Placer::Place(const LedgerUnit& u, double t) const { return impl_->Place(u, t); }
bool Placer::FromCache(const LedgerUnit& u, double t) const { return impl_->FromCache(u, t); }

}  // namespace feedcheck::diagnosis::ledger
