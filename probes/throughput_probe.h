// Throughput probe: parallel ranged GETs over N connections (one thread and one libcurl
// handle each), from one large blob or the blobs under a prefix. `concurrency = 0` sweeps
// 1, 2, 4, ... and stops when the gain falls under 5% or errors rise. Warm-up is excluded:
// bytes are counted as they arrive, inside a window that starts after it.
#pragma once

#include <cstdint>

#include "probes/http_probe_env.h"
#include "probes/probe.h"

namespace feedcheck {

struct ThroughputProbeOptions {
  uint64_t block_bytes = 4ull << 20;  ///< ranged GET size, 1-64 MiB
  int concurrency = 4;                ///< connections; 0 = auto sweep
  int max_concurrency = 64;           ///< auto sweep upper bound
  double step_duration_s = 0;         ///< auto: per step (0: derived from the budget)
  double warmup_s = -1;               ///< excluded start of each step (<0: min(1 s, 20%))
  double min_gain = 0.05;             ///< auto: stop when a doubling gains less than this
  double nic_gbps = 0;                ///< node NIC, for probe.throughput.nic_fraction (0: unknown)
  size_t max_objects = 1000;          ///< blobs taken from the prefix listing
  int max_retries = 3;
  double request_timeout_s = 60;
  /// Record each step's cumulative bytes against wall-clock time (every ~20 ms), so ranks of
  /// a multi-node run can count their bytes inside one common window.
  bool record_timeline = false;
};

struct ThroughputStep {
  int concurrency = 0;
  double gbps = 0;
  double window_s = 0;
  uint64_t window_bytes = 0;
  uint64_t requests = 0;
  uint64_t errors = 0;
  uint64_t received_bytes = 0;      ///< every success body byte of the step, warm-up included
  uint64_t completed_requests = 0;  ///< whole blocks read in the step, warm-up included
  bool warmup_included = false;     ///< the budget ran out before the window: whole step measured
  double window_start_epoch_s = 0;  ///< wall clock (system_clock) of the window's ends
  double window_end_epoch_s = 0;
  /// With record_timeline: x = epoch seconds, y = bytes received since the step started.
  std::vector<SeriesPoint> timeline;
};

struct ThroughputProbeResult {
  ProbeResult result;
  std::vector<ThroughputStep> steps;
  int knee_concurrency = 0;
  double best_gbps = 0;
  double cpu_s = 0;  ///< this process, over the measurement
};

ThroughputProbeResult RunThroughputProbe(const HttpProbeEnv& env,
                                         const ThroughputProbeOptions& options);

/// The step at which the sweep stopped growing: the last step whose successor gained less
/// than `min_gain` (or the last step). Exposed for tests.
size_t KneeIndex(const std::vector<ThroughputStep>& steps, double min_gain);

}  // namespace feedcheck
