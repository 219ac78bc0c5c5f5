#include "core/account_lookup.h"

#include <catch2/catch.hpp>

using namespace feedcheck;

namespace {
const KnowledgeBase& Kb() {
  static KnowledgeBase kb = [] {
    KnowledgeBase k;
    DiagnosticList d;
    REQUIRE(KnowledgeBase::Load(std::string(FEEDCHECK_SOURCE_DIR) + "/data", {}, &k, &d));
    return k;
  }();
  return kb;
}
}  // namespace

TEST_CASE("standard_gpv2 with a region is that region's standard account", "[core][account]") {
  // The profile `account: standard_gpv2` + `region: italynorth` and `egress --account-kind
  // standard_gpv2 --region italynorth` both come here: one answer.
  auto named = LookUpAccount(Kb(), {"italynorth", "standard_gpv2", false});
  auto region_only = LookUpAccount(Kb(), {"italynorth", "", false});
  REQUIRE(named.error.empty());
  REQUIRE(named.target);
  CHECK(named.target->egress_gbps == 50);
  CHECK(named.target->requests_per_s == 20000);
  CHECK(named.target == region_only.target);
  CHECK_FALSE(named.listed_region);
  auto listed = LookUpAccount(Kb(), {"East US", "standard_gpv2", false});
  REQUIRE(listed.target);
  CHECK(listed.target->egress_gbps == 200);
  CHECK(listed.listed_region);
}

TEST_CASE("an unknown region is an error with near misses", "[core][account]") {
  auto typo = LookUpAccount(Kb(), {"eastuss", "", false});
  CHECK(typo.target == nullptr);
  CHECK(typo.region_error);
  CHECK(typo.error.find("unknown region 'eastuss'") != std::string::npos);
  CHECK(typo.error.find("did you mean eastus") != std::string::npos);
  auto mars = LookUpAccount(Kb(), {"mars", "", false});
  CHECK(mars.region_error);
  CHECK(mars.error.find("--account-egress-gbps") != std::string::npos);
  // With the limit given, the region's limits are not needed.
  auto given = LookUpAccount(Kb(), {"mars", "", true});
  CHECK(given.error.empty());
  CHECK(given.target == nullptr);
  // A target whose limits do not depend on the region ignores it.
  auto premium = LookUpAccount(Kb(), {"mars", "premium_block_blob", false});
  CHECK(premium.error.empty());
  REQUIRE(premium.target);
  CHECK(premium.target->name == "premium_block_blob");
}

TEST_CASE("an unknown storage target is an error", "[core][account]") {
  auto bad = LookUpAccount(Kb(), {"", "standard_gpv3", false});
  CHECK_FALSE(bad.region_error);
  CHECK(bad.error.find("did you mean standard_gpv2") != std::string::npos);
}

TEST_CASE("retired sizes stay known and say so", "[core][kb]") {
  for (const char* name : {"Standard_NC6s_v3", "Standard_NC12s_v3", "Standard_NC24s_v3"}) {
    const VmSize* vm = Kb().FindVm(name);
    REQUIRE(vm);
    CHECK(vm->retired_on == "2025-09-30");
    CHECK(vm->retired_source.find("https://learn.microsoft.com/") != std::string::npos);
    CHECK(VmLabel(*vm) == std::string(name) + " (retired 2025-09-30)");
    FactSet facts;
    Kb().AddNodeFacts(*vm, &facts);
    CHECK(facts.Text("node.retired_on") == "2025-09-30");
  }
  const VmSize* current = Kb().FindVm("Standard_ND96asr_v4");
  REQUIRE(current);
  CHECK(VmLabel(*current) == "Standard_ND96asr_v4");
  FactSet facts;
  Kb().AddNodeFacts(*current, &facts);
  CHECK_FALSE(facts.Has("node.retired_on"));
}
