// What each node of a cluster can pull when they all read from one account: the rate one node
// reaches (measured by a probe, else its NIC) capped by its even share of the account's egress
// limit. The same arithmetic predicts the aggregate curve a ramp over 1..N nodes should follow.
#pragma once

#include <optional>
#include <vector>

#include "core/evidence.h"
#include "core/fact_set.h"

namespace feedcheck {

/// Aggregate Gbit/s for 1..max_nodes nodes: min(n x node_gbps, egress_gbps); no cap when
/// egress_gbps <= 0 (unknown).
std::vector<double> PredictRamp(int max_nodes, double node_gbps, double egress_gbps);

/// The `probe.cluster.ramp_predicted` series for the report's ramp chart.
Series PredictedRampSeries(int max_nodes, double node_gbps, double egress_gbps);

/// Adds supply.per_node_gbps, supply.aggregate_gbps (with node.count) and supply.full_rate_nodes
/// from probe.throughput.gbps (else node.nic_gbps), account.egress_gbps and node.count, keeping
/// facts already in `facts`. Nothing when the per-node rate or the limit is unknown.
void AddSupplyFacts(FactSet* facts);

/// Accounts that feed `nodes` nodes of `node_gbps` each at full rate: ceil(nodes x node / limit),
/// at least 1; 2 when the node rate is unknown (<= 0) and the limit was reached.
int AccountsForFullRate(int nodes, double node_gbps, double egress_gbps);

/// The aggregate the cluster would pull from `accounts` accounts: min(nodes x node rate,
/// accounts x limit); without a node rate, accounts x limit.
double AggregateWithAccounts(int nodes, double node_gbps, double egress_gbps, int accounts);

/// GPU time after a data phase runs `speedup` times faster (>= 1; infinity: the wait goes
/// away), all else equal: the phase's wall clock and the GPU time lost in it shrink by the
/// same factor, and so does the sampled time.
struct IdleAfterSpeedup {
  double phase_s = 0;  ///< the phase's new wall clock
  double idle_fraction = 0;
};
IdleAfterSpeedup PredictIdleAfterSpeedup(double lost_gpu_s, double sampled_gpu_s,
                                         double phase_lost_gpu_s, double phase_s, int gpus,
                                         double speedup);

/// Node count to draw a ramp over: the planned count, and at least two past the point where
/// the account limit is reached (so the flat part shows), at most `cap`.
int RampNodesToDraw(int planned_nodes, double node_gbps, double egress_gbps, int cap = 64);

}  // namespace feedcheck
