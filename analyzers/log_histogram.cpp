#include "analyzers/log_histogram.h"

#include <algorithm>
#include <cmath>

namespace feedcheck::analyzers {

int LogHistogram::BucketOf(double value) {
  if (value <= std::ldexp(1.0, kMinExp)) return 0;
  int exp = 0;
  double mantissa = std::frexp(value, &exp);  // value = mantissa * 2^exp, mantissa in [0.5,1)
  if (exp > kMaxExp) return kBuckets - 1;
  int sub = static_cast<int>((mantissa - 0.5) * 2 * kSubBuckets);
  sub = std::clamp(sub, 0, kSubBuckets - 1);
  int bucket = (exp - 1 - kMinExp) * kSubBuckets + sub + 1;
  return std::clamp(bucket, 1, kBuckets - 1);
}

double LogHistogram::BucketMid(int bucket) {
  if (bucket == 0) return 0;
  int b = bucket - 1;
  int exp = b / kSubBuckets + kMinExp;
  int sub = b % kSubBuckets;
  double low = std::ldexp(1.0 + static_cast<double>(sub) / kSubBuckets, exp);
  double high = std::ldexp(1.0 + static_cast<double>(sub + 1) / kSubBuckets, exp);
  return (low + high) / 2;
}

void LogHistogram::Add(double value) {
  if (!(value >= 0) || !std::isfinite(value)) return;
  ++buckets_[static_cast<size_t>(BucketOf(value))];
  if (count_ == 0 || value < min_) min_ = value;
  if (count_ == 0 || value > max_) max_ = value;
  ++count_;
  sum_ += value;
}

void LogHistogram::Merge(const LogHistogram& other) {
  if (other.count_ == 0) return;
  for (size_t i = 0; i < buckets_.size(); ++i) buckets_[i] += other.buckets_[i];
  if (count_ == 0 || other.min_ < min_) min_ = other.min_;
  if (count_ == 0 || other.max_ > max_) max_ = other.max_;
  count_ += other.count_;
  sum_ += other.sum_;
}

double LogHistogram::Quantile(double q) const {
  if (count_ == 0) return 0;
  q = std::clamp(q, 0.0, 1.0);
  // Rank of the wanted sample, 1-based, nearest-rank definition.
  auto rank = static_cast<uint64_t>(std::ceil(q * static_cast<double>(count_)));
  if (rank == 0) rank = 1;
  uint64_t seen = 0;
  for (size_t i = 0; i < buckets_.size(); ++i) {
    seen += buckets_[i];
    if (seen >= rank) return std::clamp(BucketMid(static_cast<int>(i)), min_, max_);
  }
  return max_;
}

}  // namespace feedcheck::analyzers
