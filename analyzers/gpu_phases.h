// Splits the GPU time lost by what the data runtime was doing: waiting for a download, during
// a mount's reads, during a mount while the account served nothing (the mount's cache), after
// the data phase (the job's own code), or unknown (before the first data activity, or no
// data-capability.log at all); and, of the mount's share, what fell while storage refused
// requests. Reads the GPU ledger's per-bucket series, the data-runtime and storage lanes of the
// timeline and the account's egress series.
#pragma once

#include <string>
#include <vector>

#include "core/evidence.h"

namespace feedcheck::analyzers {

struct GpuPhaseSplit {
  double download_gpu_s = 0;  ///< lost while a download ran (the GPUs waited for it)
  double mount_gpu_s = 0;     ///< lost while a mount served the job's reads from storage
  /// Lost during a mount in minutes when the account served (next to) nothing and refused
  /// nothing: the reads came from the mount's cache, so storage did not cost this time.
  double cached_gpu_s = 0;
  /// Of mount_gpu_s, lost while storage refused requests (a throttling interval of the logs or
  /// the metrics, padded by a minute each side): what a throttling finding cost a mount.
  double throttled_gpu_s = 0;
  bool have_throttle_times = false;  ///< the storage lane had throttling intervals
  double after_data_gpu_s = 0;       ///< lost after the data phase: the job's own code
  double unknown_gpu_s = 0;          ///< lost outside any known phase
  double download_wall_s = 0;        ///< wall-clock length of the downloads (merged)
  bool have_phases = false;          ///< the timeline had a download or mount activity
};

/// A mount minute whose account Egress stood under this (and refused nothing) served the job
/// from the mount's cache: 2% of the most the account served below 90% of its egress limit
/// (`egress_limit_gbps`; 0: unknown, every minute counts), or 10 Mbit/s. Minutes at the limit
/// measure the account (another workload's burst may fill it), not what the job asked for.
double CachedEgressBelowGbps(const Series* egress, double egress_limit_gbps);

/// Nothing when the evidence has no gpu.lost_gpu_s_by_time series.
std::optional<GpuPhaseSplit> SplitGpuTimeByPhase(const Evidence& evidence);

/// Sets gpu.lost_download_gpu_s, gpu.lost_mount_gpu_s, gpu.lost_cached_gpu_s,
/// gpu.lost_after_data_gpu_s, gpu.lost_unknown_gpu_s, gpu.lost_throttled_gpu_s (when storage
/// refused requests at known times) and gpu.idle_download_s (wall clock: lost / GPUs). Returns
/// the keys.
std::vector<std::string> AddGpuPhaseFacts(Evidence* evidence);

}  // namespace feedcheck::analyzers
