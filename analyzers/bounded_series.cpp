#include "analyzers/bounded_series.h"

#include <cmath>
#include <limits>

namespace feedcheck::analyzers {

BoundedSeries::BoundedSeries(double initial_width, size_t max_points)
    : width_(initial_width > 0 ? initial_width : 1.0),
      max_points_(max_points < 2 ? 2 : max_points) {}

void BoundedSeries::Add(double x, double y) {
  if (!std::isfinite(x) || !std::isfinite(y)) return;
  if (!have_origin_) {
    origin_ = x;
    have_origin_ = true;
  }
  // A point absurdly far from the first one (a garbage timestamp) has no bucket: the cast to
  // an integer index would be undefined, so it is dropped.
  double bucket = std::floor((x - origin_) / width_);
  if (!(std::fabs(bucket) < 1e15)) return;
  auto index = static_cast<long long>(bucket);
  Acc& acc = buckets_[index];
  acc.x_sum += x;
  acc.y_sum += y;
  ++acc.count;
  while (buckets_.size() > max_points_) Coarsen();
}

void BoundedSeries::Coarsen() {
  width_ *= 2;
  std::map<long long, Acc> merged;
  for (const auto& [index, acc] : buckets_) {
    // floor division keeps negative indexes (x before the origin) in the right bucket
    long long to = index >= 0 ? index / 2 : -((-index + 1) / 2);
    Acc& m = merged[to];
    m.x_sum += acc.x_sum;
    m.y_sum += acc.y_sum;
    m.count += acc.count;
  }
  buckets_.swap(merged);
}

std::vector<BoundedSeries::Bucket> BoundedSeries::Buckets() const {
  std::vector<Bucket> out;
  out.reserve(buckets_.size());
  for (const auto& [index, acc] : buckets_) {
    double n = static_cast<double>(acc.count);
    out.push_back({origin_ + static_cast<double>(index) * width_, acc.x_sum / n, acc.y_sum / n,
                   acc.y_sum, acc.count});
  }
  return out;
}

std::vector<SeriesPoint> BoundedSeries::Points() const {
  std::vector<SeriesPoint> out;
  out.reserve(buckets_.size());
  for (const auto& b : Buckets()) out.push_back({b.x_mean, b.y_mean});
  return out;
}

void IntervalMerger::Add(double start, double end) {
  if (!std::isfinite(start) || !std::isfinite(end)) return;
  if (end < start) std::swap(start, end);
  // Absorb every interval that overlaps [start - gap, end + gap].
  auto it = intervals_.upper_bound(start);
  if (it != intervals_.begin()) {
    auto prev = std::prev(it);
    if (prev->second + gap_s_ >= start) {
      // The common case, a log's next event extending the interval it is in: absorbed into
      // that one in place when it reaches no further interval (what the loop below would leave,
      // without taking a node out of the map and putting one back).
      double merged_end = std::max(end, prev->second);
      if (prev->first <= end + gap_s_ &&
          (it == intervals_.end() || it->first > merged_end + gap_s_)) {
        prev->second = merged_end;
        return;
      }
      it = prev;
    }
  }
  while (it != intervals_.end() && it->first <= end + gap_s_) {
    start = std::min(start, it->first);
    end = std::max(end, it->second);
    it = intervals_.erase(it);
  }
  intervals_[start] = end;
  while (intervals_.size() > max_intervals_) {
    // Merge the pair with the smallest gap.
    auto best = intervals_.begin();
    double best_gap = std::numeric_limits<double>::infinity();
    for (auto a = intervals_.begin(); std::next(a) != intervals_.end(); ++a) {
      double g = std::next(a)->first - a->second;
      if (g < best_gap) {
        best_gap = g;
        best = a;
      }
    }
    auto next = std::next(best);
    best->second = std::max(best->second, next->second);
    intervals_.erase(next);
  }
}

std::vector<IntervalMerger::Interval> IntervalMerger::Result() const {
  std::vector<Interval> out;
  for (const auto& [s, e] : intervals_) out.push_back({s, e});
  return out;
}

double IntervalMerger::TotalSeconds() const {
  double total = 0;
  for (const auto& [s, e] : intervals_) total += e - s;
  return total;
}

}  // namespace feedcheck::analyzers
