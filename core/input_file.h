// Reads a whole input file the user named (rules, profiles, job files, --kb, saved reports and
// facts) with two guards: it must be a regular file (/dev/zero would never end, a FIFO would
// hang with no writer) and no larger than a stated limit. Errors name the file and the limit.
#pragma once

#include <cstdint>
#include <string>

namespace feedcheck {

/// YAML configuration: rules files, profiles, job files, knowledge-base overrides.
inline constexpr uint64_t kMaxConfigFileBytes = 16ull << 20;
/// Saved reports and facts.json files (they carry series, so they may be larger).
inline constexpr uint64_t kMaxResultFileBytes = 256ull << 20;

/// Reads `path` whole into `out`. False with `error` (without the path; callers put it in the
/// diagnostic's location) when it cannot be opened, is not a regular file, or is larger than
/// `max_bytes`.
bool ReadBoundedRegularFile(const std::string& path, uint64_t max_bytes, std::string* out,
                            std::string* error);

}  // namespace feedcheck
