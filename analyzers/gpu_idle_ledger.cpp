#include "analyzers/gpu_idle_ledger.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "analyzers/text_util.h"
#include "analyzers/timestamp.h"

namespace feedcheck::analyzers {

namespace {
// 10 s buckets: about 5.8 days before the first widening.
constexpr size_t kMaxLedgerBuckets = 50000;
constexpr size_t kMaxGpus = 4096;
// Nodes whose lost time is also kept by bucket (each up to kMaxLedgerBuckets): past this many, a
// node's GPUs count for the job only, and its row has no phase split.
constexpr size_t kMaxOwners = 256;
// Nodes whose lost time the job's samples also keep by bucket (the idle ledger's split by node,
// for GPU files not in node folders): past this many, none is kept.
constexpr size_t kMaxSplitNodes = 64;
// A gap longer than this many sampling intervals is a hole (the sampler stopped), not a
// long sample: only one interval of it is counted.
constexpr double kHoleFactor = 3.5;
// Times past the year 9999 (or as far before 1970) are not clock readings; far enough out, a
// bucket index would not fit in an int64 once divided by the bucket width.
constexpr double kMaxAbsEpochS = kEndOfYear9999EpochS;
}  // namespace

void GpuIdleLedger::Add(std::string_view gpu, std::string_view node, double epoch_s,
                        double util_percent, std::optional<double> duration_s,
                        std::string_view owner) {
  if (!std::isfinite(epoch_s) || !std::isfinite(util_percent)) return;
  if (std::fabs(epoch_s) > kMaxAbsEpochS) return;
  if (duration_s && !(std::isfinite(*duration_s) && *duration_s < kMaxAbsEpochS)) return;
  auto it = gpus_.find(gpu);
  if (it == gpus_.end()) {
    if (gpus_.size() >= kMaxGpus) return;
    it = gpus_.try_emplace(std::string(gpu)).first;
    it->second.node = std::string(node);
    it->second.totals = &nodes_[it->second.node];
    if (nodes_.size() == kMaxSplitNodes + 1)
      for (auto& [name, n] : nodes_) n.lost_buckets.clear();
    ++it->second.totals->gpus;
    if (!owner.empty() && (owners_.size() < kMaxOwners || owners_.count(owner))) {
      it->second.owner = &owners_[std::string(owner)];
      ++it->second.owner->totals.gpus;
    } else {
      it->second.totals->unowned_gpus = true;
    }
  }
  GpuState& g = it->second;
  if (duration_s && *duration_s > 0) {
    Attribute(g, epoch_s, *duration_s, util_percent, epoch_s + *duration_s / 2);
    return;
  }
  if (g.has_last) {
    double gap = epoch_s - g.last_t;
    if (gap <= 0) return;  // a repeated or out-of-order timestamp adds no time
    if (g.min_gap_s <= 0 || gap < g.min_gap_s) g.min_gap_s = gap;
    double covered = gap;
    if (gap > kHoleFactor * g.min_gap_s) {
      covered = g.min_gap_s;
      unsampled_s_ += gap - covered;
      ++holes_;
    }
    Attribute(g, g.last_t, covered, g.last_util, g.last_t);
  }
  g.last_t = epoch_s;
  g.last_util = util_percent;
  g.has_last = true;
}

void GpuIdleLedger::Attribute(const GpuState& g, double start, double duration_s, double util,
                              double sample_t) {
  bool lost = util < threshold_;
  for (NodeTotals* n : {g.totals, g.owner ? &g.owner->totals : nullptr}) {
    if (!n) continue;
    n->sampled_gpu_s += duration_s;
    n->util_gpu_s += std::clamp(util, 0.0, 100.0) * duration_s;
    if (lost) n->lost_gpu_s += duration_s;
  }
  if (!first_t_ || start < *first_t_) first_t_ = start;
  last_end_t_ = std::max(last_end_t_, start + duration_s);
  // Spread the stretch over the buckets it overlaps. One that spans more buckets than the cap
  // would widen them again and again while it is spread (a stray timestamp years away: seconds
  // of work under the fuzzer's sanitizers); widen up front until it fits in half of them.
  double t = start, end = start + duration_s;
  while ((end - start) / width_s_ > static_cast<double>(kMaxLedgerBuckets / 2)) Widen();
  while (t < end) {
    auto index = static_cast<int64_t>(std::floor(t / width_s_));
    double bucket_end = static_cast<double>(index + 1) * width_s_;
    double part = std::min(end, bucket_end) - t;
    if (part <= 0) break;
    Bucket& b = buckets_[index];
    b.sampled_gpu_s += part;
    if (lost) {
      b.lost_gpu_s += part;
      b.lost_sample_t += part * sample_t;
    }
    // Only for GPUs no node folder owns: an owned GPU's node has its own series.
    if (lost && !g.owner && nodes_.size() <= kMaxSplitNodes) g.totals->lost_buckets[index] += part;
    if (lost && g.owner) {
      auto& owned = g.owner->lost_buckets[index];
      owned.first += part;
      owned.second += part * sample_t;
    }
    t += part;
    if (buckets_.size() > kMaxLedgerBuckets) Widen();
  }
}

void GpuIdleLedger::Widen() {
  std::map<int64_t, Bucket> wider;
  for (const auto& [index, b] : buckets_) {
    auto w = static_cast<int64_t>(std::floor(static_cast<double>(index) / 2.0));
    wider[w].lost_gpu_s += b.lost_gpu_s;
    wider[w].sampled_gpu_s += b.sampled_gpu_s;
    wider[w].lost_sample_t += b.lost_sample_t;
  }
  buckets_ = std::move(wider);
  for (auto& [name, n] : nodes_) {
    std::map<int64_t, double> wider_lost;
    for (const auto& [index, lost] : n.lost_buckets)
      wider_lost[static_cast<int64_t>(std::floor(static_cast<double>(index) / 2.0))] += lost;
    n.lost_buckets = std::move(wider_lost);
  }
  for (auto& [name, o] : owners_) {
    std::map<int64_t, std::pair<double, double>> wider_lost;
    for (const auto& [index, lost] : o.lost_buckets) {
      auto& w = wider_lost[static_cast<int64_t>(std::floor(static_cast<double>(index) / 2.0))];
      w.first += lost.first;
      w.second += lost.second;
    }
    o.lost_buckets = std::move(wider_lost);
  }
  width_s_ *= 2;
}

Series GpuIdleLedger::SampleTimeSeries(const std::string& owner) const {
  return Series{"gpu.lost_sample_t_by_time",
                owner.empty()
                    ? "when the idle GPU time of each bucket was sampled"
                    : fmt::format("when {}'s idle GPU time of each bucket was sampled", owner),
                "time",
                Unit::kSeconds,
                "time",
                Unit::kSeconds,
                {},
                owner};
}

void GpuIdleLedger::Finish(Evidence* out, const Provenance& where,
                           const std::map<std::string, std::string, std::less<>>& node_files) {
  // The last sample of each GPU covers one sampling interval.
  for (auto& [name, g] : gpus_) {
    if (g.has_last && g.min_gap_s > 0) Attribute(g, g.last_t, g.min_gap_s, g.last_util, g.last_t);
    g.has_last = false;
  }
  double lost = 0, sampled = 0;
  for (const auto& [node, n] : nodes_) {
    lost += n.lost_gpu_s;
    sampled += n.sampled_gpu_s;
  }
  if (sampled <= 0) return;
  std::vector<double> intervals;
  for (const auto& [name, g] : gpus_)
    if (g.min_gap_s > 0) intervals.push_back(g.min_gap_s);
  auto gpus = static_cast<double>(gpus_.size());
  Provenance p = where;
  p.source = fmt::format("{}: each sample counts for its interval, lost when under {}%",
                         where.source, FormatNumber(threshold_));
  auto set = [&](std::string key, double v, Unit unit) {
    out->facts.Set(NumberFact(std::move(key), v, unit, p));
  };
  set("gpu.lost_gpu_s", lost, Unit::kSeconds);
  set("gpu.sampled_gpu_s", sampled, Unit::kSeconds);
  set("gpu.idle_fraction", lost / sampled, Unit::kFraction);
  set("gpu.idle_s", lost / gpus, Unit::kSeconds);
  if (first_t_) set("gpu.span_s", last_end_t_ - *first_t_, Unit::kSeconds);
  if (!intervals.empty()) {
    std::nth_element(intervals.begin(), intervals.begin() + intervals.size() / 2, intervals.end());
    set("gpu.sample_interval_s", intervals[intervals.size() / 2], Unit::kSeconds);
  }
  if (unsampled_s_ > 0) set("gpu.unsampled_s", unsampled_s_ / gpus, Unit::kSeconds);
  if (nodes_.size() >= 2) {
    for (const auto& [node, n] : nodes_) {
      std::string seg = KeySegment(node.empty() ? "(unnamed)" : node);
      Provenance pn = p;
      if (auto f = node_files.find(node); f != node_files.end()) {
        pn.file = f->second;
        pn.source =
            fmt::format("{}'s GPU samples: each counts for its interval, lost when under {}%", node,
                        FormatNumber(threshold_));
      }
      auto set_node = [&](std::string key, double v, Unit unit) {
        out->facts.Set(NumberFact(std::move(key), v, unit, pn));
      };
      set_node("gpu.node_lost_gpu_s." + seg, n.lost_gpu_s, Unit::kSeconds);
      set_node("gpu.node_gpus." + seg, n.gpus, Unit::kCount);
      if (n.sampled_gpu_s > 0)
        set_node("gpu.node_util_mean." + seg, n.util_gpu_s / n.sampled_gpu_s, Unit::kPercent);
    }
  }
  Series lost_series{"gpu.lost_gpu_s_by_time",
                     "GPU time lost (GPU-seconds per bucket)",
                     "time",
                     Unit::kSeconds,
                     "GPU-seconds",
                     Unit::kSeconds,
                     {}};
  Series sampled_series{"gpu.sampled_gpu_s_by_time",
                        "GPU time sampled (GPU-seconds per bucket)",
                        "time",
                        Unit::kSeconds,
                        "GPU-seconds",
                        Unit::kSeconds,
                        {}};
  Series sample_t_series = SampleTimeSeries("");
  for (const auto& [index, b] : buckets_) {
    double x = static_cast<double>(index) * width_s_;
    lost_series.points.push_back({x, b.lost_gpu_s});
    sampled_series.points.push_back({x, b.sampled_gpu_s});
    sample_t_series.points.push_back(
        {x, b.lost_gpu_s > 0 ? b.lost_sample_t / b.lost_gpu_s : x + width_s_ / 2});
  }
  out->series.push_back(std::move(lost_series));
  out->series.push_back(std::move(sampled_series));
  out->series.push_back(std::move(sample_t_series));
  // Each node's share of every bucket, so the idle ledger can say which node lost what it
  // placed (a job whose GPU files are not in node folders): only while every node was kept.
  if (nodes_.size() < 2 || nodes_.size() > kMaxSplitNodes) return;
  for (const auto& [node, n] : nodes_) {
    if (!n.unowned_gpus) continue;  // its GPUs' samples are in a node folder of its own
    const std::string name = node.empty() ? "(unnamed)" : node;
    Series s{"gpu.node_lost_gpu_s_by_time",
             fmt::format("GPU time lost on {} (GPU-seconds per bucket)", name),
             "time",
             Unit::kSeconds,
             "GPU-seconds",
             Unit::kSeconds,
             {},
             name};
    for (const auto& [index, b] : buckets_) {
      auto it = n.lost_buckets.find(index);
      s.points.push_back(
          {static_cast<double>(index) * width_s_, it == n.lost_buckets.end() ? 0 : it->second});
    }
    out->series.push_back(std::move(s));
  }
}

void GpuIdleLedger::FinishOwner(const std::string& owner, Evidence* out,
                                const Provenance& where) const {
  auto it = owners_.find(owner);
  if (it == owners_.end() || it->second.totals.sampled_gpu_s <= 0) return;
  const OwnerTotals& o = it->second;
  out->facts.Set(NumberFact("gpu.lost_gpu_s", o.totals.lost_gpu_s, Unit::kSeconds, where));
  out->facts.Set(NumberFact("gpu.sampled_gpu_s", o.totals.sampled_gpu_s, Unit::kSeconds, where));
  Series lost_series{"gpu.lost_gpu_s_by_time",
                     fmt::format("GPU time lost on {} (GPU-seconds per bucket)", owner),
                     "time",
                     Unit::kSeconds,
                     "GPU-seconds",
                     Unit::kSeconds,
                     {},
                     owner};
  // Every bucket of the job, so the node's series has the job's bucket width.
  Series sample_t_series = SampleTimeSeries(owner);
  for (const auto& [index, b] : buckets_) {
    const double x = static_cast<double>(index) * width_s_;
    auto lost = o.lost_buckets.find(index);
    const double lost_s = lost == o.lost_buckets.end() ? 0 : lost->second.first;
    lost_series.points.push_back({x, lost_s});
    sample_t_series.points.push_back(
        {x, lost_s > 0 ? lost->second.second / lost_s : x + width_s_ / 2});
  }
  out->series.push_back(std::move(lost_series));
  out->series.push_back(std::move(sample_t_series));
}

}  // namespace feedcheck::analyzers
