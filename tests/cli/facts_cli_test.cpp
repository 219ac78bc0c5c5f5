#include <catch2/catch.hpp>
#include <set>

#include "core/fact_registry.h"
#include "run_feedcheck.h"

TEST_CASE("facts list prints every registry key with unit and origin", "[cli][facts]") {
  RunResult r = RunFeedcheck({"facts", "list"});
  REQUIRE(r.exit_code == 0);
  for (const auto& spec : feedcheck::FactRegistry::Builtin().all()) {
    INFO(spec.key);
    CHECK(r.out.find(std::string(spec.key)) != std::string::npos);
  }
  CHECK(r.out.find("egress.full_rate_nodes") != std::string::npos);
  CHECK(r.out.find("Gbit/s") != std::string::npos);
  CHECK(r.out.find("derived") != std::string::npos);
}

TEST_CASE("facts list --json has schema_version and all keys", "[cli][facts]") {
  RunResult r = RunFeedcheck({"facts", "list", "--json"});
  REQUIRE(r.exit_code == 0);
  auto j = r.Json();
  CHECK(j["schema_version"] == 1);
  CHECK(j["result"]["keys"] == feedcheck::FactRegistry::Builtin().all().size());
  REQUIRE(j["tables"][0]["title"] == "Fact keys");
  std::set<std::string> keys;
  for (const auto& f : j["tables"][0]["rows"]) {
    keys.insert(f["key"].get<std::string>());
    CHECK(f.contains("unit"));
    CHECK(f.contains("origin"));
    CHECK(f.contains("description"));
  }
  CHECK(keys.size() == feedcheck::FactRegistry::Builtin().all().size());
  CHECK(keys.count("plan.get_requests"));
}

TEST_CASE("facts without a subcommand, or with a prefix no key has, is a usage error",
          "[cli][facts]") {
  CHECK(RunFeedcheck({"facts"}).exit_code == 2);
  RunResult r = RunFeedcheck({"facts", "list", "nosuch."});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("no fact key starts with 'nosuch.'") != std::string::npos);
  RunResult md = RunFeedcheck({"facts", "list", "egress.", "-f", "md"});
  CHECK(md.exit_code == 0);
  CHECK(md.out.find("egress.full_rate_nodes") != std::string::npos);
  CHECK(md.out.find("| node.count |") == std::string::npos);
}
