// DCGM exporter text (Prometheus exposition; NVIDIA dcgm-exporter, etc/default-counters.csv,
// https://github.com/NVIDIA/dcgm-exporter):
//   DCGM_FI_DEV_GPU_UTIL{gpu="0",UUID="GPU-...",Hostname="node-1",...} 87 [timestamp_ms]
// DCGM_FI_DEV_GPU_UTIL is read, and on MIG, where DCGM has no device utilisation for a GPU
// instance, DCGM_FI_PROF_GR_ENGINE_ACTIVE (a 0..1 ratio) of each instance (a GPU_I_ID label):
// every instance is a GPU of its own. Other metrics and "# HELP"/"# TYPE" lines are skipped.
// Values >= 9.2e18 are DCGM's blank sentinels and count as missing. Scrapes saved in a loop
// often carry no timestamp; a line "# <ISO timestamp>" (e.g. from `date -u -Iseconds`) sets the
// time for the samples after it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "analyzers/nvidia_smi_csv.h"

namespace feedcheck::analyzers {

class DcgmTextParser {
 public:
  enum class Result { kSample, kSkip, kMalformed };
  /// `gpu_key` receives "<Hostname>/gpu<N>" or "gpu<N>" (with "i<GPU_I_ID>" for a MIG
  /// instance); `sample->gpu` points into it.
  Result Parse(std::string_view line, GpuSample* sample, std::string* gpu_key, std::string* error);
  void Reset() { current_time_.reset(); }

 private:
  std::optional<double> current_time_;
};

/// Value of label `name` in a `{a="x",b="y"}` block (escapes \" and \\ handled); nullopt when
/// absent. `*ok` false when the block is malformed.
std::optional<std::string> PrometheusLabel(std::string_view labels, std::string_view name,
                                           bool* ok);

}  // namespace feedcheck::analyzers
