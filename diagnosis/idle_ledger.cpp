#include "diagnosis/idle_ledger.h"

#include <algorithm>
#include <cmath>

#include "analyzers/text_util.h"
#include "diagnosis/account_view.h"
#include "diagnosis/checkpoint_stops.h"
#include "diagnosis/idle_nodes.h"
#include "diagnosis/ledger_nodes.h"
#include "diagnosis/ledger_placer.h"
#include "diagnosis/ledger_unit.h"
#include "diagnosis/ledger_writes.h"
#include "diagnosis/own_phases.h"
#include "diagnosis/periodic_stops.h"
#include "diagnosis/read_silence_stops.h"
#include "diagnosis/shared_stops.h"

namespace feedcheck::diagnosis {

namespace {

using ledger::ActivitiesOf;
using ledger::Inside;
using ledger::kInf;
using ledger::LedgerUnit;
using ledger::Padded;
using ledger::Placer;
using ledger::ReadSilences;
using ledger::ReadSpans;
using ledger::RefusalLineGapS;

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

// The GPUs a unit's series counts: the node's own (its GPU file), else the job's figure for the
// node (one job-level file), else the job's for the job's unit.
double UnitGpus(const Evidence& job, const std::vector<analyzers::NodeEvidence>& nodes,
                const std::string& node) {
  if (node.empty()) return job.facts.NumberOr("gpu.count", 0);
  for (const auto& n : nodes)
    if (n.node == node && n.evidence.facts.NumberOr("gpu.count", 0) > 0)
      return n.evidence.facts.NumberOr("gpu.count", 0);
  return job.facts.NumberOr("gpu.node_gpus." + analyzers::KeySegment(node), 0);
}

// The job's GPU time lost split by node (JobLostByNode) where those nodes are the job's: one of
// them at least is one of `nodes` (a folder of its logs by the same name; a node the file names
// that left none is a node without logs); else none.
std::vector<const Series*> NodeSplitSeries(const Evidence& job, const Series& job_lost,
                                           const std::vector<analyzers::NodeEvidence>& nodes) {
  std::vector<const Series*> split = JobLostByNode(job, job_lost);
  for (const Series* s : split)
    if (std::any_of(nodes.begin(), nodes.end(), [&](const auto& n) { return n.node == s->node; }))
      return split;
  return {};
}

// Facts without the GPU ledger's series (a saved facts file, a summary): the same placement at
// the grain of the phase totals the analyzers kept (gpu.lost_*_gpu_s).
IdleLedger LedgerFromPhaseFacts(const FactSet& facts, const LedgerJudgement& j) {
  IdleLedger ledger;
  const Fact* lost = facts.Find("gpu.lost_gpu_s");
  if (!lost || !lost->is_number()) return ledger;
  ledger.known = true;
  ledger.sampled_gpu_s = facts.NumberOr("gpu.sampled_gpu_s", 0);
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
  ledger.placed_by_data_runtime = true;
  const double download = facts.NumberOr("gpu.lost_download_gpu_s", 0);
  const double mount = facts.NumberOr("gpu.lost_mount_gpu_s", 0);
  double refused = std::clamp(facts.NumberOr("gpu.lost_throttled_gpu_s", 0), 0.0, mount);
  if (j.mount_state == IdleState::kUnknown && refused >= 0.5 * mount) refused = mount;
  Charge(&ledger, j.download_state, download);
  Charge(&ledger, j.throttle_state, refused);
  Charge(&ledger, j.mount_state, mount - refused);
  const double cached = facts.NumberOr("gpu.lost_cached_gpu_s", 0);
  Charge(&ledger, IdleState::kNotStorage, cached);
  if (cached > 0 && std::isfinite(cached)) ledger.cached_gpu_s = cached;
  Charge(&ledger, IdleState::kOwnCode, facts.NumberOr("gpu.lost_after_data_gpu_s", 0));
  Charge(&ledger, IdleState::kUnknown, facts.NumberOr("gpu.lost_unknown_gpu_s", 0));
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

namespace {

// Each unit's stops of its own (validations, evaluations, saving): by its pace, its period, its
// reads' silences, and the stops the nodes made together; and of its stops, those at the
// checkpoint cadence the profile declares (no Ingress saying when the job wrote).
void FindOwnPhases(const Evidence& job, const std::vector<analyzers::NodeEvidence>& nodes,
                   const LedgerJudgement& judgement, std::vector<LedgerUnit>* units_out) {
  std::vector<LedgerUnit>& units = *units_out;
  // How often a GPU was sampled (a metric's points carry no interval fact: its span over the
  // samples each GPU took).
  double sample_interval_s = job.facts.NumberOr("gpu.sample_interval_s", 0);
  if (!(sample_interval_s > 0) && job.facts.NumberOr("gpu.samples", 0) > 0)
    sample_interval_s = job.facts.NumberOr("gpu.span_s", 0) * job.facts.NumberOr("gpu.count", 0) /
                        job.facts.NumberOr("gpu.samples", 0);
  // A cache known to hold less than the input (the judgement's miss share: its cap, else the
  // local disk it fills) cannot serve a node that stopped reading; nor can any cache where the
  // job reads its input once (nothing in it is read again).
  const bool no_cache_holds_input =
      judgement.reads_input_once || judgement.mount_cache_miss_share < 1;
  std::vector<NodeStops> node_stops;
  // The job's checkpoints, by the account's Ingress: a stop they explain is no phase or wait.
  const ledger::IngressBursts bursts(job.FindSeries("metrics.ingress_gbps"), judgement.job_writes,
                                     job.FindSeries("gpu.lost_gpu_s_by_time"),
                                     job.FindSeries("gpu.sampled_gpu_s_by_time"));
  for (auto& u : units) {
    for (const auto& r : u.reads) u.last_read_s = std::max(u.last_read_s.value_or(-kInf), r.end);
    if (u.lost->points.size() >= 2)
      u.samples_end = 2 * u.lost->points.back().x - u.lost->points[u.lost->points.size() - 2].x;
    const double gpus = UnitGpus(job, nodes, u.node);
    // From the input's start, or after its downloads (their wait is theirs, not a pace).
    double from = u.activities.first_data.value_or(-kInf);
    for (const auto& d : u.activities.downloads)
      if (std::isfinite(d.end)) from = std::max(from, d.end);
    std::vector<TimeSpan> phases = OwnPhases(*u.lost, gpus, sample_interval_s, from);
    double width_s = 0;
    NodeStops stops;
    // Without a data-runtime log, its first GPU sample.
    stops.input_start_s =
        std::isfinite(from) || u.lost->points.empty() ? from : u.lost->points.front().x;
    stops.runs = WholeStopRuns(*u.lost, gpus, from, &width_s);
    for (const auto& r : stops.runs) {
      u.whole_stops.push_back({r.start_s, r.end_s});
      const double mid = (r.start_s + r.end_s) / 2;
      stops.explained.push_back(Inside(u.refusals, mid) ||
                                (bursts.present() && (bursts.Writing(mid) || bursts.AtEdge(mid))));
    }
    stops.sample_s = std::max(width_s, sample_interval_s);
    for (const auto& p : u.lost->points)
      if (p.x >= from && std::isfinite(p.y)) stops.sampled_s += width_s;
    // And stops that recur at a period, though each is likely at the node's pace.
    for (const auto& p : PeriodicStops(*u.lost, gpus, sample_interval_s, from, phases))
      phases.push_back(p);
    for (const auto& p : phases) u.own_phases.push_back({p.start_s, p.end_s});
    // A mount's reads show stops the GPU samples alone leave open (placed only in the mount).
    if (!u.activities.mounts.empty()) {
      NodeReads reads;
      for (const auto& s : u.read_silences) reads.silences.push_back({s.start, s.end});
      reads.fence_s = u.read_gap_fence_s;
      reads.last_read_s = u.last_read_s;
      reads.samples_end_s = u.samples_end;
      reads.cache_may_hold_input = !no_cache_holds_input;
      for (const auto& p :
           ReadSilenceStops(*u.lost, gpus, sample_interval_s, from, std::move(reads)))
        u.own_phases.push_back({p.start_s, p.end_s});
    }
    for (const auto& p : u.own_phases) stops.phases.push_back({p.start, p.end});
    std::sort(stops.phases.begin(), stops.phases.end(),
              [](const TimeSpan& a, const TimeSpan& b) { return a.start_s < b.start_s; });
    node_stops.push_back(std::move(stops));
  }
  // Stops most nodes made together, where their waits are their own: the job's phases.
  if (units.size() >= 2 && !units.front().node.empty()) {
    const auto shared = SharedStops(node_stops);
    for (size_t i = 0; i < units.size(); ++i)
      for (const auto& p : shared[i]) units[i].own_phases.push_back({p.start_s, p.end_s});
  }
  // Of those, the checkpoints the job's profile declares, where no Ingress says when it wrote.
  const double checkpoint_every_s = job.facts.NumberOr("workload.checkpoint_every_s", 0);
  if (checkpoint_every_s > 0 && judgement.job_writes && !bursts.present())
    for (size_t i = 0; i < units.size(); ++i) {
      LedgerUnit& u = units[i];
      const NodeStops& stops = node_stops[i];
      std::vector<TimeSpan> phases;
      for (const auto& p : u.own_phases) phases.push_back({p.start, p.end});
      for (const auto& p :
           CheckpointStops(phases, checkpoint_every_s, sample_interval_s, stops.input_start_s))
        u.declared_checkpoints.push_back({p.start_s, p.end_s});
      // Its shorter stops too, where they recur at the cadence beyond chance.
      for (const auto& p : RecurringCheckpointRuns(stops.runs, checkpoint_every_s, stops.sample_s,
                                                   stops.input_start_s, stops.sampled_s))
        u.declared_checkpoints.push_back({p.start_s, p.end_s});
    }
}

// The node's CPU series (cpu.util_percent); for the job's one unit ("") the only node's, when
// the metric names one node alone.
const Series* CpuSeriesOf(const Evidence& job, const std::string& node) {
  const Series* only = nullptr;
  size_t count = 0;
  for (const auto& s : job.series) {
    if (s.key != "cpu.util_percent") continue;
    if (!node.empty() && s.node == node) return &s;
    only = &s;
    ++count;
  }
  return node.empty() && count == 1 ? only : nullptr;
}

}  // namespace

IdleLedger BuildIdleLedger(const Evidence& job, const std::vector<analyzers::NodeEvidence>& nodes,
                           const LedgerJudgement& judgement) {
  IdleLedger ledger;
  const Series* job_lost = job.FindSeries("gpu.lost_gpu_s_by_time");
  const Fact* sampled = job.facts.Find("gpu.sampled_gpu_s");
  if (!job_lost) return LedgerFromPhaseFacts(job.facts, judgement);
  ledger.known = true;
  ledger.timed = true;
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
  const bool own_series =
      !nodes.empty() && nodes_lost > 0 &&
      std::fabs(nodes_lost - job_total) <= 1e-6 * std::max(1.0, job_total) + 1e-3;
  // Or, from one file of the job's GPUs that names their nodes (Azure ML's GpuUtilization by
  // NodeId), each node's share of the job's buckets, where every one of those nodes left its
  // logs in a folder of that name: each node's stops are its own, not blurred by the others'.
  const std::vector<const Series*> split =
      own_series ? std::vector<const Series*>{} : NodeSplitSeries(job, *job_lost, nodes);
  const bool per_node = own_series || !split.empty();
  const double refusal_pad_s = ledger::RefusalPadS(job.facts);
  if (per_node) {
    // Where the nodes' data-runtime logs are their own (node folders), a node without one
    // has nothing to say when it read; where they are the job's (one folder of logs), the job's
    // activities are each node's.
    const bool logs_per_node = std::any_of(nodes.begin(), nodes.end(), [&](const auto& n) {
      return ActivitiesOf(job.timeline, &n.node).any;
    });
    // The job's timeline holds each node's activities and refusals by its name.
    const std::set<std::string> failed_nodes = NodesMeetingFailure(job.timeline);
    auto add_unit = [&](const analyzers::NodeEvidence& n, const Series* lost,
                        const Series* sample_t) {
      LedgerUnit u;
      u.node = n.node;
      u.lost = lost;
      u.sample_t = sample_t;
      u.activities = ActivitiesOf(job.timeline, &n.node);
      if (!u.activities.any && !logs_per_node) u.activities = ActivitiesOf(job.timeline, nullptr);
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
      u.refusals = Padded(met, refusal_pad_s);
      u.refused_lines = Padded(met, 0);
      // While it writes, only the time refused: a checkpoint holds the GPUs through its whole
      // write, refused or not. A node's own log shows when: its refusal lines, each stretch
      // reaching about one of its gaps between lines beyond its first and last (a stretch
      // began up to a gap before its first line was written). Where no stretch shows two
      // lines, the gap is unknown and the account's refused minutes say it too.
      const double lines = ViewAccount(n.evidence.facts).log_throttled;
      const double gap_s = own_log ? RefusalLineGapS(met, lines) : 0;
      u.refusals_unpadded = Padded(met, std::min(gap_s, refusal_pad_s));
      if (own_log && !(gap_s > 0))
        for (const auto& r : Padded(account_refusals, 0)) u.refusals_unpadded.push_back(r);
      u.reads = ReadSpans(n.evidence.timeline);
      u.read_silences = ReadSilences(n.evidence.timeline, n.node);
      u.read_gap_fence_s = n.evidence.facts.Number("runtime.read_gap_fence_s");
      u.own_log = own_log;
      u.reads_nothing = judgement.nodes_reading_nothing.count(n.node) > 0;
      u.cpu = analyzers::SeriesAt(CpuSeriesOf(job, n.node));
      u.met_access_failure = failed_nodes.count(n.node) > 0;
      units.push_back(std::move(u));
    };
    if (own_series) {
      for (const auto& n : nodes)
        if (const Series* lost = n.evidence.FindSeries("gpu.lost_gpu_s_by_time", n.node))
          add_unit(n, lost, n.evidence.FindSeries("gpu.lost_sample_t_by_time", n.node));
    } else {
      // The job's samples fall on one grid for all its nodes: its sample times are theirs.
      const Series* sample_t = job.FindSeries("gpu.lost_sample_t_by_time");
      // A node the file names that left no logs of its own has nothing to say when it read:
      // only the account's records place its time.
      for (const Series* lost : split) {
        auto it = std::find_if(nodes.begin(), nodes.end(),
                               [&](const auto& n) { return n.node == lost->node; });
        analyzers::NodeEvidence no_logs;
        no_logs.node = lost->node;
        add_unit(it != nodes.end() ? *it : no_logs, lost, sample_t);
      }
    }
  } else {
    LedgerUnit u;
    u.lost = job_lost;
    u.activities = ActivitiesOf(job.timeline, nullptr);
    u.refusals = Padded(all_refusals, refusal_pad_s);
    u.refusals_unpadded = Padded(all_refusals, 0);
    u.refused_lines = u.refusals_unpadded;
    u.reads = ReadSpans(job.timeline);
    u.read_silences = ReadSilences(job.timeline, "");
    u.read_gap_fence_s = job.facts.Number("runtime.read_gap_fence_s");
    u.own_log = job.facts.Find("runtime.non_success_responses") != nullptr;
    u.cpu = analyzers::SeriesAt(CpuSeriesOf(job, ""));
    units.push_back(std::move(u));
  }
  FindOwnPhases(job, nodes, judgement, &units);
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
  for (const auto& u : units) ledger.placed_by_data_runtime |= u.activities.any;
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
                            std::optional<IdleState> observed_state, bool refusals_seen,
                            bool download_outgrew_disk) {
  // A job that failed on access is that, whatever else it lost: it did not finish. The ledger
  // charges the failure only the time from its onset on.
  if (access_failed) return IdleState::kAccess;
  // Nor did one whose download outgrew the disk, however fast it read: the mode cannot hold it.
  if (download_outgrew_disk) return IdleState::kStartupDownload;
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
  // could not be placed at all (no data-runtime activity to tell). Refusals somewhere in the
  // job may be what the unplaced time was, unless the ledger was timed: a refusal that held the
  // GPUs would have been placed then, and one that did not says nothing of the rest.
  const bool gpus_busy = ledger.sampled_gpu_s > 0 &&
                         ledger.lost_gpu_s < kStorageMattersFraction * ledger.sampled_gpu_s;
  if (!storage_matters && !gpus_busy && (!refusals_seen || ledger.timed) && ledger.lost_gpu_s > 0 &&
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
