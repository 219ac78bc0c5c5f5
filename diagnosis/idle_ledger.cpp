#include "diagnosis/idle_ledger.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "analyzers/series_at.h"
#include "analyzers/text_util.h"
#include "diagnosis/latency_cap.h"
#include "diagnosis/ledger_nodes.h"
#include "diagnosis/own_phases.h"

namespace feedcheck::diagnosis {

namespace {

using analyzers::SeriesAt;

// Storage refusals are logged per request and the metrics per minute, while the GPUs recover a
// sample or two after the last refusal: a refusal covers this much more each side.
constexpr double kRefusalPadS = 60;
// A download refused over at least this share of its length was slowed as a whole: its GPUs
// waited for all of it, so all of its idle time is the refusals'.
constexpr double kWholeDownloadRefusedShare = 0.2;
// A node reads at its NIC's rate from this share of it on, while the account stays under this
// share of its egress limit (else the account is the limit).
constexpr double kNicShare = 0.85;
constexpr double kAccountShare = 0.9;
// A download under this share of the NIC, refused nothing and the account far from its limit,
// crawled: its requests' latency (small files, few threads) held it, not the mode.
constexpr double kCrawlShare = 0.5;
// A mount minute in which the account served less than this (and refused nothing) served the
// job from the mount's cache: under 2% of the job's peak egress, or 10 Mbit/s.
constexpr double kCachedEgressShare = 0.02;
constexpr double kCachedEgressFloorGbps = 0.01;
// The job wrote in a minute whose Ingress was at least this share of its peak, and at least
// 1 Gbit/s (a log file's trickle is not a checkpoint).
constexpr double kWritingIngressShare = 0.25;
constexpr double kWritingIngressFloorGbps = 1.0;
// A node reading at this share of its latency cap (requests in flight x their size over their
// end-to-end time) was held by that latency: it could not have read faster with those threads.
constexpr double kAtLatencyCapShare = 0.7;
constexpr double kInf = std::numeric_limits<double>::infinity();

struct Span {
  double start, end;
};

bool Inside(const std::vector<Span>& spans, double t) {
  return std::any_of(spans.begin(), spans.end(),
                     [&](const Span& s) { return t >= s.start && t < s.end; });
}

// What the data runtime of one node (or of the whole job) did, as spans.
struct Activities {
  std::vector<Span> downloads;
  std::vector<Span> mounts;  // from the mount until the first upload after it, or for good
  std::vector<Span> uploads;
  std::optional<double> first_data;
  bool any = false;
};

Activities ActivitiesOf(const std::vector<TimelineInterval>& timeline, const std::string* node) {
  Activities a;
  std::vector<double> mount_starts;
  for (const auto& iv : timeline) {
    if (iv.lane != "data-runtime" || (node && iv.node != *node)) continue;
    const bool download = analyzers::IContains(iv.label, "download");
    const bool mount = !download && analyzers::IContains(iv.label, "mount");
    const bool upload = analyzers::IContains(iv.label, "upload");
    // A download the log never saw end (the job was stopped, or the node went away) ran on.
    if (download && iv.status == "unfinished")
      a.downloads.push_back({iv.start_epoch_s, kInf});
    else if (download && iv.end_epoch_s > iv.start_epoch_s)
      a.downloads.push_back({iv.start_epoch_s, iv.end_epoch_s});
    if (mount) mount_starts.push_back(iv.start_epoch_s);
    if (upload && iv.end_epoch_s >= iv.start_epoch_s)
      a.uploads.push_back({iv.start_epoch_s, std::max(iv.end_epoch_s, iv.start_epoch_s + 1)});
    if ((download || mount) && (!a.first_data || iv.start_epoch_s < *a.first_data))
      a.first_data = iv.start_epoch_s;
  }
  // A mount serves reads from its start until the job uploads its outputs (or ends).
  for (double start : mount_starts) {
    double end = kInf;
    for (const auto& u : a.uploads)
      if (u.start >= start) end = std::min(end, u.start);
    a.mounts.push_back({start, end});
  }
  a.any = a.first_data.has_value();
  return a;
}

// One node's (or the job's) idle GPU time, and what it met.
struct LedgerUnit {
  std::string node;  // "" for the job as a whole
  const Series* lost = nullptr;
  const Series* sample_t = nullptr;  // when each bucket's idle time was sampled (per node)
  Activities activities;
  std::vector<Span> refusals;
  std::vector<Span> wholly_refused_downloads;
  // When its data runtime closed read spans (empty when its log has none: DEBUG not on).
  std::vector<Span> reads;
  // Where all its GPUs stopped together for longer than its waits for input explain.
  std::vector<Span> own_phases;
  bool reads_nothing = false;
  bool own_log = false;  // the node's own rslex log was read (the job's, for the job's unit)
  // Refusals covered most of this unit's idle time in the mount: the mount's condition, so its
  // idle time that nothing else places is theirs (an asynchronous read logs no time of its own).
  bool mount_mostly_refused = false;
};

std::vector<Span> Padded(const std::vector<const TimelineInterval*>& ivs) {
  std::vector<Span> out;
  for (const auto* iv : ivs)
    if (iv->end_epoch_s >= iv->start_epoch_s)
      out.push_back({iv->start_epoch_s - kRefusalPadS, iv->end_epoch_s + kRefusalPadS});
  return out;
}

double Covered(const Span& s, const std::vector<Span>& by) {
  // The length of s covered by the union of `by`.
  std::vector<Span> parts;
  for (const auto& b : by) {
    double from = std::max(s.start, b.start), to = std::min(s.end, b.end);
    if (to > from) parts.push_back({from, to});
  }
  std::sort(parts.begin(), parts.end(),
            [](const Span& a, const Span& b) { return a.start < b.start; });
  double covered = 0, until = -kInf;
  for (const auto& p : parts) {
    double from = std::max(p.start, until);
    if (p.end > from) covered += p.end - from;
    until = std::max(until, p.end);
  }
  return covered;
}

std::vector<Span> ReadSpans(const std::vector<TimelineInterval>& timeline) {
  std::vector<Span> out;
  for (const auto& iv : timeline)
    if (iv.lane == "reads") out.push_back({iv.start_epoch_s, iv.end_epoch_s});
  return out;
}

void FinishUnit(LedgerUnit* u) {
  for (const auto& d : u->activities.downloads)
    if (d.end > d.start &&
        Covered(d, u->refusals) >= kWholeDownloadRefusedShare * (d.end - d.start))
      u->wholly_refused_downloads.push_back(d);
}

class Placer {
 public:
  Placer(const Evidence& job, const LedgerJudgement& j, const std::vector<LedgerUnit>& units)
      : j_(j),
        latency_cap_gbps_(j.latency_cap_gbps),
        mount_state_(j.mount_state),
        small_requests_(j.small_requests),
        egress_(job.FindSeries("metrics.egress_gbps")),
        ingress_(job.FindSeries("metrics.ingress_gbps")),
        requests_(job.FindSeries("metrics.requests_per_s")) {
    for (const auto& iv : job.timeline)
      if (iv.lane == "storage" && iv.status == "metrics") metric_refusals_.push_back(&iv);
    for (const auto& u : units)
      if (!u.node.empty() && u.activities.any) node_reads_.push_back(&u.activities);
    // Other clients of the account: its Egress in quiet minutes (the 10th percentile), less
    // what the job's own nodes could have read then (each at most its NIC, or its latency cap).
    // What remains was somebody else's; it is not the job's rate.
    double node_max = j_.nic_gbps > 0 ? j_.nic_gbps : kInf;
    if (j_.latency_cap_gbps > 0) node_max = std::min(node_max, j_.latency_cap_gbps);
    if (egress_.present() && std::isfinite(node_max))
      others_gbps_ = std::max(0.0, egress_.tenth_percentile() - j_.nodes * node_max);
    // Better: the minutes in which no node's data runtime read or wrote anything (its rslex
    // log closed no span), between its first and last activity. Their Egress was all others'.
    MeasureOthers(job, units);
    SumReadBytes(job.FindSeries("metrics.egress_gbps"));
  }

