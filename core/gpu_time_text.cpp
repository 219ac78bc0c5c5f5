#include "core/gpu_time_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/units.h"

namespace feedcheck {

std::string GpuTimeText(double gpu_s) { return GpuTimeText(gpu_s, gpu_s); }

std::string GpuTimeText(double gpu_s, double unit_for_gpu_s) {
  const double scale = std::max(std::fabs(gpu_s), std::fabs(unit_for_gpu_s));
  if (scale < 120) return fmt::format("{:.0f} GPU-seconds", gpu_s);
  if (scale < 100 * 3600) return fmt::format("{:.0f} GPU-minutes", gpu_s / 60);
  return fmt::format("{} GPU-hours", FormatNumber(gpu_s / 3600));
}

std::string ConfidenceText(std::string_view confidence, bool gpu_time_measured) {
  if (gpu_time_measured) return std::string(confidence);
  if (confidence.empty()) return kGpuTimeNotMeasured;
  return fmt::format("{}; {}", confidence, kGpuTimeNotMeasured);
}

}  // namespace feedcheck
