#include "core/evidence.h"

namespace feedcheck {

std::vector<std::string> Evidence::Merge(const Evidence& other) {
  auto replaced = facts.Merge(other.facts);
  for (const auto& s : other.series) {
    bool found = false;
    for (auto& mine : series) {
      if (mine.key == s.key && mine.node == s.node) {
        mine = s;
        found = true;
        break;
      }
    }
    if (!found) series.push_back(s);
  }
  timeline.insert(timeline.end(), other.timeline.begin(), other.timeline.end());
  diagnostics.Append(other.diagnostics);
  return replaced;
}

const Series* Evidence::FindSeries(const std::string& key, const std::string& node) const {
  for (const auto& s : series)
    if (s.key == key && s.node == node) return &s;
  return nullptr;
}

}  // namespace feedcheck
