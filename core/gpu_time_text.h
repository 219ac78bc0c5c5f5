// GPU time as people read it, in the unit its size calls for: the post-mortem's sentences and
// every report's GPU-time column say it the same way. Formatting only: nothing here computes.
#pragma once

#include <string>
#include <string_view>

namespace feedcheck {

/// GPU time summed over GPUs: "40 GPU-seconds", "108 GPU-minutes", "3.2 GPU-hours".
std::string GpuTimeText(double gpu_s);
/// The same in the unit GpuTimeText picks for `unit_for_gpu_s`: a column of values all in the
/// unit of its largest ("0 GPU-minutes" beside "63 GPU-minutes", never "0 GPU-seconds").
std::string GpuTimeText(double gpu_s, double unit_for_gpu_s);

/// What a post-mortem without GPU samples says after its confidence: the cause may be
/// confirmed by its evidence, but what it cost in GPU time was not measured.
inline constexpr const char* kGpuTimeNotMeasured = "GPU time not measured (no GPU samples)";

/// A post-mortem's confidence as people read it: the confidence of the cause's evidence
/// ("confirmed"), then, without GPU samples, "; GPU time not measured (no GPU samples)".
std::string ConfidenceText(std::string_view confidence, bool gpu_time_measured);

}  // namespace feedcheck
