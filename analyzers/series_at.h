// A per-bucket series (the account's Egress, Ingress, Transactions per minute) read at a time:
// the value of the bucket holding t, its peak, its median and its 10th percentile. A series merged
// from several files out of order is not read per bucket (every read gives nothing). Header-only:
// the GPU phase split and the post-mortem's idle ledger read the metrics the same way.
#pragma once

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "core/evidence.h"

namespace feedcheck::analyzers {

class SeriesAt {
 public:
  explicit SeriesAt(const Series* s) {
    if (!s || s->points.empty() ||
        !std::is_sorted(s->points.begin(), s->points.end(),
                        [](const SeriesPoint& a, const SeriesPoint& b) { return a.x < b.x; }))
      return;
    series_ = s;
    for (size_t i = 1; i < s->points.size(); ++i) {
      double w = s->points[i].x - s->points[i - 1].x;
      if (w > 0 && (i == 1 || w < width_)) width_ = w;
    }
    std::vector<double> values;
    for (const auto& p : s->points)
      if (std::isfinite(p.y)) {
        peak_ = std::max(peak_, p.y);
        values.push_back(p.y);
      }
    if (!values.empty()) {
      std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
      median_ = values[values.size() / 2];
      std::nth_element(values.begin(), values.begin() + values.size() / 10, values.end());
      tenth_ = values[values.size() / 10];
    }
  }
  std::optional<double> operator()(double t) const {
    if (!series_) return std::nullopt;
    auto it = std::upper_bound(series_->points.begin(), series_->points.end(), t,
                               [](double v, const SeriesPoint& p) { return v < p.x; });
    if (it == series_->points.begin()) return std::nullopt;
    --it;
    if (t >= it->x + width_ || !std::isfinite(it->y)) return std::nullopt;
    return it->y;
  }
  bool present() const { return series_ != nullptr; }
  double width() const { return width_; }
  double peak() const { return peak_; }
  double median() const { return median_; }
  /// The 10th percentile: what the series holds in its quiet buckets.
  double tenth_percentile() const { return tenth_; }

 private:
  const Series* series_ = nullptr;
  double width_ = 60;
  double peak_ = 0;
  double median_ = 0;
  double tenth_ = 0;
};

}  // namespace feedcheck::analyzers
