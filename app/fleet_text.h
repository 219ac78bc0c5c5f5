// The fleet's cells as app/fleet_report writes them into its tables, so a job's row reads the
// same in every format. Formatting only: the figures come from the FleetSummary.
#pragma once

#include <string>

#include "core/fleet_summary.h"

namespace feedcheck {

/// "3×8" (nodes × GPUs each), "12 on 5" (GPUs on nodes) when uneven, "1×?" without GPU samples.
std::string FleetNodesGpusText(const FleetJob& job);
/// "62 min", "3.2 h", "-" when not known.
std::string FleetDurationText(double seconds);
/// GPU-hours with one decimal ("7.7", "1,234.5"), "-" when not known.
std::string FleetGpuHoursText(double gpu_s);
/// "$19.25", "-" when not priced or not known.
std::string FleetUsdText(double usd);
/// The cause, or "not diagnosed".
std::string FleetCauseText(const FleetJob& job);
/// "confirmed", or "confirmed; no GPU samples" for a job whose GPU time was not measured.
std::string FleetConfidenceText(const FleetJob& job);
/// "7.7 (estimate)" / "at most 7.7" / "-": GPU-hours the job's fix wins back.
std::string FleetWonBackText(const FleetJob& job);
/// A fix's GPU-hours won back: "12.6" (every job's figure estimated), "≤ 3.6" (none: the time
/// lost to the cause), "8.8 (2 of 3 est.)".
std::string FleetFixWonBackText(const FleetFixTotal& fix);
/// "84% (storage)", "84% (input pipeline)", "3% (not input)": the share of its steps' time a
/// job's training loop waited for data, and why; "-" without profiler traces.
std::string FleetDataWaitText(const FleetJob& job);
/// "12 jobs" / "1 job".
std::string FleetJobsText(size_t jobs);
/// The change a fix's advice opens with: its first sentence without the reason a colon puts
/// after it ("Mount the input (ro_mount) instead of downloading it").
std::string FleetActionText(const std::string& advice);

}  // namespace feedcheck
