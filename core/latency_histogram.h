// A mergeable latency histogram with HdrHistogram-style log-linear buckets: each power of two
// is split into 1024 equal sub-buckets, so any recorded value is reported within 1/2048 of itself
// (better than 3 significant digits; exact below 1024 ns). Two histograms merge bucket by bucket,
// so ranks of a multi-node run combine percentiles exactly as if one process had recorded every
// sample. Memory follows the range actually recorded: counts are kept in 1024-bucket chunks, one
// per power of two, allocated when a value first lands there (8 KiB each; a histogram of
// milliseconds-to-seconds latencies holds about ten).
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

namespace feedcheck {

class LatencyHistogram {
 public:
  static constexpr int kSubBucketBits = 10;  ///< 1024 sub-buckets per power of two
  static constexpr int kSubBuckets = 1 << kSubBucketBits;
  static constexpr int kMaxExponent = 42;  ///< values up to 2^42 ns (~73 min); larger clamp
  static constexpr size_t kBucketCount =
      kSubBuckets + static_cast<size_t>(kMaxExponent - kSubBucketBits + 1) * kSubBuckets;
  /// The guaranteed bound on |reported - true| / true for any percentile.
  static constexpr double kRelativeError = 1.0 / (2 * kSubBuckets);

  LatencyHistogram();

  /// Records a duration in seconds (negative and NaN are recorded as 0).
  void RecordSeconds(double seconds);
  void RecordNanos(uint64_t nanos);

  /// Adds every count of `other` (same layout by construction).
  void Merge(const LatencyHistogram& other);

  uint64_t count() const { return count_; }
  double min_s() const { return count_ ? static_cast<double>(min_ns_) / 1e9 : 0; }
  double max_s() const { return count_ ? static_cast<double>(max_ns_) / 1e9 : 0; }
  double mean_s() const { return count_ ? sum_ns_ / 1e9 / static_cast<double>(count_) : 0; }
  /// The layout written before 3-digit buckets (64 sub-buckets); still read from JSON.
  static constexpr int kLegacySubBucketBits = 6;

  /// Nearest-rank percentile, q in [0, 1]: the value at rank ceil(q * count). 0 when empty.
  double PercentileSeconds(double q) const;

  /// The raw counts, dense (kBucketCount entries): what ranks send to each other.
  std::vector<uint64_t> counts() const;
  /// Rebuilds a histogram from counts plus the exact min/max/sum kept beside them.
  static std::optional<LatencyHistogram> FromCounts(const std::vector<uint64_t>& counts,
                                                    uint64_t min_ns, uint64_t max_ns,
                                                    double sum_ns);
  /// Powers of two holding counts (8 KiB each): what the histogram costs in memory.
  size_t chunks_in_use() const;
  uint64_t min_ns() const { return min_ns_; }
  uint64_t max_ns() const { return max_ns_; }
  double sum_ns() const { return sum_ns_; }

  /// Sparse JSON: {"unit":"ns","count":N,"min":..,"max":..,"sum":..,"buckets":[[i,c],...]}.
  nlohmann::json ToJson() const;
  /// Reads this layout, or the legacy 64-sub-bucket one (each old bucket re-recorded at its
  /// middle, so old files keep their own, coarser precision).
  static std::optional<LatencyHistogram> FromJson(const nlohmann::json& json, std::string* error);

  static size_t BucketIndex(uint64_t nanos);
  /// The value a bucket reports: the middle of its range (exact below 1024 ns).
  static double BucketMidNanos(size_t index);

 private:
  static constexpr size_t kChunkCount = kBucketCount / kSubBuckets;
  uint64_t& Slot(size_t index);
  uint64_t CountAt(size_t index) const;

  /// chunks_[c] holds buckets [c * kSubBuckets, (c + 1) * kSubBuckets); empty until used.
  std::vector<std::vector<uint64_t>> chunks_;
  uint64_t count_ = 0;
  uint64_t min_ns_ = 0;
  uint64_t max_ns_ = 0;
  double sum_ns_ = 0;
};

}  // namespace feedcheck