  double others_gbps() const { return others_gbps_; }

  // A mount minute (not a download's) in which the account served the job next to nothing: its
  // reads came from the mount's own cache.
  bool FromCache(const LedgerUnit& u, double t) const {
    return !Inside(u.activities.downloads, t) && Inside(u.activities.mounts, t) && Cached(t);
  }

  IdleState Place(const LedgerUnit& u, double t) const {
    if (j_.access_failed && (!j_.access_onset_s || t >= *j_.access_onset_s))
      return IdleState::kAccess;
    if (u.reads_nothing) return IdleState::kNotStorageNode;
    const Activities& a = u.activities;
    const bool in_download = Inside(a.downloads, t);
    const bool in_mount = !in_download && Inside(a.mounts, t);
    const bool in_upload = Inside(a.uploads, t);
    const bool reading = in_download || in_mount;
    // A refusal while the node reads, writes, or might do either (no log; outputs the job
    // writes through a mount log no activity of their own).
    if (Inside(u.refusals, t) && (reading || in_upload || !a.any || j_.job_writes))
      return LimitAt(t);
    if (in_download && Inside(u.wholly_refused_downloads, t)) return LimitAt(t);
    if (Writing(t, in_upload, reading)) return IdleState::kWrites;
    if (!a.any) return j_.unplaced_state;
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
      // Small requests are held by their latency unless the job's own rate says otherwise.
      if (j_.small_requests && !(own && j_.nic_gbps > 0 && *rate >= kNicShare * j_.nic_gbps))
        return IdleState::kLatency;
      // A crawl of large requests is not their latency: the disk or the client's own pace, the
      // mode's wait as far as the GPUs are concerned.
      if (rate && j_.nic_gbps > 0 && *rate < kCrawlShare * j_.nic_gbps && !AccountNearLimit(t) &&
          !j_.large_requests)
        return IdleState::kLatency;
      if (rate && j_.nic_gbps > 0 && *rate >= kNicShare * j_.nic_gbps && !j_.download_is_the_wait)
        return IdleState::kNodeNic;
      return j_.download_state;
    }
    if (reading) {
      // A stop of the job's own while its mount served no read (none logged then, or none at
      // all: DEBUG spans off).
      if (in_mount && Inside(u.own_phases, t) && !Inside(u.reads, t)) return IdleState::kOwnCode;
      if (AtNic(t)) return IdleState::kNodeNic;
      // The same law for the mount: at its latency cap it could read no faster (whatever it
      // re-read); well below it, storage answered faster than the node asked (its loader, its
      // own code, the mount's cache), unless the cache's cap made it re-read.
      const std::optional<double> rate =
          in_mount && latency_cap_gbps_ > 0 ? NodeRate(t) : std::nullopt;
      if (rate && *rate >= kAtLatencyCapShare * latency_cap_gbps_) return IdleState::kLatency;
      // Small requests with no latency cap to weigh them: their latency holds the node before
      // any re-read does (one request per file, a few readers: far under what storage serves).
      const bool small_uncapped = !rate && small_requests_;
      if (in_mount && !small_uncapped && PastCacheCap(t)) return IdleState::kCacheRereads;
      if (rate && mount_state_ != IdleState::kCacheRereads && !u.mount_mostly_refused)
        return IdleState::kNotStorage;
      if (in_mount && Cached(t)) return IdleState::kNotStorage;
      if (in_mount && mount_state_ == IdleState::kUnknown && u.mount_mostly_refused)
        return j_.throttle_state;
      return in_download ? j_.download_state : mount_state_;
    }
    if (t < *a.first_data) return IdleState::kUnknown;
    // After its input (a download's copy is local): a whole stop is the job's own phase; the
    // scattered waits between are its input pipeline's, reading what storage already served.
    return Inside(u.own_phases, t) ? IdleState::kOwnCode : IdleState::kNotStorage;
  }

