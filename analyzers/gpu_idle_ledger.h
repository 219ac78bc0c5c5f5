// GPU time lost: every GPU sample stands for a stretch of time (the source's interval, or the
// time until that GPU's next sample, not across a hole in the sampling), and a sample under the
// busy threshold makes that stretch lost GPU time. Kept per time bucket (so a post-mortem can
// split it by what the data runtime was doing) and per node (so a straggler shows). Memory is
// bounded: buckets widen when there are too many.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "core/evidence.h"

namespace feedcheck::analyzers {

class GpuIdleLedger {
 public:
  explicit GpuIdleLedger(double busy_threshold_percent) : threshold_(busy_threshold_percent) {}

  /// One sample of `gpu` (unique across nodes) on `node` ("" when unknown). `duration_s` when
  /// the source states what the sample covers (a metric's interval); otherwise the sample
  /// covers the time until the same GPU's next one.
  /// `owner`: the node folder the GPU's samples were read from ("" for none), whose own GPU
  /// time is kept apart as well (FinishOwner).
  void Add(std::string_view gpu, std::string_view node, double epoch_s, double util_percent,
           std::optional<double> duration_s = std::nullopt, std::string_view owner = {});

  /// Facts gpu.lost_gpu_s, gpu.sampled_gpu_s, gpu.idle_fraction, gpu.idle_s, gpu.span_s,
  /// gpu.sample_interval_s, gpu.node_* (with two nodes or more; then also each node's series
  /// gpu.node_lost_gpu_s_by_time, tagged with the node, on the job's buckets, for up to 64
  /// nodes); series gpu.lost_gpu_s_by_time
  /// and gpu.sampled_gpu_s_by_time.
  /// `node_files`: the file each node's samples came from, so a node's facts name its own file
  /// rather than the first file read.
  void Finish(Evidence* out, const Provenance& where,
              const std::map<std::string, std::string, std::less<>>& node_files = {});

  /// After Finish: the GPU time of `owner`'s GPUs alone: gpu.lost_gpu_s, gpu.sampled_gpu_s and
  /// the series gpu.lost_gpu_s_by_time tagged with the node (the job's buckets). Nothing for
  /// an owner without samples.
  void FinishOwner(const std::string& owner, Evidence* out, const Provenance& where) const;

  bool empty() const { return gpus_.empty(); }

 private:
  struct NodeTotals {
    double lost_gpu_s = 0;
    double sampled_gpu_s = 0;
    double util_gpu_s = 0;  // utilisation x seconds, for the mean
    int gpus = 0;
    // A node's (not an owner's) lost GPU-seconds by the job's buckets, while the job has at most
    // kMaxSplitNodes nodes: each bucket's idle time split by node.
    std::map<int64_t, double> lost_buckets;
    bool unowned_gpus = false;  // some of its GPUs have no node folder of their own
  };
  struct OwnerTotals {
    NodeTotals totals;
    // By the job's buckets: lost GPU-seconds, and those seconds x the time of their sample.
    std::map<int64_t, std::pair<double, double>> lost_buckets;
  };
  struct GpuState {
    std::string node;
    NodeTotals* totals = nullptr;  // nodes_[node] (std::map entries stay put)
    OwnerTotals* owner = nullptr;  // owners_ entry; null for none
    double last_t = 0;
    double last_util = 0;
    bool has_last = false;
    double min_gap_s = 0;  // the sampling interval, once two samples were seen
  };
  struct Bucket {
    double lost_gpu_s = 0;
    double sampled_gpu_s = 0;
    // Lost seconds x the time of the sample that said so: a bucket's idle time is explained by
    // what held the GPUs when it was sampled, not in the middle of the interval it was held.
    double lost_sample_t = 0;
  };
  /// `sample_t`: when the utilisation was measured (an instant sample's time, the middle of a
  /// metric's interval).
  void Attribute(const GpuState& g, double start, double duration_s, double util, double sample_t);
  void Widen();
  /// The series of each bucket's lost-weighted sample time (its middle when nothing was lost).
  Series SampleTimeSeries(const std::string& owner) const;

  double threshold_;
  std::map<std::string, GpuState, std::less<>> gpus_;
  std::map<int64_t, Bucket> buckets_;
  double width_s_ = 10;
  std::map<std::string, NodeTotals, std::less<>> nodes_;
  std::map<std::string, OwnerTotals, std::less<>> owners_;
  std::optional<double> first_t_;
  double last_end_t_ = 0;
  double unsampled_s_ = 0;  // holes in the sampling, not counted either way
  uint64_t holes_ = 0;
};

}  // namespace feedcheck::analyzers
