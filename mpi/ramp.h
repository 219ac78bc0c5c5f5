// The ramp's result on rank 0: the aggregate measured with 1, 2, ... N nodes against what the
// knowledge base predicts, min(nodes x NIC, account egress), the knee of each, and the limits
// the prediction used (saved as facts so `feedcheck advise` can tell a knee at the account's
// egress from one somewhere else). No MPI here.
#pragma once

#include <string>
#include <vector>

#include "core/evidence.h"

namespace feedcheck {

/// One limit of the prediction: a node's NIC or the account's egress.
struct RampLimit {
  double gbps = 0;        ///< 0 when unknown
  std::string basis;      ///< how it is known, e.g. "NIC 24 Gbit/s (--nic-gbps)"
  Provenance provenance;  ///< of node.nic_gbps / account.egress_gbps
};

struct Ramp {
  std::vector<double> measured_gbps;  ///< [i] = aggregate with i + 1 nodes
  std::vector<double> predicted_gbps;
  int knee = 0;  ///< RampKnee of the measured series
  int predicted_knee = 0;
  std::string prediction_basis;
};

/// Without a NIC figure the one-node measurement stands in for it; without an account egress
/// the prediction grows with every node.
Ramp BuildRamp(std::vector<double> measured_gbps, const RampLimit& nic, const RampLimit& egress);

/// Series probe.cluster.ramp and probe.cluster.ramp_predicted; facts probe.cluster.knee_nodes,
/// knee_gbps, predicted_knee_nodes, predicted_plateau_gbps; node.nic_gbps and
/// account.egress_gbps when known. `source` names the measurement.
void AddRampEvidence(const Ramp& ramp, const RampLimit& nic, const RampLimit& egress,
                     const std::string& source, Evidence* evidence);

}  // namespace feedcheck