 private:
  // The account's Ingress at a checkpoint's rate, or (without the metric) an upload while the
  // data phase is still on: the job waited for its writes.
  bool Writing(double t, bool in_upload, bool reading) const {
    if (!j_.job_writes) return false;
    if (ingress_.present()) {
      // A burst above what the account takes in anyway (other writers, logs): its quiet
      // minutes (not the median: a job that checkpoints most of the time would hide in it).
      auto in = ingress_(t);
      const double base = ingress_.tenth_percentile();
      return in && *in - base >= kWritingIngressFloorGbps &&
             *in - base >= kWritingIngressShare * (ingress_.peak() - base);
    }
    return in_upload && reading;
  }
  // What each node read at t: the account's egress over the nodes reading then.
  std::optional<double> NodeRate(double t) const {
    auto e = egress_(t);
    if (!e) return std::nullopt;
    return std::max(0.0, *e - others_gbps_) / ReadersAt(t);
  }
  // The nodes in an input activity at t (all of them when the logs cannot tell).
  double ReadersAt(double t) const {
    double readers = 0;
    for (const Activities* a : node_reads_)
      if (Inside(a->downloads, t) || Inside(a->mounts, t)) readers += 1;
    return readers > 0 ? readers : std::max(1.0, j_.nodes);
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
    for (const auto& p : egress->points) {
      if (!std::isfinite(p.y) || p.y <= 0) continue;
      auto per_node = NodeRate(p.x + width / 2);
      if (per_node) total += *per_node * 1e9 / 8 * width;
      read_bytes_.push_back({p.x + width, total});
    }
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
    return e && *e < std::max(kCachedEgressFloorGbps, kCachedEgressShare * egress_.peak());
  }

