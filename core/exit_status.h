// Process exit codes, the same for every subcommand (README, "Exit codes").
#pragma once

namespace feedcheck {

enum class ExitStatus : int {
  kOk = 0,           ///< ran; no finding at or above --fail-on
  kFindings = 1,     ///< findings at or above --fail-on
  kUsage = 2,        ///< bad flags or arguments
  kInputError = 3,   ///< unreachable target, unreadable input, invalid rules
  kProbeFailed = 4,  ///< a probe ran but failed to measure
};

inline int ToInt(ExitStatus s) { return static_cast<int>(s); }

}  // namespace feedcheck
