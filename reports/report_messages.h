// Diagnostic codes of the saved-report reader (E01x), in one place so each code keeps one
// meaning and tests compare through the names. Codes are user-visible and stable.
#pragma once

namespace feedcheck {

inline constexpr const char* kCodeReportInvalid = "E010";     ///< a field of a saved report
inline constexpr const char* kCodeReportUnreadable = "E011";  ///< a saved report file unreadable

}  // namespace feedcheck