  // Which limit a refusal at t hit: the one the account's metrics show at its limit in that
  // minute (ingress first: the metric's bandwidth throttling counts both directions), else all
  // of them far below theirs (a blob's or partition's target), else what the job's evidence
  // named as a whole.
  IdleState LimitAt(double t) const {
    auto at_limit_when = [&](double when, const SeriesAt& s, double limit) {
      auto v = s(when);
      return limit > 0 && v && *v >= kAccountShare * limit;
    };
    auto at_limit = [&](const SeriesAt& s, double limit) { return at_limit_when(t, s, limit); };
    // The minute's own ResponseType first: Azure says which limit refused (an account's
    // bandwidth or request rate, or a server busy at one blob or partition). Its figures are
    // read in that minute (a refusal lined up within a minute of it may fall outside).
    if (const TimelineInterval* named = MetricRefusalAt(t)) {
      const double when = std::clamp(t, named->start_epoch_s,
                                     std::max(named->start_epoch_s, named->end_epoch_s - 1));
      if (analyzers::IContains(named->label, "AccountBandwidth")) {
        auto share = [&](const SeriesAt& s, double limit) {
          auto v = s(when);
          return limit > 0 && v ? *v / limit : 0.0;
        };
        if (at_limit_when(when, ingress_, j_.ingress_limit_gbps)) return IdleState::kAccountIngress;
        if (at_limit_when(when, egress_, j_.egress_limit_gbps)) return IdleState::kAccountEgress;
        return share(ingress_, j_.ingress_limit_gbps) > share(egress_, j_.egress_limit_gbps)
                   ? IdleState::kAccountIngress
                   : IdleState::kAccountEgress;
      }
      if (analyzers::IContains(named->label, "AccountRequest")) return IdleState::kAccountRequests;
      if (!at_limit_when(when, egress_, j_.egress_limit_gbps) &&
          !at_limit_when(when, requests_, j_.requests_limit_per_s) &&
          !at_limit_when(when, ingress_, j_.ingress_limit_gbps))
        return IdleState::kBlobTarget;
    }
    if (at_limit(ingress_, j_.ingress_limit_gbps)) return IdleState::kAccountIngress;
    if (at_limit(egress_, j_.egress_limit_gbps)) return IdleState::kAccountEgress;
    if (at_limit(requests_, j_.requests_limit_per_s)) return IdleState::kAccountRequests;
    // A limit the service itself named (a ResponseType, a logged body) is not second-guessed
    // by the limits the knowledge base expects: accounts get raised limits.
    if (j_.throttle_state != IdleState::kThrottledUnknown &&
        j_.throttle_state != IdleState::kBlobTarget)
      return j_.throttle_state;
    auto e = egress_(t);
    auto r = requests_(t);
    if (e && r && j_.egress_limit_gbps > 0 && j_.requests_limit_per_s > 0 &&
        *e < 0.5 * j_.egress_limit_gbps && *r < 0.5 * j_.requests_limit_per_s &&
        (!ingress_(t) || j_.ingress_limit_gbps <= 0 || *ingress_(t) < 0.5 * j_.ingress_limit_gbps))
      return IdleState::kBlobTarget;
    return j_.throttle_state;
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
    if (!egress || !minutes) return;
    std::vector<double> quiet_egress, quiet_requests;
    for (size_t i : minutes->quiet) {
      quiet_egress.push_back(std::max(0.0, egress->points[i].y));
      if (auto r = requests_(egress->points[i].x)) quiet_requests.push_back(std::max(0.0, *r));
    }
    others_gbps_ = Median(quiet_egress);
    quiet_known_ = true;
    const FactSet& facts = job.facts;
    if (quiet_requests.size() < 3 || facts.Find("dataset.median_file_bytes") ||
        facts.Find("dataset.mean_file_bytes"))
      return;
    const double others_rps = Median(quiet_requests);
    double bytes = 0, requests = 0;
    for (size_t i : minutes->reading) {
      auto r = requests_(egress->points[i].x);
      if (!r || !std::isfinite(egress->points[i].y)) continue;
      const double own_bytes = (egress->points[i].y - others_gbps_) * 1e9 / 8;
      const double own_requests = *r - others_rps;
      if (own_bytes > 0 && own_requests > 0) {
        bytes += own_bytes;
        requests += own_requests;
      }
    }
    if (!(requests > 0) || !(bytes > 0)) return;
    // Only the correction the others' reads call for: their large reads hide the job's small
    // files. Requests smaller than the account's mean are theirs as much as the job's (listings,
    // metadata), and leave the account's figure standing.
    const double mean = facts.Number("metrics.bytes_per_request").value_or(0);
    if (mean > 0 && bytes / requests >= mean) return;
    FactSet own = facts;
    Provenance p;
    p.origin = FactOrigin::kDerived;
    own.Set(NumberFact("metrics.bytes_per_request", bytes / requests, Unit::kBytes, p));
    auto cap = LatencyCapForJob(own);
    latency_cap_gbps_ = cap ? cap->gbps : 0;
    // Its own requests small, where the account's mean said large: held by their latency
    // unless something else was observed (a capped cache, a finding).
    if (bytes / requests < kSmallRequestBytes &&
        (mount_state_ == IdleState::kNotStorage || mount_state_ == IdleState::kUnknown))
      mount_state_ = IdleState::kLatency;
    if (bytes / requests < kSmallRequestBytes) small_requests_ = true;
  }

