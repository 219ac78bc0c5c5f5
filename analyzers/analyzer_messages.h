// Diagnostic codes of the analyzers (A2xx), in one place so each code keeps one meaning and
// tests compare through the names. A20x reading and the data runtime's logs, A21x Azure Monitor
// metrics, A22x GPU samples. Codes are user-visible and stable.
#pragma once

namespace feedcheck::analyzers {

inline constexpr const char* kCodeFormatNotRecognised = "A200";  ///< warning: a file given by name
inline constexpr const char* kCodeMalformedLine = "A201";        ///< warning: a line not in format
inline constexpr const char* kCodeUnreadableFile = "A202";       ///< a file could not be read
inline constexpr const char* kCodeOutOfOrder = "A203";           ///< note: log lines went back
inline constexpr const char* kCodeTimelineFull = "A204";  ///< note: activities beyond the bound
inline constexpr const char* kCodeUnfinished = "A205";    ///< warning: started, never completed
inline constexpr const char* kCodeTooManySpans = "A206";  ///< note: rslex spans beyond the bound
inline constexpr const char* kCodeCutLastLine = "A207";   ///< note: a log's last line unterminated
inline constexpr const char* kCodeEventCut = "A208";      ///< warning: an event's continuation cut
inline constexpr const char* kCodeMetricsField = "A210";  ///< warning: a metrics field unusable
inline constexpr const char* kCodeBadJson = "A211";       ///< metrics JSON not valid or unreadable
inline constexpr const char* kCodeNotMetrics = "A212";    ///< JSON without Azure Monitor's "value"
inline constexpr const char* kCodeOtherAccountMetrics = "A213";  ///< warning: not the job's account
inline constexpr const char* kCodeGpuNoValue = "A220";           ///< note: samples without a value
inline constexpr const char* kCodeGpuNoTimestamp = "A221";       ///< note: samples without a time
inline constexpr const char* kCodeTooManyGpus = "A222";          ///< note: GPUs beyond the bound
inline constexpr const char* kCodeGpuLocalTime = "A223";         ///< note: samples in local time

}  // namespace feedcheck::analyzers
