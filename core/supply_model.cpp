#include "core/supply_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace feedcheck {

std::vector<double> PredictRamp(int max_nodes, double node_gbps, double egress_gbps) {
  std::vector<double> out;
  for (int n = 1; n <= max_nodes; ++n) {
    double v = n * node_gbps;
    if (egress_gbps > 0) v = std::min(v, egress_gbps);
    out.push_back(v);
  }
  return out;
}

Series PredictedRampSeries(int max_nodes, double node_gbps, double egress_gbps) {
  Series s{"probe.cluster.ramp_predicted",
           "predicted: min(nodes x per-node rate, account egress)",
           "nodes",
           Unit::kCount,
           "aggregate",
           Unit::kGbps,
           {}};
  std::vector<double> ramp = PredictRamp(max_nodes, node_gbps, egress_gbps);
  for (size_t i = 0; i < ramp.size(); ++i) s.points.push_back({double(i + 1), ramp[i]});
  return s;
}

void AddSupplyFacts(FactSet* facts) {
  const Fact* measured = facts->Find("probe.throughput.gbps");
  auto node = facts->NumberIn(measured ? "probe.throughput.gbps" : "node.nic_gbps", Unit::kGbps);
  auto limit = facts->NumberIn("account.egress_gbps", Unit::kGbps);
  if (!node || !limit || !(*node > 0) || !(*limit > 0) || !std::isfinite(*node) ||
      !std::isfinite(*limit))
    return;
  Provenance p;
  p.origin = FactOrigin::kDerived;
  const char* rate = measured ? "probe.throughput.gbps" : "node.nic_gbps";
  FactSet derived;
  // A whole node count: the most nodes that all still get the per-node rate.
  double full = std::floor(*limit / *node + 1e-9);
  p.source = fmt::format("floor(account.egress_gbps / {})", rate);
  derived.Set(NumberFact("supply.full_rate_nodes", std::min(full, 1e6), Unit::kCount, p));
  auto n = facts->Number("node.count");
  if (n && *n >= 1 && std::isfinite(*n)) {
    p.source = fmt::format("min({}, account.egress_gbps / node.count)", rate);
    derived.Set(NumberFact("supply.per_node_gbps", std::min(*node, *limit / *n), Unit::kGbps, p));
    p.source = fmt::format("min(node.count x {}, account.egress_gbps)", rate);
    derived.Set(NumberFact("supply.aggregate_gbps", std::min(*n * *node, *limit), Unit::kGbps, p));
  }
  facts->Merge(derived, /*keep_existing=*/true);
}

int RampNodesToDraw(int planned_nodes, double node_gbps, double egress_gbps, int cap) {
  int n = std::max(1, planned_nodes);
  if (node_gbps > 0 && egress_gbps > 0) {
    double reach = std::ceil(egress_gbps / node_gbps - 1e-9);
    if (reach + 2 < cap) n = std::max(n, static_cast<int>(reach) + 2);
  }
  return std::clamp(n, 1, cap);
}

int AccountsForFullRate(int nodes, double node_gbps, double egress_gbps) {
  if (egress_gbps <= 0) return 1;
  if (node_gbps <= 0) return 2;
  return std::max(1, static_cast<int>(std::ceil(nodes * node_gbps / egress_gbps - 1e-9)));
}

double AggregateWithAccounts(int nodes, double node_gbps, double egress_gbps, int accounts) {
  double limit = accounts * egress_gbps;
  return node_gbps > 0 ? std::min(nodes * node_gbps, limit) : limit;
}

IdleAfterSpeedup PredictIdleAfterSpeedup(double lost_gpu_s, double sampled_gpu_s,
                                         double phase_lost_gpu_s, double phase_s, int gpus,
                                         double speedup) {
  IdleAfterSpeedup out;
  double keep = speedup > 0 && std::isfinite(speedup) ? 1 / std::max(1.0, speedup) : 0;
  out.phase_s = phase_s * keep;
  double saved_lost = phase_lost_gpu_s * (1 - keep);
  // The GPUs were sampled through the phase too: the shorter phase is also less sampled time.
  double saved_sampled = std::min(sampled_gpu_s, phase_s * (1 - keep) * std::max(1, gpus));
  double lost = std::max(0.0, lost_gpu_s - saved_lost);
  double sampled = std::max(lost, sampled_gpu_s - saved_sampled);
  out.idle_fraction = sampled > 0 ? lost / sampled : 0;
  return out;
}

}  // namespace feedcheck