  // The metrics' refusals in the minute holding t (else within a minute of it).
  const TimelineInterval* MetricRefusalAt(double t) const {
    const TimelineInterval* near = nullptr;
    for (const TimelineInterval* iv : metric_refusals_) {
      if (t >= iv->start_epoch_s && t < iv->end_epoch_s) return iv;
      if (!near && t >= iv->start_epoch_s - kRefusalPadS && t < iv->end_epoch_s + kRefusalPadS)
        near = iv;
    }
    return near;
  }

  const LedgerJudgement& j_;
  double latency_cap_gbps_;  // the judgement's, or again with the job's own request size
  IdleState mount_state_;    // the judgement's, or latency for the job's own small requests
  bool small_requests_;      // the judgement's, or the job's own requests measured small
  std::vector<const TimelineInterval*> metric_refusals_;
  SeriesAt egress_, ingress_, requests_;
  double others_gbps_ = 0;    // the account's Egress that was surely not the job's
  bool quiet_known_ = false;  // others_gbps_ measured in the job's quiet minutes
  std::vector<std::pair<double, double>> read_bytes_;  // (time, bytes each node read by then)
  std::vector<const Activities*> node_reads_;
};

double SeriesTotal(const Series& s) {
  double sum = 0;
  for (const auto& p : s.points)
    if (std::isfinite(p.y) && p.y > 0) sum += p.y;
  return sum;
}

void Charge(IdleLedger* ledger, IdleState s, double gpu_s) {
  if (!(gpu_s > 0) || !std::isfinite(gpu_s)) return;
  ledger->gpu_s[static_cast<int>(s)] += gpu_s;
  ledger->lost_gpu_s += gpu_s;
}

double FactOr(const FactSet& facts, const char* key, double fallback) {
  const Fact* f = facts.Find(key);
  return f && f->is_number() && std::isfinite(f->number()) ? f->number() : fallback;
}

// The GPUs a unit's series counts: the node's own (its GPU file), else the job's figure for the
// node (one job-level file), else the job's for the job's unit.
double UnitGpus(const Evidence& job, const std::vector<analyzers::NodeEvidence>& nodes,
                const std::string& node) {
  if (node.empty()) return FactOr(job.facts, "gpu.count", 0);
  for (const auto& n : nodes)
    if (n.node == node && FactOr(n.evidence.facts, "gpu.count", 0) > 0)
      return FactOr(n.evidence.facts, "gpu.count", 0);
  return FactOr(job.facts, ("gpu.node_gpus." + analyzers::KeySegment(node)).c_str(), 0);
}

// Facts without the GPU ledger's series (a saved facts file, a summary): the same placement at
// the grain of the phase totals the analyzers kept (gpu.lost_*_gpu_s).
IdleLedger LedgerFromPhaseFacts(const FactSet& facts, const LedgerJudgement& j) {
  IdleLedger ledger;
  const Fact* lost = facts.Find("gpu.lost_gpu_s");
  if (!lost || !lost->is_number()) return ledger;
  ledger.known = true;
  ledger.sampled_gpu_s = FactOr(facts, "gpu.sampled_gpu_s", 0);
  const double total = std::max(0.0, lost->number());
  if (j.access_failed && !j.access_onset_s) {
    Charge(&ledger, IdleState::kAccess, total);
    return ledger;
  }
  if (!facts.Find("gpu.lost_download_gpu_s")) {
    // No phases: a refusal anywhere may be what held it (the same precedence, without times).
    const IdleState s = j.refusals_seen ? j.throttle_state : j.unplaced_state;
    Charge(&ledger, s, total);
    if (s == IdleState::kUnknown) ledger.unplaced_gpu_s = total;
    return ledger;
  }
  const double download = FactOr(facts, "gpu.lost_download_gpu_s", 0);
  const double mount = FactOr(facts, "gpu.lost_mount_gpu_s", 0);
  double refused = std::clamp(FactOr(facts, "gpu.lost_throttled_gpu_s", 0), 0.0, mount);
  if (j.mount_state == IdleState::kUnknown && refused >= 0.5 * mount) refused = mount;
  Charge(&ledger, j.download_state, download);
  Charge(&ledger, j.throttle_state, refused);
  Charge(&ledger, j.mount_state, mount - refused);
  const double cached = FactOr(facts, "gpu.lost_cached_gpu_s", 0);
  Charge(&ledger, IdleState::kNotStorage, cached);
  if (cached > 0 && std::isfinite(cached)) ledger.cached_gpu_s = cached;
  Charge(&ledger, IdleState::kOwnCode, FactOr(facts, "gpu.lost_after_data_gpu_s", 0));
  Charge(&ledger, IdleState::kUnknown, FactOr(facts, "gpu.lost_unknown_gpu_s", 0));
  return ledger;
}

}  // namespace

