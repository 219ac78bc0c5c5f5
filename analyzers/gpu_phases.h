// Splits the GPU time lost by what the data runtime was doing: waiting for a download, during
// a mount's reads, after the data phase (the job's own code), or unknown (before the first
// data activity, or no data-capability.log at all). Reads the GPU ledger's per-bucket series and
// the data-runtime lane of the timeline.
#pragma once

#include <string>
#include <vector>

#include "core/evidence.h"

namespace feedcheck::analyzers {

struct GpuPhaseSplit {
  double download_gpu_s = 0;    ///< lost while a download ran (the GPUs waited for it)
  double mount_gpu_s = 0;       ///< lost while a mount served the job's reads
  double after_data_gpu_s = 0;  ///< lost after the data phase: the job's own code
  double unknown_gpu_s = 0;     ///< lost outside any known phase
  double download_wall_s = 0;   ///< wall-clock length of the downloads (merged)
  bool have_phases = false;     ///< the timeline had a download or mount activity
};

/// Nothing when the evidence has no gpu.lost_gpu_s_by_time series.
std::optional<GpuPhaseSplit> SplitGpuTimeByPhase(const Evidence& evidence);

/// Sets gpu.lost_download_gpu_s, gpu.lost_mount_gpu_s, gpu.lost_after_data_gpu_s,
/// gpu.lost_unknown_gpu_s and gpu.idle_download_s (wall clock: lost / GPUs). Returns the keys.
std::vector<std::string> AddGpuPhaseFacts(Evidence* evidence);

}  // namespace feedcheck::analyzers
