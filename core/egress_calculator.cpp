#include "core/egress_calculator.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace feedcheck {
namespace {

// Limits and NIC rates are decimal figures (120, 24, 1.5); a quotient that is a whole number on
// paper can land a hair below it in binary floating point. Round within this tolerance first.
constexpr double kTolerance = 1e-9;

double FloorTolerant(double x) {
  double r = std::round(x);
  return std::fabs(x - r) <= kTolerance * std::max(1.0, std::fabs(x)) ? r : std::floor(x);
}
double CeilTolerant(double x) {
  double r = std::round(x);
  return std::fabs(x - r) <= kTolerance * std::max(1.0, std::fabs(x)) ? r : std::ceil(x);
}

}  // namespace

bool ComputeEgress(const EgressInput& input, EgressResult* out, std::string* error) {
  if (!(input.nic_gbps > 0) || !std::isfinite(input.nic_gbps)) {
    *error = "the node's NIC rate must be above 0";
    return false;
  }
  if (!(input.account_egress_gbps > 0) || !std::isfinite(input.account_egress_gbps)) {
    *error = "the account egress limit must be above 0";
    return false;
  }
  if (input.nodes < 0) {
    *error = "the node count must not be negative";
    return false;
  }
  EgressResult r;
  r.saturation_nodes = input.account_egress_gbps / input.nic_gbps;
  r.full_rate_nodes = static_cast<int>(std::min(FloorTolerant(r.saturation_nodes), 1e9));
  r.degrade_from_nodes = r.full_rate_nodes + 1;
  if (input.nodes > 0) {
    r.nodes_given = true;
    r.nodes = input.nodes;
    r.per_node_gbps = std::min(input.nic_gbps, input.account_egress_gbps / input.nodes);
    r.aggregate_gbps = std::min(input.nodes * input.nic_gbps, input.account_egress_gbps);
    r.nics_gbps = input.nodes * input.nic_gbps;
    r.degraded = input.nodes > r.full_rate_nodes;
    double accounts = CeilTolerant(input.nodes * input.nic_gbps / input.account_egress_gbps);
    r.accounts_needed = static_cast<int>(std::max(1.0, accounts));
  }
  *out = r;
  return true;
}

void AddEgressFacts(const EgressResult& result, const std::string& source, FactSet* facts) {
  Provenance p;
  p.origin = FactOrigin::kDerived;
  p.source = source;
  facts->Set(NumberFact("egress.full_rate_nodes", result.full_rate_nodes, Unit::kCount, p));
  facts->Set(NumberFact("egress.degrade_from_nodes", result.degrade_from_nodes, Unit::kCount, p));
  if (!result.nodes_given) return;
  facts->Set(NumberFact("egress.per_node_gbps", result.per_node_gbps, Unit::kGbps, p));
  facts->Set(NumberFact("egress.aggregate_gbps", result.aggregate_gbps, Unit::kGbps, p));
  facts->Set(NumberFact("egress.nics_gbps", result.nics_gbps, Unit::kGbps, p));
  facts->Set(NumberFact("egress.accounts_needed", result.accounts_needed, Unit::kCount, p));
}

}  // namespace feedcheck