namespace {

// Without per-node GPU series (the job's GPU samples in one file, split by node only in the
// totals), a node that read nothing cannot be placed bucket by bucket. Its idle GPU time ran the
// whole job, so it is taken from every state in proportion (access excepted: from its onset,
// the job failed whatever the node did) and charged to the node.
void ChargeNodesReadingNothing(const LedgerJudgement& j, IdleLedger* ledger) {
  const int access = static_cast<int>(IdleState::kAccess);
  const int dead = static_cast<int>(IdleState::kNotStorageNode);
  double movable = 0;
  for (int s = 0; s < kIdleStateCount; ++s)
    if (s != access && s != dead) movable += ledger->gpu_s[s];
  const double moved = std::min(j.nodes_reading_nothing_gpu_s, movable);
  if (!(moved > 0) || !(movable > 0)) return;
  const double keep = 1 - moved / movable;
  for (int s = 0; s < kIdleStateCount; ++s)
    if (s != access && s != dead) ledger->gpu_s[s] *= keep;
  ledger->unplaced_gpu_s *= keep;
  ledger->cached_gpu_s *= keep;
  ledger->gpu_s[dead] += moved;
}

}  // namespace

double IdleLedger::StorageGpuS() const {
  double sum = 0;
  for (IdleState s : AllIdleStates())
    if (IsStorageState(s)) sum += Of(s);
  return sum;
}

