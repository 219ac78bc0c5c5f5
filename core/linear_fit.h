// Weighted least-squares fit of a straight line y = intercept + slope * x. Pure; used by the
// small-file probe to split request time into a fixed overhead and a per-byte cost.
#pragma once

#include <optional>
#include <vector>

namespace feedcheck {

struct LineFit {
  double intercept = 0;
  double slope = 0;
  double r_squared = 0;  ///< weighted coefficient of determination (1 = perfect)
  size_t points = 0;
};

/// Fits y = a + b x minimising sum w_i (y_i - a - b x_i)^2. Weights default to 1. Returns
/// nullopt when there are fewer than two distinct x values, sizes differ, or a weight is
/// negative or not finite.
std::optional<LineFit> FitLine(const std::vector<double>& x, const std::vector<double>& y,
                               const std::vector<double>& weights = {});

}  // namespace feedcheck
