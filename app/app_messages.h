// Diagnostic codes of the workflows (W0xx), in one place so each code keeps one meaning and
// tests compare through the names. Codes are user-visible and stable.
#pragma once

namespace feedcheck::app {

inline constexpr const char* kCodeBadFlag = "W001";           ///< a flag's value is unusable
inline constexpr const char* kCodeMissingInput = "W002";      ///< a required input was not given
inline constexpr const char* kCodeNothingReadable = "W003";   ///< no input could be read
inline constexpr const char* kCodeUnreadableResult = "W004";  ///< a saved result cannot be read
inline constexpr const char* kCodeInputErrors = "W005";       ///< inputs or rules have errors
inline constexpr const char* kCodeNotRead = "W006";           ///< warning: one input skipped
inline constexpr const char* kCodeJobNotDiagnosed = "W020";   ///< a fleet's job: no post-mortem
inline constexpr const char* kCodeNotAJob = "W021";           ///< a fleet's subfolder is no job
inline constexpr const char* kCodeJobWarnings = "W022";       ///< note: a fleet's jobs had warnings

}  // namespace feedcheck::app
