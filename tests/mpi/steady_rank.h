// A rank report for tests of merging and reporting ranks, without MPI.
#pragma once

#include <string>

#include "mpi/cluster_merge.h"

namespace feedcheck::testing {

/// A rank that received bytes at `gbps` from t0 to t1 (sampled every 20 ms).
inline RankReport Steady(int rank, double gbps, double t0, double t1) {
  RankReport r;
  r.rank = rank;
  r.host = "node" + std::to_string(rank);
  r.status = "ok";
  r.window_start_epoch_s = t0;
  r.window_end_epoch_s = t1;
  r.gbps = gbps;
  for (double t = t0; t <= t1 + 1e-9; t += 0.02)
    r.timeline.push_back({t, (t - t0) * gbps * 1e9 / 8});
  return r;
}

}  // namespace feedcheck::testing
