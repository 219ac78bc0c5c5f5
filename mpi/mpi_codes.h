// Diagnostic codes of multi-node probes (M0xx): what went wrong with a rank rather than with
// the storage, in one place so each code keeps one meaning and tests compare through the names.
// Codes are user-visible and stable.
#pragma once

namespace feedcheck {

/// error: a rank could not start (bad flag, no namespace, no credential); every rank stops.
inline constexpr const char* kCodeRankNotStarted = "M001";
/// error: a rank's report did not arrive readable on rank 0; it is left out of the merge.
inline constexpr const char* kCodeRankReportUnreadable = "M002";
/// warning (partial) or error (failed, unreachable): a rank's probe did not end ok.
inline constexpr const char* kCodeRankProbeStatus = "M003";

}  // namespace feedcheck
