// A mergeable log-bucket histogram for latencies and durations: constant memory, ~1 %
// relative error on percentiles (64 buckets per power of two), exact count/sum/min/max.
// Kept here so analyzers do not depend on probes; same idea as HdrHistogram's log buckets.
#pragma once

#include <array>
#include <cstdint>

namespace feedcheck::analyzers {

class LogHistogram {
 public:
  /// Records a non-negative value; negatives and NaN are ignored.
  void Add(double value);
  void Merge(const LogHistogram& other);

  uint64_t count() const { return count_; }
  double sum() const { return sum_; }
  double mean() const { return count_ ? sum_ / static_cast<double>(count_) : 0; }
  double min() const { return count_ ? min_ : 0; }
  double max() const { return count_ ? max_ : 0; }
  /// Value at quantile q in [0,1] (bucket midpoint, clamped to [min,max]); 0 when empty.
  double Quantile(double q) const;

 private:
  static constexpr int kSubBuckets = 64;
  static constexpr int kMinExp = -20;  // 2^-20 ~ 1e-6: smaller values share bucket 0
  static constexpr int kMaxExp = 44;   // 2^44 ~ 1.7e13
  static constexpr int kBuckets = (kMaxExp - kMinExp) * kSubBuckets + 1;
  static int BucketOf(double value);
  static double BucketMid(int bucket);

  std::array<uint64_t, kBuckets> buckets_{};
  uint64_t count_ = 0;
  double sum_ = 0;
  double min_ = 0;
  double max_ = 0;
};

}  // namespace feedcheck::analyzers
