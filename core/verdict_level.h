// How good a verdict is, decided by whoever wrote the verdict (preflight, postmortem), so a
// reporter can colour the banner without reading the verdict's words.
#pragma once

#include <optional>
#include <string_view>

namespace feedcheck {

enum class VerdictLevel { kUnknown, kGood, kWarning, kBad };

/// "unknown", "good", "warning", "bad": the level's name in JSON.
std::string_view VerdictLevelName(VerdictLevel level);
std::optional<VerdictLevel> VerdictLevelFromName(std::string_view name);

}  // namespace feedcheck
