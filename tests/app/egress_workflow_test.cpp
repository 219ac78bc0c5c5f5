#include "app/egress_workflow.h"

#include <catch2/catch.hpp>
#include <map>

#include "app_test_support.h"
#include "core/diagnostic_codes.h"

using namespace feedcheck;
using namespace feedcheck::app;
using namespace feedcheck::app::testing;

namespace {

Outcome Egress(EgressRequest request) {
  Outcome out = RunEgress(request);
  INFO(out.diagnostics.total() << " diagnostics");
  for (const auto& d : out.diagnostics.kept()) UNSCOPED_INFO(FormatDiagnostic(d));
  return out;
}

std::map<std::string, Fact> Facts(const Report& r) {
  std::map<std::string, Fact> out;
  for (const auto& [key, fact] : r.evidence.facts) out.emplace(key, fact);
  return out;
}

}  // namespace

TEST_CASE("egress --all at 120 Gbit/s reproduces the guide's table", "[app][egress]") {
  EgressRequest request;
  request.all = true;
  request.account_egress_gbps = "120";
  Outcome out = Egress(request);
  REQUIRE(out.status == ExitStatus::kOk);
  REQUIRE(out.has_report);
  const ReportTable* table = FindTable(out.report, "By VM size");
  REQUIRE(table);
  std::map<std::string, double> got;
  for (size_t i = 0; i < table->rows.size(); ++i) {
    std::string sku = Cell(*table, i, "sku")->text;
    sku = sku.substr(0, sku.find(' '));  // "Standard_X (retired ...)"
    got[sku] = Cell(*table, i, "full_rate_nodes")->value.value_or(-1);
  }
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
  CHECK(ResultNumber(out.report, "account_egress_gbps") == 120);
}

TEST_CASE("egress --account-kind standard_gpv2_legacy_120 is the guide's profile",
          "[app][egress]") {
  EgressRequest request;
  request.sku = "Standard_NC64as_T4_v3";
  request.account_kind = "standard_gpv2_legacy_120";
  Outcome out = Egress(request);
  REQUIRE(out.status == ExitStatus::kOk);
  CHECK(ResultNumber(out.report, "account_egress_gbps") == 120);
  CHECK(ResultNumber(out.report, "full_rate_nodes") == 3);
  CHECK(ResultNumber(out.report, "degrade_from_nodes") == 4);
}

TEST_CASE("egress in East US today: 8 A100 nodes, 2 H100 nodes", "[app][egress]") {
  EgressRequest a100;
  a100.sku = "Standard_ND96asr_v4";
  a100.region = "eastus";
  a100.nodes = "12";
  Outcome out = Egress(a100);
  REQUIRE(out.status == ExitStatus::kOk);
  const Report& r = out.report;
  CHECK(ResultNumber(r, "account_egress_gbps") == 200);
  CHECK(ResultBool(r, "listed_region") == true);
  CHECK(ResultNumber(r, "full_rate_nodes") == 8);
  CHECK(ResultNumber(r, "degrade_from_nodes") == 9);
  CHECK(ResultNumber(r, "accounts_needed") == 2);
  CHECK(ResultNumber(r, "per_node_gbps").value_or(0) == Approx(200.0 / 12));
  CHECK(ResultNumber(r, "aggregate_gbps") == 200);
  // The derived and knowledge facts are in the evidence with provenance.
  auto facts = Facts(r);
  REQUIRE(facts.count("egress.full_rate_nodes"));
  CHECK(facts.at("egress.full_rate_nodes").number() == 8);
  CHECK(facts.at("egress.full_rate_nodes").provenance.origin == FactOrigin::kDerived);
  CHECK(facts.at("node.nic_gbps").provenance.origin == FactOrigin::kKnowledge);
  CHECK(facts.at("node.nic_gbps").provenance.source.find("vm_sizes.yaml:") != std::string::npos);
  CHECK(facts.at("node.count").number() == 12);
  CHECK(facts.at("account.region").text() == "eastus");
  // The derivation, as people read it.
  const ReportTable* t = FindTable(r, "Nodes one account feeds");
  REQUIRE(t);
  CHECK(Cell(*t, 0, "how")->text == "floor(200 / 24) = floor(8.33)");
  REQUIRE(FindTable(r, "Sources"));

  EgressRequest h100;
  h100.sku = "ND96isr_H100_v5";
  h100.region = "East US";
  CHECK(ResultNumber(Egress(h100).report, "full_rate_nodes") == 2);
}

