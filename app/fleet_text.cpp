#include "app/fleet_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/units.h"
#include "reports/text_table.h"

namespace feedcheck {

std::string FleetNodesGpusText(const FleetJob& j) {
  if (j.nodes <= 0) return "-";
  if (j.gpus <= 0) return fmt::format("{}×?", j.nodes);
  if (j.gpus % j.nodes == 0) return fmt::format("{}×{}", j.nodes, j.gpus / j.nodes);
  return fmt::format("{} on {}", j.gpus, j.nodes);
}

std::string FleetDurationText(double seconds) {
  if (seconds < 0) return "-";
  if (seconds < 5940) return fmt::format("{:.0f} min", seconds / 60);
  return fmt::format("{:.1f} h", seconds / 3600);
}

std::string FleetGpuHoursText(double gpu_s) {
  if (gpu_s < 0) return "-";
  const double h = gpu_s / 3600;
  if (h >= 1000) return Grouped(std::round(h));  // no cast: a crafted result may hold 1e300
  return fmt::format("{:.1f}", h);
}

std::string FleetUsdText(double usd) {
  if (usd < 0) return "-";
  if (usd >= 1000) return "$" + Grouped(std::round(usd));
  return fmt::format("${:.2f}", usd);
}

std::string FleetCauseText(const FleetJob& j) {
  return j.diagnosed ? (j.cause.empty() ? "-" : j.cause) : "not diagnosed";
}

std::string FleetConfidenceText(const FleetJob& j) {
  if (!j.diagnosed) return "-";
  const std::string confidence = j.confidence.empty() ? "-" : j.confidence;
  return j.gpu_time_measured ? confidence : confidence + "; no GPU samples";
}

std::string FleetWonBackText(const FleetJob& j) {
  if (j.won_back_gpu_s < 0) return "-";
  const std::string h = FleetGpuHoursText(j.won_back_gpu_s);
  return j.won_back_estimated ? h : "≤ " + h;
}

std::string FleetFixWonBackText(const FleetFixTotal& fix) {
  const std::string h = FleetGpuHoursText(fix.won_back_gpu_s);
  const size_t jobs = fix.jobs.size();
  if (fix.estimated_jobs == static_cast<int>(jobs)) return h;
  if (fix.estimated_jobs == 0) return "≤ " + h;
  return fmt::format("{} ({} of {} est.)", h, fix.estimated_jobs, jobs);
}

std::string FleetDataWaitText(const FleetJob& j) {
  if (!(j.loader_wait_fraction >= 0)) return "-";
  std::string why = j.data_wait_cause;
  std::replace(why.begin(), why.end(), '_', ' ');  // "input_pipeline" -> "input pipeline"
  const std::string share = fmt::format("{:.0f}%", 100 * j.loader_wait_fraction);
  return why.empty() ? share : fmt::format("{} ({})", share, why);
}

std::string FleetJobsText(size_t jobs) {
  return fmt::format("{} job{}", jobs, jobs == 1 ? "" : "s");
}

std::string FleetActionText(const std::string& advice) {
  // The first sentence ends at a full stop followed by a capital or a digit.
  size_t end = advice.size();
  for (size_t i = 0; i + 2 < advice.size(); ++i) {
    const char next = advice[i + 2];
    if (advice[i] == '.' && advice[i + 1] == ' ' &&
        ((next >= 'A' && next <= 'Z') || (next >= '0' && next <= '9'))) {
      end = i;
      break;
    }
  }
  std::string action = advice.substr(0, end);
  if (const size_t colon = action.find(": "); colon != std::string::npos) action.resize(colon);
  while (!action.empty() && (action.back() == '.' || action.back() == ' ')) action.pop_back();
  return action;
}

}  // namespace feedcheck
