// `probe disk`: can the intended cache directory keep up? Sequential write (fsync included) and
// read, 4 KiB random-read IOPS, the device behind the path and its free space. Everything it
// writes is removed at the end, also when stopped by a signal.
#pragma once

#include <cstdint>
#include <string>

#include "probes/cleanup_registry.h"
#include "probes/probe.h"

namespace feedcheck {

struct DiskProbeOptions {
  std::string path;                   ///< an existing directory: the cache path to test
  uint64_t file_bytes = 1ull << 30;   ///< size of the sequential test file (capped, see below)
  uint64_t block_bytes = 1ull << 20;  ///< sequential I/O size
  uint64_t random_io_bytes = 4096;
  int random_threads = 4;  ///< queue depth of the random reads
  double random_duration_s = 3;
  bool direct = true;    ///< try O_DIRECT
  std::string sys_root;  ///< "" = this machine; tests pass a fixture tree
};

/// The test file size actually used: the requested size, capped by the byte budget (it is written
/// once and read once) and by free space (never more than half of what is free).
uint64_t PlanDiskFileBytes(const DiskProbeOptions& options, const ProbeBudget& budget,
                           uint64_t free_bytes);

/// Runs the probe. `cleanup` may be null (the file is still removed when the probe returns).
ProbeResult RunDiskProbe(const DiskProbeOptions& options, const ProbeBudget& budget,
                         CleanupRegistry* cleanup, const ProgressFn& progress);

}  // namespace feedcheck
