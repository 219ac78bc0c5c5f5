// The small-file cost model as properties of the storage path: a fixed per-request overhead and
// the aggregate bandwidth the path delivers, fitted from median request times measured with
// several requests in flight. Pure, so the arithmetic is unit-tested without a network.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace feedcheck {

/// One size class as measured: the median time of one request and how many requests were in
/// flight on average while it ran (they share the path's bandwidth).
struct SizeClassTiming {
  double size_bytes = 0;
  double median_s = 0;
  double in_flight = 1;  ///< >= 1
  /// The mean time (0: use the median). With requests sharing a path unfairly the faster
  /// connections finish more requests, so the median understates what the path gives each
  /// request; the mean, with in_flight from Little's law, is the class's aggregate rate.
  double mean_s = 0;
};

struct SmallFileCost {
  double overhead_s = 0;             ///< per request, whatever the concurrency (clamped at 0)
  double aggregate_bytes_per_s = 0;  ///< what the path delivers to all requests together
  double r_squared = 0;              ///< of the final model over every class, weights 1/time^2
  size_t points = 0;
  bool bandwidth_from_large = false;  ///< bandwidth from the transfer-dominated classes alone

  /// Seconds one request of `size_bytes` takes with `concurrency` requests sharing the path.
  double RequestSeconds(double size_bytes, double concurrency) const;
  /// The object size at which a request's overhead equals its transfer time when
  /// `concurrency` requests share the path: overhead x bandwidth / concurrency. Reads of that
  /// size move data at half the aggregate bandwidth.
  double BreakEvenBytes(double concurrency) const;
};

/// time = overhead + in_flight x size / aggregate bandwidth. The bandwidth comes from the
/// classes whose transfer dominates their time (median at least three times a first estimate
/// of the overhead): a plain least-squares slope of their mean times, the marginal cost of a
/// byte. With fewer than two such classes it comes from one fit over all (medians, weights
/// 1/time^2). The overhead comes from the classes whose shared transfer is small (at most half
/// the first estimate; at least the smallest class): the 1/time^2-weighted mean of their median
/// minus one transfer at the full bandwidth (small reads rarely overlap their transfers).
/// Nullopt with fewer than two distinct sizes or when time does not grow with size.
std::optional<SmallFileCost> FitSmallFileCost(const std::vector<SizeClassTiming>& classes);

}  // namespace feedcheck
