// How many nodes one storage account can feed at full NIC rate, what each node gets beyond
// that, and how many accounts the data must be replicated across (pure arithmetic).
#pragma once

#include <string>

#include "core/fact_set.h"

namespace feedcheck {

struct EgressInput {
  double nic_gbps = 0;             ///< per-node network bandwidth (> 0)
  double account_egress_gbps = 0;  ///< account egress limit (> 0)
  int nodes = 0;                   ///< nodes reading at once; 0 = not given
};

struct EgressResult {
  double saturation_nodes = 0;  ///< limit / NIC, unrounded (120 / 24 = 5, 200 / 24 = 8.33)
  int full_rate_nodes = 0;  ///< floor(limit / NIC): most nodes that all still get their NIC rate
  /// The smallest node count at which per-node throughput is below the NIC rate. Always
  /// full_rate_nodes + 1, whether or not the division is exact: at 120 / 24 = 5, five nodes take
  /// exactly 120 Gbit/s and the sixth pushes each to 20 (the guide: "six or more compute nodes
  /// would start to degrade"); at 200 / 24 = 8.33, eight take 192 and the ninth pushes each to
  /// 22.2.
  int degrade_from_nodes = 0;
  bool nodes_given = false;
  int nodes = 0;
  double per_node_gbps = 0;   ///< min(NIC, limit / nodes) at `nodes`
  double aggregate_gbps = 0;  ///< nodes * per_node_gbps = min(nodes * NIC, limit)
  double nics_gbps = 0;       ///< nodes * NIC: what the nodes could take in, the account aside
  int accounts_needed = 0;    ///< ceil(nodes * NIC / limit), at least 1
  bool degraded = false;      ///< per_node_gbps < NIC at `nodes`
};

/// Returns false and sets `error` when an input is not positive.
bool ComputeEgress(const EgressInput& input, EgressResult* out, std::string* error);

/// Adds egress.full_rate_nodes, egress.degrade_from_nodes and, when nodes were given,
/// egress.per_node_gbps, egress.aggregate_gbps, egress.nics_gbps, egress.accounts_needed
/// (origin derived).
void AddEgressFacts(const EgressResult& result, const std::string& source, FactSet* facts);

}  // namespace feedcheck
