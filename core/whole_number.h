// Whole numbers from doubles read out of files (a saved report, facts.json, a rank's result):
// such a number may be anything a double holds, and converting one that the integer type cannot
// hold is undefined behaviour, so every such conversion goes through here.
#pragma once

#include <cmath>
#include <limits>
#include <optional>

namespace feedcheck {

/// `value` truncated toward zero, as an `Int`, when it is finite and `Int` holds it; nullopt
/// otherwise (NaN, infinities, 1e300, -1 for an unsigned type).
template <class Int>
std::optional<Int> WholeNumber(double value) {
  static_assert(std::numeric_limits<Int>::is_integer);
  if (!std::isfinite(value)) return std::nullopt;
  const double whole = std::trunc(value);
  // 2^digits is exact as a double and one past the type's largest value.
  const double past_max = std::ldexp(1.0, std::numeric_limits<Int>::digits);
  const double min = std::numeric_limits<Int>::is_signed ? -past_max : 0.0;
  if (whole < min || whole >= past_max) return std::nullopt;
  return static_cast<Int>(whole);
}

/// WholeNumber clamped to [lowest, highest] of `Int` instead of refused (NaN gives `fallback`).
template <class Int>
Int WholeNumberClamped(double value, Int fallback) {
  if (std::isnan(value)) return fallback;
  if (auto whole = WholeNumber<Int>(value)) return *whole;
  return value < 0 ? std::numeric_limits<Int>::lowest() : std::numeric_limits<Int>::max();
}

}  // namespace feedcheck
