// egress through the binary: the JSON shape, the table for people, exit codes, -o. What egress
// computes is tested against app::RunEgress in tests/app/egress_workflow_test.cpp.
#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <sstream>

#include "run_feedcheck.h"

TEST_CASE("egress --json: the Report shape with the headline in result", "[cli][egress]") {
  RunResult r = RunFeedcheck(
      {"egress", "--sku", "Standard_ND96asr_v4", "--region", "eastus", "--nodes", "12", "--json"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  auto j = r.Json();
  REQUIRE(j.is_object());
  CHECK(j["schema_version"] == 1);
  CHECK(j["kind"] == "feedcheck-report");
  CHECK(j["context"]["command"] == "egress");
  CHECK(j["result"]["full_rate_nodes"] == 8);
  CHECK(j["result"]["degrade_from_nodes"] == 9);
  CHECK(j["result"]["accounts_needed"] == 2);
  CHECK(j["result"]["account_egress_gbps"] == 200);
  std::map<std::string, nlohmann::json> facts;
  for (const auto& f : j["evidence"]["facts"]) facts[f["key"]] = f;
  CHECK(facts["egress.full_rate_nodes"]["value"] == 8);
  CHECK(facts["node.nic_gbps"]["provenance"]["origin"] == "knowledge");
  // --all: one row per size, the numbers in the row objects.
  RunResult all = RunFeedcheck({"egress", "--all", "--account-egress-gbps", "120", "--json"});
  REQUIRE(all.exit_code == 0);
  bool nd96 = false;
  const nlohmann::json all_json = all.Json();  // kept alive: the loop reads into it
  for (const auto& row : all_json["tables"][0]["rows"])
    if (row["sku"] == "Standard_ND96asr_v4") nd96 = row["full_rate_nodes"] == 5;
  CHECK(nd96);
}

TEST_CASE("egress human output is a readable table", "[cli][egress]") {
  RunResult r = RunFeedcheck(
      {"egress", "--sku", "Standard_ND96asr_v4", "--region", "East US 2", "--nodes", "12"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("Standard_ND96asr_v4") != std::string::npos);
  CHECK(r.out.find("a listed region") != std::string::npos);
  CHECK(r.out.find("Nodes at full NIC rate") != std::string::npos);
  CHECK(r.out.find("floor(200 / 24)") != std::string::npos);
  CHECK(r.out.find("Accounts for full rate") != std::string::npos);
  CHECK(r.out.find("16.7 Gbit/s") != std::string::npos);
  CHECK(r.out.find("Sources") != std::string::npos);
  CHECK(r.out.find("{\"") == std::string::npos);  // not JSON
}

TEST_CASE("egress: usage errors exit 2 with the flag named on stderr", "[cli][egress][errors]") {
  RunResult r = RunFeedcheck({"egress", "--sku", "Standard_ND96asr_v5"});
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
  CHECK(r.err.find("unknown VM size 'Standard_ND96asr_v5'") != std::string::npos);
  CHECK(r.err.find("did you mean Standard_ND96asr_v4") != std::string::npos);
  CHECK(RunFeedcheck({"egress"}).exit_code == 2);
  CHECK(RunFeedcheck({"egress", "--no-such-flag"}).exit_code == 2);
  RunResult both = RunFeedcheck({"--json", "egress", "--nic-gbps", "24", "-f", "md"});
  CHECK(both.exit_code == 2);
  CHECK(both.out.empty());
  CHECK(both.err.find("--json and --format md") != std::string::npos);
}

TEST_CASE("egress -o writes the format of the extension", "[cli][egress][output]") {
  std::string path = WriteTempFile("egress.html", "");
  RunResult r = RunFeedcheck({"egress", "--nic-gbps", "24", "--region", "eastus", "-o", path});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.empty());
  CHECK(r.err.find("wrote " + path + " (html)") != std::string::npos);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  CHECK(text.str().rfind("<!doctype html>", 0) == 0);
  CHECK(text.str().find("Nodes at full NIC rate") != std::string::npos);
}

TEST_CASE("a broken --kb file exits 3 with file:line", "[cli][egress][kb]") {
  std::string broken = WriteTempFile("broken.yaml", R"(vm_sizes:
  - name: Standard_Broken
    vcpus: 4
    gpus: 0
    ram: 16 GiB
    local_disk: 0
    nic: fast
    source: test
)");
  RunResult bad = RunFeedcheck({"--kb", broken, "egress", "--sku", "Standard_D2_v2"});
  CHECK(bad.exit_code == 3);
  CHECK(bad.err.find(broken + ":7:") != std::string::npos);
  CHECK(bad.err.find("K304") != std::string::npos);
}
