#include "core/egress_calculator.h"

#include <catch2/catch.hpp>
#include <map>

#include "core/knowledge_base.h"

using namespace feedcheck;

namespace {

EgressResult Egress(double nic, double limit, int nodes = 0) {
  EgressResult r;
  std::string error;
  REQUIRE(ComputeEgress({nic, limit, nodes}, &r, &error));
  return r;
}

KnowledgeBase Builtin() {
  KnowledgeBase kb;
  DiagnosticList d;
  REQUIRE(KnowledgeBase::Load(std::string(FEEDCHECK_SOURCE_DIR) + "/data", {}, &kb, &d));
  return kb;
}

}  // namespace

TEST_CASE("the guide's 120 Gbit/s table, all ten sizes", "[core][egress]") {
  // Azure ML "Access data in a job", storage-egress table: nodes to hit 120 Gbit/s.
  const std::map<std::string, int> guide = {
      {"Standard_ND96asr_v4", 5},   {"Standard_ND96amsr_A100_v4", 5}, {"Standard_NC6s_v3", 5},
      {"Standard_NC12s_v3", 5},     {"Standard_NC24s_v3", 5},         {"Standard_NC24rs_v3", 5},
      {"Standard_NC4as_T4_v3", 15}, {"Standard_NC8as_T4_v3", 15},     {"Standard_NC16as_T4_v3", 15},
      {"Standard_NC64as_T4_v3", 3}};
  KnowledgeBase kb = Builtin();
  const StorageTarget* legacy = kb.FindTarget("standard_gpv2_legacy_120");
  REQUIRE(legacy);
  REQUIRE(legacy->egress_gbps == 120);
  for (const auto& [sku, nodes] : guide) {
    INFO(sku);
    const VmSize* vm = kb.FindVm(sku);
    REQUIRE(vm);
    EgressResult r = Egress(vm->nic_gbps, legacy->egress_gbps);
    CHECK(r.full_rate_nodes == nodes);
    CHECK(r.degrade_from_nodes == nodes + 1);
  }
}

TEST_CASE("exact division: five nodes at full rate, the sixth degrades", "[core][egress]") {
  EgressResult r = Egress(24, 120, 5);
  CHECK(r.saturation_nodes == 5);
  CHECK(r.full_rate_nodes == 5);
  CHECK(r.degrade_from_nodes == 6);
  CHECK(r.per_node_gbps == 24);
  CHECK(r.aggregate_gbps == 120);
  CHECK(r.accounts_needed == 1);
  CHECK_FALSE(r.degraded);
  EgressResult six = Egress(24, 120, 6);
  CHECK(six.per_node_gbps == 20);
  CHECK(six.aggregate_gbps == 120);
  CHECK(six.accounts_needed == 2);
  CHECK(six.degraded);
}

TEST_CASE("today's default in East US", "[core][egress]") {
  KnowledgeBase kb = Builtin();
  const double limit = kb.TargetForRegion("East US").egress_gbps;
  CHECK(limit == 200);
  EgressResult a100 = Egress(kb.FindVm("Standard_ND96asr_v4")->nic_gbps, limit, 12);
  CHECK(a100.full_rate_nodes == 8);
  CHECK(a100.degrade_from_nodes == 9);
  CHECK(a100.per_node_gbps == Approx(200.0 / 12));
  CHECK(a100.aggregate_gbps == 200);
  CHECK(a100.nics_gbps == 288);      // what the NICs could take in, the account aside
  CHECK(a100.accounts_needed == 2);  // 12 x 24 = 288 > 200
  EgressResult h100 = Egress(kb.FindVm("Standard_ND96isr_H100_v5")->nic_gbps, limit);
  CHECK(h100.full_rate_nodes == 2);
  CHECK(h100.degrade_from_nodes == 3);
  // Elsewhere the standard account gives 50 Gbit/s: not even one H100 node at full rate.
  EgressResult west = Egress(80, kb.TargetForRegion("westindia").egress_gbps, 1);
  CHECK(west.full_rate_nodes == 0);
  CHECK(west.degrade_from_nodes == 1);
  CHECK(west.per_node_gbps == 50);
  CHECK(west.accounts_needed == 2);
}

TEST_CASE("floating-point quotients that are whole on paper stay whole", "[core][egress]") {
  // 0.3 / 0.1 is 2.9999999999999996 in binary floating point.
  CHECK(Egress(0.1, 0.3).full_rate_nodes == 3);
  CHECK(Egress(0.1, 0.3, 3).accounts_needed == 1);
  CHECK(Egress(1.5, 120).full_rate_nodes == 80);
  CHECK(Egress(24, 200, 25).accounts_needed == 3);  // 600 / 200
  CHECK(Egress(24, 200, 26).accounts_needed == 4);
}

TEST_CASE("egress inputs must be positive", "[core][egress]") {
  EgressResult r;
  std::string error;
  CHECK_FALSE(ComputeEgress({0, 120, 1}, &r, &error));
  CHECK(error.find("NIC") != std::string::npos);
  CHECK_FALSE(ComputeEgress({24, 0, 1}, &r, &error));
  CHECK(error.find("egress limit") != std::string::npos);
  CHECK_FALSE(ComputeEgress({24, -5, 1}, &r, &error));
  CHECK_FALSE(ComputeEgress({24, 120, -1}, &r, &error));
}

TEST_CASE("egress facts are derived and follow the result", "[core][egress]") {
  FactSet facts;
  AddEgressFacts(Egress(24, 200, 12), "test", &facts);
  CHECK(*facts.Number("egress.full_rate_nodes") == 8);
  CHECK(*facts.Number("egress.degrade_from_nodes") == 9);
  CHECK(*facts.Number("egress.accounts_needed") == 2);
  CHECK(*facts.Number("egress.aggregate_gbps") == 200);
  CHECK(*facts.Number("egress.nics_gbps") == 288);
  CHECK(facts.Find("egress.per_node_gbps")->provenance.origin == FactOrigin::kDerived);
  FactSet no_nodes;
  AddEgressFacts(Egress(24, 200), "test", &no_nodes);
  CHECK(no_nodes.Has("egress.full_rate_nodes"));
  CHECK_FALSE(no_nodes.Has("egress.per_node_gbps"));
  CHECK_FALSE(no_nodes.Has("egress.accounts_needed"));
}