IdleLedger BuildIdleLedger(const Evidence& job, const std::vector<analyzers::NodeEvidence>& nodes,
                           const LedgerJudgement& judgement) {
  IdleLedger ledger;
  const Series* job_lost = job.FindSeries("gpu.lost_gpu_s_by_time");
  const Fact* sampled = job.facts.Find("gpu.sampled_gpu_s");
  if (!job_lost) return LedgerFromPhaseFacts(job.facts, judgement);
  ledger.known = true;
  ledger.sampled_gpu_s = sampled && sampled->is_number() ? sampled->number() : 0;
  std::vector<const TimelineInterval*> account_refusals, all_refusals;
  for (const auto& iv : job.timeline)
    if (iv.lane == "storage") {
      all_refusals.push_back(&iv);
      if (iv.status != "rslex") account_refusals.push_back(&iv);
    }
  // Per node when the nodes' own series hold all of the job's GPU time lost.
  std::vector<LedgerUnit> units;
  double nodes_lost = 0;
  for (const auto& n : nodes)
    if (const Series* s = n.evidence.FindSeries("gpu.lost_gpu_s_by_time", n.node))
      nodes_lost += SeriesTotal(*s);
  const double job_total = SeriesTotal(*job_lost);
  const bool per_node = !nodes.empty() && nodes_lost > 0 &&
                        std::fabs(nodes_lost - job_total) <= 1e-6 * std::max(1.0, job_total) + 1e-3;
  if (per_node) {
    for (const auto& n : nodes) {
      LedgerUnit u;
      u.node = n.node;
      u.lost = n.evidence.FindSeries("gpu.lost_gpu_s_by_time", n.node);
      if (!u.lost) continue;
      u.sample_t = n.evidence.FindSeries("gpu.lost_sample_t_by_time", n.node);
      u.activities = ActivitiesOf(job.timeline, &n.node);
      if (!u.activities.any) u.activities = ActivitiesOf(job.timeline, nullptr);
      // A node with its own rslex log shows every refusal it met; one without could have met
      // any of the account's.
      const bool own_log = n.evidence.facts.Find("runtime.non_success_responses") != nullptr;
      std::vector<const TimelineInterval*> met;
      if (own_log) {
        for (const auto& iv : n.evidence.timeline)
          if (iv.lane == "storage") met.push_back(&iv);
      } else {
        met = account_refusals;
      }
      u.refusals = Padded(met);
      u.reads = ReadSpans(n.evidence.timeline);
      u.own_log = own_log;
      u.reads_nothing = judgement.nodes_reading_nothing.count(n.node) > 0;
      FinishUnit(&u);
      units.push_back(std::move(u));
    }
  } else {
    LedgerUnit u;
    u.lost = job_lost;
    u.activities = ActivitiesOf(job.timeline, nullptr);
    u.refusals = Padded(all_refusals);
    u.reads = ReadSpans(job.timeline);
    u.own_log = job.facts.Find("runtime.non_success_responses") != nullptr;
    FinishUnit(&u);
    units.push_back(std::move(u));
  }
  // How often a GPU was sampled (a metric's points carry no interval fact: its span over the
  // samples each GPU took).
  double sample_interval_s = FactOr(job.facts, "gpu.sample_interval_s", 0);
  if (!(sample_interval_s > 0) && FactOr(job.facts, "gpu.samples", 0) > 0)
    sample_interval_s = FactOr(job.facts, "gpu.span_s", 0) * FactOr(job.facts, "gpu.count", 0) /
                        FactOr(job.facts, "gpu.samples", 0);
  for (auto& u : units) {
    const double gpus = UnitGpus(job, nodes, u.node);
    const double from = u.activities.first_data.value_or(-kInf);
    for (const auto& p : OwnPhases(*u.lost, gpus, sample_interval_s, from))
      u.own_phases.push_back({p.start_s, p.end_s});
    if (getenv("DBGPH"))
      fprintf(stderr, "unit %s gpus %g iv %g from %g phases %zu reads %zu\n", u.node.c_str(), gpus,
              sample_interval_s, from, u.own_phases.size(), u.reads.size());
  }
  for (auto& u : units) {
    double mount_idle = 0, refused = 0;
    for (const auto& p : u.lost->points) {
      if (!(p.y > 0) || !std::isfinite(p.y)) continue;
      const double t = p.x;  // the bucket's start: close enough for a share
      if (Inside(u.activities.downloads, t) || !Inside(u.activities.mounts, t)) continue;
      mount_idle += p.y;
      if (Inside(u.refusals, t)) refused += p.y;
    }
    u.mount_mostly_refused = mount_idle > 0 && refused >= 0.5 * mount_idle;
  }
  Placer placer(job, judgement, units);
  std::vector<IdleState> placed;  // the state of each bucket of the last unit
  ledger.others_egress_gbps = placer.others_gbps();
  for (const auto& u : units) {
    const auto& pts = u.lost->points;
    double width = 10;
    for (size_t i = 1; i < pts.size(); ++i) {
      double w = pts[i].x - pts[i - 1].x;
      if (w > 0 && (i == 1 || w < width)) width = w;
    }
    // When each bucket's idle time was sampled: what held the GPUs then explains it.
    const Series* sampled_at =
        u.node.empty() ? job.FindSeries("gpu.lost_sample_t_by_time") : u.sample_t;
    const bool aligned = sampled_at && sampled_at->points.size() == pts.size();
    StateGpuS& mine = ledger.by_node[u.node];
    placed.assign(pts.size(), IdleState::kUnknown);
    for (size_t i = 0; i < pts.size(); ++i) {
      const auto& p = pts[i];
      if (!(p.y > 0) || !std::isfinite(p.y)) continue;
      double at = p.x + width / 2;
      if (aligned && sampled_at->points[i].x == p.x && std::isfinite(sampled_at->points[i].y))
        at = sampled_at->points[i].y;
      IdleState s = placer.Place(u, at);
      placed[i] = s;
      if (s == IdleState::kUnknown && !u.activities.any) ledger.unplaced_gpu_s += p.y;
      if (s == IdleState::kNotStorage && placer.FromCache(u, at)) ledger.cached_gpu_s += p.y;
      ledger.gpu_s[static_cast<int>(s)] += p.y;
      mine[static_cast<int>(s)] += p.y;
      ledger.lost_gpu_s += p.y;
    }
  }
  if (!per_node) {
    // The job's buckets shared by the nodes idle in them; not when a node that read nothing
    // is taken out of every state below in proportion (its buckets are not its own there).
    ledger.by_node.clear();
    if (!(judgement.nodes_reading_nothing_gpu_s > 0))
      SplitJobBucketsByNode(job, *job_lost, placed, &ledger);
    ChargeNodesReadingNothing(judgement, &ledger);
  }
  return ledger;
}

