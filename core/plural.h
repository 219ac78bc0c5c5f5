// A count with its noun in agreement: "1 file", "2 files", "1 diagnostic": one helper, so no
// message says "1 files" or "1 nodes".
#pragma once

#include <string>
#include <string_view>

namespace feedcheck {

/// `count` and the noun: `singular` for exactly 1, else `plural` (default: singular + "s").
/// Counts print with thousands separators ("12,345 lines").
std::string Counted(double count, std::string_view singular, std::string_view plural = {});

/// The noun alone, in agreement with `count`.
std::string_view NounFor(double count, std::string_view singular, std::string_view plural);

}  // namespace feedcheck
