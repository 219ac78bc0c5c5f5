#include "core/edit_distance.h"

#include <algorithm>
#include <cctype>

namespace feedcheck {

int EditDistance(std::string_view a, std::string_view b, int max_distance) {
  const size_t n = b.size();
  std::vector<int> prev(n + 1), cur(n + 1);
  for (size_t j = 0; j <= n; ++j) prev[j] = static_cast<int>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = static_cast<int>(i);
    int row_min = cur[0];
    for (size_t j = 1; j <= n; ++j) {
      bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                  std::tolower(static_cast<unsigned char>(b[j - 1]));
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (same ? 0 : 1)});
      row_min = std::min(row_min, cur[j]);
    }
    if (row_min > max_distance) return max_distance + 1;
    std::swap(prev, cur);
  }
  return prev[n];
}

std::vector<std::string> Suggest(std::string_view word, const std::vector<std::string>& candidates,
                                 size_t limit) {
  const int allowed = std::max(2, static_cast<int>(word.size()) / 3);
  std::vector<std::pair<int, std::string>> scored;
  for (const auto& c : candidates) {
    int d = EditDistance(word, c, allowed);
    // A candidate that contains the word (or the reverse) is a near miss too: "ND96" ~
    // "Standard_ND96asr_v4".
    std::string lw(word), lc(c);
    std::transform(lw.begin(), lw.end(), lw.begin(),
                   [](unsigned char ch) { return std::tolower(ch); });
    std::transform(lc.begin(), lc.end(), lc.begin(),
                   [](unsigned char ch) { return std::tolower(ch); });
    if (d > allowed && lw.size() >= 3 && lc.find(lw) != std::string::npos) d = allowed;
    if (d <= allowed) scored.emplace_back(d, c);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (const auto& [d, c] : scored) {
    if (out.size() >= limit) break;
    out.push_back(c);
  }
  return out;
}

}  // namespace feedcheck