IdleState ChooseLedgerCause(const IdleLedger& ledger, bool access_failed,
                            std::optional<IdleState> observed_state, bool refusals_seen) {
  // A job that failed on access is that, whatever else it lost: it did not finish. The ledger
  // charges the failure only the time from its onset on.
  if (access_failed) return IdleState::kAccess;
  if (!ledger.known) return observed_state.value_or(IdleState::kUnknown);
  const double storage = ledger.StorageGpuS();
  // The largest single state decides between storage and the rest: storage is the cause when
  // one of its states holds at least as much as any state of the job's own (its code, storage
  // that served it fast), and it cost at least a tenth of the GPU time sampled. A node that read
  // nothing is named beside a storage cause, not instead of it; unknown time is no evidence.
  double top_storage = 0, top_other = 0;
  for (IdleState s : AllIdleStates()) {
    if (s == IdleState::kNotStorageNode || s == IdleState::kUnknown) continue;
    double& top = IsStorageState(s) ? top_storage : top_other;
    top = std::max(top, ledger.Of(s));
  }
  const bool storage_matters =
      storage > 0 && top_storage >= top_other &&
      (ledger.sampled_gpu_s <= 0 || storage >= kStorageMattersFraction * ledger.sampled_gpu_s);

  // Storage cost too little to matter: what else held the GPUs, unless most of the time lost
  // could not be placed at all (no data-runtime activity to tell).
  const bool gpus_busy = ledger.sampled_gpu_s > 0 &&
                         ledger.lost_gpu_s < kStorageMattersFraction * ledger.sampled_gpu_s;
  if (!storage_matters && !gpus_busy && !refusals_seen && ledger.lost_gpu_s > 0 &&
      ledger.Of(IdleState::kUnknown) >= 0.5 * ledger.lost_gpu_s)
    return IdleState::kUnknown;
  IdleState best = IdleState::kUnknown;
  double best_gpu_s = -1;
  for (IdleState s : AllIdleStates()) {
    if (IsStorageState(s) != storage_matters || (!storage_matters && s == IdleState::kUnknown))
      continue;
    if (ledger.Of(s) > best_gpu_s) {  // strict: the earlier state wins a tie
      best = s;
      best_gpu_s = ledger.Of(s);
    }
  }
  if (!storage_matters && best_gpu_s <= 0) return IdleState::kOwnCode;
  return best;
}

}  // namespace feedcheck::diagnosis
