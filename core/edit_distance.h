// Levenshtein distance and "did you mean" suggestions for keys, sizes and flags.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace feedcheck {

/// Edit distance, case-insensitive, capped: returns max_distance + 1 once it is exceeded.
int EditDistance(std::string_view a, std::string_view b, int max_distance = 1000);

/// The candidates closest to `word` (distance <= max(2, len/3)), best first, at most `limit`.
std::vector<std::string> Suggest(std::string_view word, const std::vector<std::string>& candidates,
                                 size_t limit = 3);

}  // namespace feedcheck
