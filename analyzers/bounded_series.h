// A time series with bounded memory: points fall into buckets of a width that doubles (and
// neighbours merge) whenever more than `max_points` buckets exist, so a week of 1-second
// samples still yields at most `max_points` points, each the mean of its bucket.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "core/evidence.h"

namespace feedcheck::analyzers {

class BoundedSeries {
 public:
  /// `initial_width` is the bucket width to start with in x units (e.g. 1 s).
  explicit BoundedSeries(double initial_width = 1.0, size_t max_points = 4096);

  void Add(double x, double y);
  bool empty() const { return buckets_.empty(); }
  size_t size() const { return buckets_.size(); }
  double width() const { return width_; }

  struct Bucket {
    double x_start = 0;  ///< left edge of the bucket
    double x_mean = 0;   ///< mean x of the samples in it
    double y_mean = 0;
    double y_sum = 0;
    uint64_t count = 0;
  };
  std::vector<Bucket> Buckets() const;
  /// Points (mean x, mean y), ordered by x.
  std::vector<SeriesPoint> Points() const;

 private:
  struct Acc {
    double x_sum = 0;
    double y_sum = 0;
    uint64_t count = 0;
  };
  void Coarsen();

  double width_;
  size_t max_points_;
  bool have_origin_ = false;
  double origin_ = 0;
  std::map<long long, Acc> buckets_;
};

/// Builds timeline intervals from (start, end) pieces, merging those that touch or overlap
/// (within `gap_s`), with a bound: past `max_intervals`, the closest pair is merged.
class IntervalMerger {
 public:
  explicit IntervalMerger(double gap_s = 0, size_t max_intervals = 512)
      : gap_s_(gap_s), max_intervals_(max_intervals) {}
  void Add(double start, double end);
  struct Interval {
    double start = 0;
    double end = 0;
  };
  /// Sorted, merged intervals.
  std::vector<Interval> Result() const;
  double TotalSeconds() const;

 private:
  double gap_s_;
  size_t max_intervals_;
  std::map<double, double> intervals_;  // start -> end, kept disjoint
};

}  // namespace feedcheck::analyzers
