// The colours of the HTML report's charts. Each chart's main line has its own colour, distinct
// from every other colour on the page, so the Chromium test can find each chart in a screenshot.
#pragma once

#include <string_view>

namespace feedcheck::palette {

inline constexpr std::string_view kThroughput = "#2563eb";     // blue
inline constexpr std::string_view kLatencyTtfb = "#db2777";    // pink
inline constexpr std::string_view kLatencyTotal = "#a16207";   // dark yellow
inline constexpr std::string_view kLatencyHead = "#64748b";    // slate
inline constexpr std::string_view kSizeMeasured = "#059669";   // green
inline constexpr std::string_view kSizeFit = "#d97706";        // amber, dashed
inline constexpr std::string_view kListPages = "#4f46e5";      // indigo
inline constexpr std::string_view kGpuUtil = "#7c3aed";        // violet
inline constexpr std::string_view kGpuPerDevice = "#d4d4f4";   // pale, behind the mean
inline constexpr std::string_view kEgress = "#0891b2";         // cyan
inline constexpr std::string_view kRamp = "#ea580c";           // orange
inline constexpr std::string_view kRampPredicted = "#475569";  // slate, dashed
inline constexpr std::string_view kLimit = "#dc2626";          // red, dashed
inline constexpr std::string_view kNic = "#65a30d";            // lime, dashed
inline constexpr std::string_view kDemand = "#1e40af";         // dark blue bar: what is needed
inline constexpr std::string_view kKnee = "#111827";           // near-black ring: a sweep's knee
inline constexpr std::string_view kBreakEven = "#7c2d12";      // brown, dashed
inline constexpr std::string_view kMedianFile = "#0e7490";     // dark cyan, dashed
inline constexpr std::string_view kBusyThreshold = "#92400e";  // dark amber, dashed
inline constexpr std::string_view kLaneRuntime = "#14b8a6";    // teal
inline constexpr std::string_view kLaneRuntimeFailed = "#be123c";
inline constexpr std::string_view kLaneGpuStarved = "#f59e0b";
inline constexpr std::string_view kLaneStorage = "#f43f5e";
inline constexpr std::string_view kLaneDataWait = "#8b5cf6";  // a profiled step that waited
inline constexpr std::string_view kDataWait = "#15803d";  // dark green: each step's share waited
inline constexpr std::string_view kBar = "#b45309";       // amber: a section's bar chart

}  // namespace feedcheck::palette
