// How feedcheck-mpi shows merged results on rank 0: per-node tables, slowest and fastest node,
// aggregates (text), and the rows of the "cluster" object of --json.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "core/fact_set.h"
#include "mpi/cluster_merge.h"
#include "mpi/ramp.h"
#include "mpi/smallfile_merge.h"

namespace feedcheck::cli {

/// Throughput and latency: rank, host, Gbit/s, p50/p99 ms, errors, throttled, status.
void PrintNodeTable(const std::vector<NodeRow>& nodes);
/// Ranks' probe messages (failures, partial runs) on stderr, naming rank and host.
void PrintRankMessages(const std::vector<RankReport>& reports);
nlohmann::json NodesJson(const std::vector<NodeRow>& nodes);
/// Aggregate over the common window (or why there is none), the table, slowest and fastest.
void PrintClusterThroughput(const ClusterThroughput& c);

/// The "cluster" object of throughput --json: the last step's aggregate over the common window
/// and its nodes; with a ramp, every step against its prediction.
nlohmann::json ThroughputClusterJson(const std::vector<ClusterThroughput>& steps, const Ramp* ramp);
/// The ramp table, its knee and the prediction's basis.
void PrintRamp(const Ramp& ramp, int ranks, double step_s);
/// Latency: the merged percentiles, the node table, the slowest and fastest node.
void PrintClusterLatency(const ClusterLatency& c, const FactSet& facts, int ranks);

/// Small files: the cluster fit, request rate, per-node fits, slowest and fastest by overhead.

void PrintSmallFilesText(const ClusterSmallFiles& c, int ranks);
nlohmann::json SmallFilesClusterJson(const ClusterSmallFiles& c);

}  // namespace feedcheck::cli
