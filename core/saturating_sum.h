// Sums over input that cannot overflow: a sum that would pass the largest finite double is held
// there and the caller is told, so a file of huge values gives a large number and a diagnostic,
// never inf (printed "inf Pbit/s") or, once two infinities meet, nan.
#pragma once

#include <cmath>
#include <limits>

namespace feedcheck {

/// `*sum += value`, held at +-the largest finite double. False when it saturated, or when
/// `value` is not a number (then `*sum` is left as it was).
inline bool AddSaturating(double* sum, double value) {
  const double next = *sum + value;
  if (std::isfinite(next)) {
    *sum = next;
    return true;
  }
  if (std::isnan(next)) return false;
  *sum = next > 0 ? std::numeric_limits<double>::max() : -std::numeric_limits<double>::max();
  return false;
}

}  // namespace feedcheck
