// The Report of `feedcheck-mpi probe`: the merged cluster figures as "result" values (the
// aggregate, the per-node spread as min/median/max, the ramp's knee, the rank count), the
// per-rank rows as tables, and the cluster evidence; the same shape every `feedcheck` command
// renders, so -f term|json|md|html, -o FILE and `feedcheck report` work on it. No MPI here.
#pragma once

#include <vector>

#include "app/mpi_cluster_result.h"
#include "app/mpi_rank_probe.h"
#include "reports/report.h"

namespace feedcheck::app {

/// Result keys: ranks, connections_per_rank, block_bytes, duration_s, ramp, aggregate_gbps,
/// window_s, window_start_epoch_s, common_window_bytes, node_gbps_min/_median/_max, slowest_rank,
/// fastest_rank, errors, throttled; with --ramp knee_nodes, knee_gbps, knee_at_last_step,
/// predicted_knee_nodes, predicted_plateau_gbps, nodes_to_egress_limit (when the aggregate
/// reached the account's egress). Tables: "Nodes"; with --ramp "Ramp" and "Ramp by rank".
Report ThroughputClusterReport(const MpiProbeRequest& request, const RankProbe& rank, int ranks,
                               const std::vector<ClusterThroughput>& steps,
                               const ClusterThroughputResult& result);

/// Result keys: ranks, duration_s, samples, ttfb_p50/p90/p99/p999_ms, ttfb_min/mean/max_ms,
/// node_ttfb_p50_ms_min/_median/_max, slowest_rank, fastest_rank, errors, throttled. Table
/// "Nodes"; the merged histogram as series probe.cluster.ttfb_histogram.
Report LatencyClusterReport(const RankProbe& rank, int ranks, const ClusterLatencyResult& result);

/// Result keys: ranks, duration_s, concurrency_per_rank, requests, span_s, requests_per_s,
/// overhead_ms, bandwidth_gbps, breakeven_bytes, fit_r2, fit_points,
/// node_overhead_ms_min/_median/_max, slowest_rank, fastest_rank, errors, throttled. Table "Nodes"
/// (each node's own fit).
Report SmallFilesClusterReport(const RankProbe& rank, int ranks,
                               const ClusterSmallFilesResult& result);

/// Nodes from which the ramp's aggregate is within 10% of the account's egress limit: the
/// first such step's node count, 0 when the limit is unknown or was not reached.
int NodesToEgressLimit(const std::vector<double>& aggregate_gbps, double egress_gbps);

}  // namespace feedcheck::app
