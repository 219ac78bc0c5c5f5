#include <catch2/catch.hpp>
#include <map>

#include "run_feedcheck.h"

TEST_CASE("egress --all at 120 Gbit/s reproduces the guide's table", "[cli][egress]") {
  RunResult r = RunFeedcheck({"egress", "--all", "--account-egress-gbps", "120", "--json"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  auto j = r.Json();
  REQUIRE(j.is_object());
  CHECK(j["schema_version"] == 1);
  CHECK(j["command"] == "egress");
  std::map<std::string, int> got;
  for (const auto& row : j["rows"]) got[row["sku"]] = row["full_rate_nodes"];
  const std::map<std::string, int> guide = {
      {"Standard_ND96asr_v4", 5},   {"Standard_ND96amsr_A100_v4", 5}, {"Standard_NC6s_v3", 5},
      {"Standard_NC12s_v3", 5},     {"Standard_NC24s_v3", 5},         {"Standard_NC24rs_v3", 5},
      {"Standard_NC4as_T4_v3", 15}, {"Standard_NC8as_T4_v3", 15},     {"Standard_NC16as_T4_v3", 15},
      {"Standard_NC64as_T4_v3", 3}};
  for (const auto& [sku, nodes] : guide) {
    INFO(sku);
    REQUIRE(got.count(sku));
    CHECK(got[sku] == nodes);
  }
}

TEST_CASE("egress --account-kind standard_gpv2_legacy_120 is the guide's profile",
          "[cli][egress]") {
  RunResult r = RunFeedcheck({"--json", "egress", "--sku", "Standard_NC64as_T4_v3",
                              "--account-kind", "standard_gpv2_legacy_120"});
  REQUIRE(r.exit_code == 0);
  auto j = r.Json();
  CHECK(j["account"]["egress_gbps"] == 120);
  CHECK(j["result"]["full_rate_nodes"] == 3);
  CHECK(j["result"]["degrade_from_nodes"] == 4);
}

TEST_CASE("egress in East US today: 8 A100 nodes, 2 H100 nodes", "[cli][egress]") {
  RunResult a100 = RunFeedcheck(
      {"egress", "--sku", "Standard_ND96asr_v4", "--region", "eastus", "--nodes", "12", "--json"});
  INFO(a100.err);
  REQUIRE(a100.exit_code == 0);
  auto j = a100.Json();
  CHECK(j["schema_version"] == 1);
  CHECK(j["account"]["egress_gbps"] == 200);
  CHECK(j["account"]["listed_region"] == true);
  CHECK(j["result"]["full_rate_nodes"] == 8);
  CHECK(j["result"]["degrade_from_nodes"] == 9);
  CHECK(j["result"]["accounts_needed"] == 2);
  CHECK(j["result"]["per_node_gbps"].get<double>() == Approx(200.0 / 12));
  CHECK(j["result"]["aggregate_gbps"] == 200);
  // The derived and knowledge facts are in the output with provenance.
  std::map<std::string, nlohmann::json> facts;
  for (const auto& f : j["facts"]) facts[f["key"]] = f;
  REQUIRE(facts.count("egress.full_rate_nodes"));
  CHECK(facts["egress.full_rate_nodes"]["value"] == 8);
  CHECK(facts["egress.full_rate_nodes"]["provenance"]["origin"] == "derived");
  CHECK(facts["node.nic_gbps"]["provenance"]["origin"] == "knowledge");
  CHECK(facts["node.nic_gbps"]["provenance"]["source"].get<std::string>().find("vm_sizes.yaml:") !=
        std::string::npos);
  CHECK(facts["node.count"]["value"] == 12);
  CHECK(facts["account.region"]["value"] == "eastus");

  RunResult h100 =
      RunFeedcheck({"egress", "--sku", "ND96isr_H100_v5", "--region", "East US", "--json"});
  REQUIRE(h100.exit_code == 0);
  CHECK(h100.Json()["result"]["full_rate_nodes"] == 2);
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
  CHECK(r.out.find("Sources:") != std::string::npos);
  CHECK(r.out.find("{") == std::string::npos);  // not JSON
}

TEST_CASE("egress outside the listed regions uses 50 Gbit/s", "[cli][egress]") {
  RunResult r = RunFeedcheck(
      {"egress", "--nic-gbps", "24", "--region", "westindia", "--nodes", "3", "--json"});
  REQUIRE(r.exit_code == 0);
  auto j = r.Json();
  CHECK(j["account"]["egress_gbps"] == 50);
  CHECK(j["account"]["listed_region"] == false);
  CHECK(j["result"]["full_rate_nodes"] == 2);
  CHECK(j["result"]["accounts_needed"] == 2);  // 72 / 50
}

TEST_CASE("egress: unknown size gets suggestions and exit 2", "[cli][egress][errors]") {
  RunResult r = RunFeedcheck({"egress", "--sku", "Standard_ND96asr_v5"});
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
  CHECK(r.err.find("--sku") != std::string::npos);
  CHECK(r.err.find("unknown VM size 'Standard_ND96asr_v5'") != std::string::npos);
  CHECK(r.err.find("did you mean Standard_ND96asr_v4") != std::string::npos);
}

TEST_CASE("egress: bad numbers name their flag, usage errors exit 2", "[cli][egress][errors]") {
  RunResult nodes = RunFeedcheck({"egress", "--sku", "ND96asr_v4", "--nodes", "many"});
  CHECK(nodes.exit_code == 2);
  CHECK(nodes.err.find("--nodes") != std::string::npos);
  CHECK(nodes.err.find("not a number") != std::string::npos);
  RunResult egress =
      RunFeedcheck({"egress", "--nic-gbps", "24", "--account-egress-gbps", "12 parsecs"});
  CHECK(egress.exit_code == 2);
  CHECK(egress.err.find("--account-egress-gbps") != std::string::npos);
  RunResult nic = RunFeedcheck({"egress", "--nic-gbps", "4MiB"});
  CHECK(nic.exit_code == 2);
  CHECK(nic.err.find("--nic-gbps") != std::string::npos);
  RunResult none = RunFeedcheck({"egress"});
  CHECK(none.exit_code == 2);
  CHECK(none.err.find("--sku") != std::string::npos);
  RunResult kind = RunFeedcheck({"egress", "--nic-gbps", "24", "--account-kind", "standard_gpv3"});
  CHECK(kind.exit_code == 2);
  CHECK(kind.err.find("did you mean standard_gpv2") != std::string::npos);
  RunResult premium =
      RunFeedcheck({"egress", "--nic-gbps", "24", "--account-kind", "premium_block_blob"});
  CHECK(premium.exit_code == 2);
  CHECK(premium.err.find("no published egress limit") != std::string::npos);
  RunResult flag = RunFeedcheck({"egress", "--no-such-flag"});
  CHECK(flag.exit_code == 2);
}

TEST_CASE("egress --nic-gbps accepts units", "[cli][egress]") {
  RunResult r = RunFeedcheck(
      {"egress", "--nic-gbps", "1500 Mbit/s", "--account-egress-gbps", "120", "--json"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.Json()["result"]["full_rate_nodes"] == 80);
}

TEST_CASE("a --kb file overrides a size and a broken one exits 3 with file:line",
          "[cli][egress][kb]") {
  std::string mine = WriteTempFile("mine.yaml", R"(vm_sizes:
  - name: Standard_ND96asr_v4
    vcpus: 96
    gpus: 8
    gpu_model: A100 40GB
    ram: 900 GiB
    local_disk: 6000 GiB
    nic: 40 Gbit/s
    source: measured by us
)");
  RunResult r = RunFeedcheck(
      {"--kb", mine, "egress", "--sku", "Standard_ND96asr_v4", "--region", "eastus", "--json"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.Json()["result"]["full_rate_nodes"] == 5);  // 200 / 40

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
  CHECK(bad.err.find("'nic'") != std::string::npos);
}
