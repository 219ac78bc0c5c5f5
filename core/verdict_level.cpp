#include "core/verdict_level.h"

#include <array>
#include <utility>

namespace feedcheck {

namespace {
constexpr std::array<std::pair<VerdictLevel, std::string_view>, 4> kLevels{{
    {VerdictLevel::kUnknown, "unknown"},
    {VerdictLevel::kGood, "good"},
    {VerdictLevel::kWarning, "warning"},
    {VerdictLevel::kBad, "bad"},
}};
}  // namespace

std::string_view VerdictLevelName(VerdictLevel level) {
  for (const auto& [l, name] : kLevels)
    if (l == level) return name;
  return "unknown";
}

std::optional<VerdictLevel> VerdictLevelFromName(std::string_view name) {
  for (const auto& [l, n] : kLevels)
    if (n == name) return l;
  return std::nullopt;
}

}  // namespace feedcheck
