// Rank 0's arithmetic for `feedcheck-mpi probe smallfiles`: a per-node table, the slowest and
// fastest node, and one cluster fit of time = overhead + size / bandwidth over every node's
// measured points together (never an average of per-node fits, which would weigh a node with
// two sizes like one with eight and hide a node whose overhead differs), plus the aggregate
// request rate. No MPI here, so it is unit-testable.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/evidence.h"
#include "mpi/cluster_merge.h"

namespace feedcheck {

/// time = overhead + size / bandwidth, fitted like the single-node probe does: weighted least
/// squares with weights 1 / time^2 (a 10% error at 4 KiB counts as much as one at 64 MiB).
struct SmallFileFit {
  double overhead_ms = 0;  ///< clamped at 0
  double bandwidth_gbps = 0;
  double breakeven_bytes = 0;  ///< size at which overhead equals transfer time
  double r_squared = 0;
  size_t points = 0;
};

/// Points: x = object bytes, y = ms per request. Nullopt with fewer than two distinct sizes or
/// when time does not grow with size.
std::optional<SmallFileFit> FitSmallFiles(const std::vector<SeriesPoint>& ms_by_bytes);

struct SmallFileNodeRow {
  int rank = 0;
  std::string host;
  std::string status;
  std::optional<SmallFileFit> fit;  ///< this node's own points
  size_t sizes = 0;                 ///< size classes it measured
  double requests = 0;
  double requests_per_s = 0;  ///< requests / its elapsed time
  double errors = 0;
  double throttled = 0;
};

struct ClusterSmallFiles {
  std::vector<SmallFileNodeRow> nodes;  ///< active ranks, by rank
  std::vector<SeriesPoint> pooled;      ///< every node's points, by size then rank
  std::optional<SmallFileFit> fit;      ///< over `pooled`
  double requests = 0;
  double span_s = 0;          ///< common start to the last rank's end
  double requests_per_s = 0;  ///< requests / span_s: what the account served together
  int slowest = -1;           ///< index into nodes: highest fitted overhead
  int fastest = -1;           ///< lowest fitted overhead
  std::string error;          ///< why there is no cluster fit ("" when there is)
};

ClusterSmallFiles MergeSmallFiles(const std::vector<RankReport>& reports);

/// probe.cluster.smallfile_* (the pooled fit), probe.cluster.requests[_per_s], and per node
/// probe.cluster.node_smallfile_*.<rank> with the rank and host that measured it.
void AddSmallFileFacts(const ClusterSmallFiles& c, const std::string& source, FactSet* facts);

/// probe.smallfile.time_by_size (every node's points, x = bytes, y = ms) and, with a fit,
/// probe.smallfile.fit (the cluster curve, 4 points per doubling of size).
void AddSmallFileSeries(const ClusterSmallFiles& c, Evidence* evidence);

}  // namespace feedcheck
