#include "mpi/ramp.h"

#include <fmt/format.h>

#include "mpi/cluster_merge.h"

namespace feedcheck {

Ramp BuildRamp(std::vector<double> measured_gbps, const RampLimit& nic, const RampLimit& egress) {
  Ramp r;
  r.measured_gbps = std::move(measured_gbps);
  if (r.measured_gbps.empty()) return r;
  const int n = static_cast<int>(r.measured_gbps.size());
  r.knee = RampKnee(r.measured_gbps);
  double per_node = nic.gbps;
  std::string node_basis = nic.basis;
  if (per_node <= 0) {
    per_node = r.measured_gbps.front();
    node_basis =
        fmt::format("one node as measured, {:.3f} Gbit/s (no --nic-gbps or --sku)", per_node);
  }
  std::string egress_basis = egress.gbps > 0
                                 ? egress.basis
                                 : "account egress unknown (no --account-egress-gbps, --region)";
  r.predicted_gbps = PredictRamp(n, per_node, egress.gbps);
  r.predicted_knee = RampKnee(r.predicted_gbps);
  r.prediction_basis = "min(nodes x NIC, account egress): " + egress_basis + " / " + node_basis;
  return r;
}

void AddRampEvidence(const Ramp& ramp, const RampLimit& nic, const RampLimit& egress,
                     const std::string& source, Evidence* ev) {
  if (ramp.measured_gbps.empty() || ramp.knee < 1) return;
  Series ms{"probe.cluster.ramp",
            "aggregate throughput by nodes (measured)",
            "nodes",
            Unit::kCount,
            "aggregate",
            Unit::kGbps,
            {}};
  Series ps{"probe.cluster.ramp_predicted",
            "predicted: min(nodes x NIC, account egress)",
            "nodes",
            Unit::kCount,
            "aggregate",
            Unit::kGbps,
            {}};
  for (size_t i = 0; i < ramp.measured_gbps.size(); ++i) {
    ms.points.push_back({double(i + 1), ramp.measured_gbps[i]});
    ps.points.push_back({double(i + 1), ramp.predicted_gbps[i]});
  }
  ev->series.push_back(std::move(ms));
  ev->series.push_back(std::move(ps));
  Provenance mp{FactOrigin::kMeasured,
                fmt::format("{}, ramp 1..{} nodes", source, ramp.measured_gbps.size())};
  Provenance dp{FactOrigin::kDerived, ramp.prediction_basis};
  FactSet& f = ev->facts;
  f.Set(NumberFact("probe.cluster.knee_nodes", ramp.knee, Unit::kCount, mp));
  f.Set(NumberFact("probe.cluster.knee_gbps", ramp.measured_gbps[size_t(ramp.knee - 1)],
                   Unit::kGbps, mp));
  f.Set(NumberFact("probe.cluster.predicted_knee_nodes", ramp.predicted_knee, Unit::kCount, dp));
  f.Set(NumberFact("probe.cluster.predicted_plateau_gbps", ramp.predicted_gbps.back(), Unit::kGbps,
                   dp));
  if (egress.gbps > 0)
    f.Set(NumberFact("account.egress_gbps", egress.gbps, Unit::kGbps, egress.provenance));
  if (nic.gbps > 0) f.Set(NumberFact("node.nic_gbps", nic.gbps, Unit::kGbps, nic.provenance));
}

}  // namespace feedcheck
