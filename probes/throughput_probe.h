// Throughput probe: parallel ranged GETs over N connections (one thread and one libcurl
// handle each), from one large blob or the blobs under a prefix. `concurrency = 0` sweeps
// 1, 2, 4, ... while each doubling gains more than the noise measured inside the steps
// (probes/concurrency_sweep), repeats a pair whose gain is inside the noise (or a loss), tries the
// concurrency between the last two when the knee lies there (once more when it falls short of
// the doubling above), and stops when errors rise. A repeat is a fresh run on new connections:
// runs that agree pool, runs that disagree keep the faster one and set the slower aside.
// Warm-up is excluded: bytes are counted as they arrive, inside a window that starts after it.
// Each step paces its requests over one request cycle (probes/sweep_stagger.h), so its
// connections do not run in lockstep.
#pragma once

#include <cstdint>

#include "probes/http_probe_env.h"
#include "probes/probe.h"

namespace feedcheck {

struct ThroughputProbeOptions {
  uint64_t block_bytes = 4ull << 20;  ///< ranged GET size, 1-64 MiB
  int concurrency = 4;                ///< connections; 0 = auto sweep
  int max_concurrency = 64;           ///< auto sweep upper bound
  double step_duration_s = 0;         ///< auto: per step (0: a seventh of the budget, >= 2 s)
  double warmup_s = -1;               ///< excluded start of each step (<0: min(1 s, 20%))
  /// auto: the smallest gain (fraction) worth doubling the connections for, even when the
  /// noise band could resolve less; a gain must also clear the band. At 0 ms RTT one
  /// connection of 4 MiB ranges is ~3% under the link (a request gap per block), and a 2%
  /// floor made that knee 1 or 2 by the run.
  double min_gain = 0.05;
  int max_repeats = 2;        ///< auto: extra runs of a step whose gain is inside the noise
  double nic_gbps = 0;        ///< node NIC, for probe.throughput.nic_fraction (0: unknown)
  size_t max_objects = 1000;  ///< blobs taken from the prefix listing
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
  /// Half-width of the step's noise band: two standard errors of its 250 ms interval rates.
  double noise_gbps = 0;
  std::vector<double> interval_gbps;  ///< those rates, every run of the step pooled
  int runs = 1;  ///< runs of this step: pooled when they agree (a repeat lengthens the step)
  /// Rates of the runs set aside: slower than a run of the same count beyond both bands, a
  /// state of the server or the path that fresh connections did not meet (concurrency_sweep.h).
  std::vector<double> set_aside_gbps;
  double cycle_s = 0;               ///< the request cycle its requests were spread over (0: none)
  double request_gap_s = 0;         ///< the least time between two of its request starts
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
  double knee_gbps = 0;        ///< the knee step's rate
  double knee_noise_gbps = 0;  ///< and its noise band (half-width)
  double best_gbps = 0;
  /// One connection's request cycle (round trip + one block's transfer) that the steps spread
  /// their requests over: the sweep's one-connection step, or the shortest request seen.
  double cycle_s = 0;
  double cpu_s = 0;  ///< this process, over the measurement
};

ThroughputProbeResult RunThroughputProbe(const HttpProbeEnv& env,
                                         const ThroughputProbeOptions& options);

/// The knee of a sweep (steps ordered by concurrency): the fewest connections whose rate is
/// not below the best by more than the noise of both and `min_gain` of the best.
size_t KneeIndex(const std::vector<ThroughputStep>& steps, double min_gain);

}  // namespace feedcheck
