#include "app/fact_gathering.h"

#include <catch2/catch.hpp>

#include "tests/app/app_test_support.h"

using namespace feedcheck;
using namespace feedcheck::app;
using namespace feedcheck::app::testing;

namespace {

// The facts a profile naming only the compute's region gathers with `account_region` given the
// way a flag or the storage metrics give it (an override), or not at all ("").
FactSet Gathered(const std::string& profile_text, const std::string& account_region) {
  const std::string path = WriteTempFile("regions.yaml", profile_text);
  FactSet overrides;
  if (!account_region.empty())
    overrides.Set(TextFact("account.region", account_region, Declared("--region")));
  FactSet facts;
  rules::Profile profile;
  DiagnosticList diagnostics;
  REQUIRE(GatherFacts({}, path, KnowledgeInputs{}, &facts, &profile, &diagnostics, &overrides));
  return facts;
}

}  // namespace

TEST_CASE("the compute's region meets the account's wherever the account's came from",
          "[app][facts]") {
  const std::string compute_only = "compute_region: eastasia\nnodes: 2\n";
  SECTION("another region given by a flag: not the same region, at the profile's line") {
    const FactSet facts = Gathered(compute_only, "Jio India Central");
    REQUIRE(facts.Bool("account.same_region").has_value());
    CHECK(*facts.Bool("account.same_region") == false);
    const Fact* same = facts.Find("account.same_region");
    CHECK(same->provenance.file.find("regions.yaml") != std::string::npos);
    CHECK(same->provenance.line == 1);
  }
  SECTION("the same region written another way") {
    CHECK(Gathered(compute_only, "East Asia").Bool("account.same_region") == true);
  }
  SECTION("no account region anywhere: nothing said") {
    CHECK_FALSE(Gathered(compute_only, "").Has("account.same_region"));
  }
  SECTION("the profile's own region, overridden by the flag: the flag's is compared") {
    const std::string both = "compute_region: eastasia\nregion: eastasia\n";
    CHECK(Gathered(both, "").Bool("account.same_region") == true);
    CHECK(Gathered(both, "westus2").Bool("account.same_region") == false);
  }
  SECTION("a declared answer stands") {
    CHECK(Gathered("compute_region: eastasia\nsame_region: true\n", "westus2")
              .Bool("account.same_region") == true);
  }
}
