// What rank 0 of `feedcheck-mpi probe` makes of the ranks' reports: the merged cluster figures
// as facts and series (loadable like any facts file), the ramp against its prediction, and the
// exit status the ranks' outcomes give. The command line only prints these.
#pragma once

#include <vector>

#include "app/mpi_rank_probe.h"
#include "core/evidence.h"
#include "mpi/cluster_merge.h"
#include "mpi/ramp.h"
#include "mpi/smallfile_merge.h"

namespace feedcheck::app {

struct ClusterThroughputResult {
  Evidence evidence;
  Ramp ramp;  ///< with --ramp: measured and predicted aggregate per node count
  int exit_status = 0;
};

/// `steps`: one merged step per active-rank count (one without --ramp); `last`: the reports of
/// the last step (all ranks active). Exit 4 when no common window held every rank.
ClusterThroughputResult AssembleThroughput(const MpiProbeRequest& request, const RankProbe& rank,
                                           int ranks, const std::vector<ClusterThroughput>& steps,
                                           const std::vector<RankReport>& last);

struct ClusterLatencyResult {
  ClusterLatency merged;
  Evidence evidence;
  int exit_status = 0;
};
/// Exit 4 when no rank measured a first byte.
ClusterLatencyResult AssembleLatency(const RankProbe& rank, int ranks,
                                     const std::vector<RankReport>& reports);

struct ClusterSmallFilesResult {
  ClusterSmallFiles merged;
  Evidence evidence;
  int exit_status = 0;
};
/// Exit 4 when the points of all nodes gave no fit.
ClusterSmallFilesResult AssembleSmallFiles(const RankProbe& rank, int ranks,
                                           const std::vector<RankReport>& reports);

}  // namespace feedcheck::app