TEST_CASE("egress outside the listed regions uses 50 Gbit/s", "[app][egress]") {
  EgressRequest request;
  request.nic_gbps = "24";
  request.region = "westindia";
  request.nodes = "3";
  Outcome out = Egress(request);
  REQUIRE(out.status == ExitStatus::kOk);
  CHECK(ResultNumber(out.report, "account_egress_gbps") == 50);
  CHECK(ResultBool(out.report, "listed_region") == false);
  CHECK(ResultNumber(out.report, "full_rate_nodes") == 2);
  CHECK(ResultNumber(out.report, "accounts_needed") == 2);  // 72 / 50
}

TEST_CASE("egress: the account plan of a striped cluster", "[app][egress]") {
  // One H100 node's NIC is above an unlisted region's 50 Gbit/s: shards striped.
  EgressRequest request;
  request.sku = "Standard_ND96isr_H100_v5";
  request.region = "italynorth";
  request.nodes = "16";
  Outcome out = Egress(request);
  REQUIRE(out.status == ExitStatus::kOk);
  CHECK(ResultNumber(out.report, "full_rate_nodes") == 0);
  CHECK(ResultNumber(out.report, "accounts") == 26);
  CHECK(ResultBool(out.report, "accounts_striped") == true);
  CHECK(ResultNumber(out.report, "accounts_per_node") == 2);
  CHECK(ResultText(out.report, "node_split") == "");
  const ReportTable* t = FindTable(out.report, "Nodes one account feeds");
  REQUIRE(t);
  CHECK(Cell(*t, 1, "how")->text == "node (50 / 1 = 50 Gbit/s each)");
}

TEST_CASE("egress: unknown size and bad numbers are usage errors naming the flag",
          "[app][egress][errors]") {
  auto usage = [](EgressRequest request, const char* code, const std::string& part) {
    Outcome out = RunEgress(request);
    INFO(part);
    CHECK(out.status == ExitStatus::kUsage);
    CHECK_FALSE(out.has_report);
    CHECK(HasDiagnostic(out.diagnostics, code, part));
  };
  EgressRequest sku;
  sku.sku = "Standard_ND96asr_v5";
  usage(sku, codes::kBadFlag, "unknown VM size 'Standard_ND96asr_v5'");
  usage(sku, codes::kBadFlag, "did you mean Standard_ND96asr_v4");
  EgressRequest nodes;
  nodes.sku = "ND96asr_v4";
  nodes.nodes = "many";
  usage(nodes, codes::kBadFlag, "--nodes");
  EgressRequest egress;
  egress.nic_gbps = "24";
  egress.account_egress_gbps = "12 parsecs";
  usage(egress, codes::kBadFlag, "--account-egress-gbps");
  EgressRequest nic;
  nic.nic_gbps = "4MiB";
  usage(nic, codes::kBadFlag, "--nic-gbps");
  usage(EgressRequest{}, codes::kMissingInput, "--sku");
  EgressRequest kind;
  kind.nic_gbps = "24";
  kind.account_kind = "standard_gpv3";
  usage(kind, codes::kBadFlag, "did you mean standard_gpv2");
  kind.account_kind = "premium_block_blob";
  usage(kind, codes::kMissingInput,
        "no published egress limit");  // a missing figure, not a bad flag
  EgressRequest all;
  all.all = true;
  all.sku = "ND96asr_v4";
  usage(all, codes::kBadFlag, "--all lists every size");
}

TEST_CASE("egress --nic-gbps accepts units", "[app][egress]") {
  EgressRequest request;
  request.nic_gbps = "1500 Mbit/s";
  request.account_egress_gbps = "120";
  CHECK(ResultNumber(RunEgress(request).report, "full_rate_nodes") == 80);
}

TEST_CASE("a --kb file overrides a size and a broken one is an input error with file:line",
          "[app][egress][kb]") {
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
  EgressRequest request;
  request.knowledge.kb_files = {mine};
  request.sku = "Standard_ND96asr_v4";
  request.region = "eastus";
  CHECK(ResultNumber(RunEgress(request).report, "full_rate_nodes") == 5);  // 200 / 40

  std::string broken = WriteTempFile("broken.yaml", R"(vm_sizes:
  - name: Standard_Broken
    vcpus: 4
    gpus: 0
    ram: 16 GiB
    local_disk: 0
    nic: fast
    source: test
)");
  request.knowledge.kb_files = {broken};
  Outcome bad = RunEgress(request);
  CHECK(bad.status == ExitStatus::kInputError);
  bool found = false;
  for (const auto& d : bad.diagnostics.kept())
    found = found || (d.code == "K304" && d.location.file == broken && d.location.line == 7 &&
                      d.message.find("'nic'") != std::string::npos);
  CHECK(found);
}
