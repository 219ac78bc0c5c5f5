#include "core/smallfile_fit.h"

#include <algorithm>
#include <cmath>

#include "core/linear_fit.h"

namespace feedcheck {

double SmallFileCost::RequestSeconds(double size_bytes, double concurrency) const {
  if (!(aggregate_bytes_per_s > 0)) return overhead_s;
  return overhead_s + std::max(1.0, concurrency) * size_bytes / aggregate_bytes_per_s;
}

double SmallFileCost::BreakEvenBytes(double concurrency) const {
  return overhead_s * aggregate_bytes_per_s / std::max(1.0, concurrency);
}

std::optional<SmallFileCost> FitSmallFileCost(const std::vector<SizeClassTiming>& classes) {
  // x: the bytes moving over the path while one request transfers (its own and those of the
  // requests beside it), so the slope is 1 / aggregate bandwidth at any concurrency.
  std::vector<double> sizes, xs, ys, means, ws;
  for (const SizeClassTiming& c : classes) {
    if (!(c.size_bytes > 0) || !(c.median_s > 0) || !std::isfinite(c.median_s)) continue;
    double in_flight = std::isfinite(c.in_flight) ? std::max(1.0, c.in_flight) : 1.0;
    sizes.push_back(c.size_bytes);
    xs.push_back(c.size_bytes * in_flight);
    ys.push_back(c.median_s);
    means.push_back(c.mean_s > 0 && std::isfinite(c.mean_s) ? c.mean_s : c.median_s);
    // Relative weights: a 10% error at 4 KiB counts as much as one at 64 MiB.
    ws.push_back(1.0 / (c.median_s * c.median_s));
  }
  auto first = FitLine(xs, ys, ws);
  if (!first || !(first->slope > 0)) return std::nullopt;
  SmallFileCost cost;
  cost.points = xs.size();
  double seconds_per_byte = first->slope;
  // The large classes alone give the marginal cost of a byte. The relative-weight fit bends
  // its slope to whatever middle sizes pay beyond a straight line (TCP slow start after an idle
  // connection, a cache tier), which overstated the bandwidth above the link's own rate.
  double overhead_guess = std::max(first->intercept, 0.0);
  std::vector<double> large_x, large_y;
  for (size_t i = 0; i < xs.size(); ++i) {
    if (ys[i] >= 3 * overhead_guess) {
      large_x.push_back(xs[i]);
      large_y.push_back(means[i]);
    }
  }
  if (large_x.size() >= 2) {
    auto marginal = FitLine(large_x, large_y);
    if (marginal && marginal->slope > 0) {
      seconds_per_byte = marginal->slope;
      cost.bandwidth_from_large = true;
    }
  }
  cost.aggregate_bytes_per_s = 1.0 / seconds_per_byte;
  // The overhead from the classes whose transfer, even fully shared, is small beside it.
  size_t smallest =
      static_cast<size_t>(std::min_element(sizes.begin(), sizes.end()) - sizes.begin());
  double sw = 0, swr = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    if (i != smallest && xs[i] * seconds_per_byte > overhead_guess / 2) continue;
    sw += ws[i];
    swr += ws[i] * (ys[i] - sizes[i] * seconds_per_byte);
  }
  cost.overhead_s = std::max(0.0, swr / sw);
  double sw_all = 0, mean = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    sw_all += ws[i];
    mean += ws[i] * ys[i];
  }
  mean /= sw_all;
  double sse = 0, sst = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    double r = ys[i] - cost.overhead_s - xs[i] * seconds_per_byte;
    sse += ws[i] * r * r;
    sst += ws[i] * (ys[i] - mean) * (ys[i] - mean);
  }
  cost.r_squared = sst > 0 ? 1.0 - sse / sst : 1.0;
  return cost;
}

}  // namespace feedcheck
