// Advice at the edges, as users run it: one account lookup for every command, regions with
// "did you mean", replication plans when one node outruns an account or accounts outnumber
// nodes, profile errors, advice that checks its own premises, findings ordered by how far past
// a limit they are, and retired sizes.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "run_feedcheck.h"

namespace {
std::string Profile(const std::string& name) {
  return std::string(FEEDCHECK_SOURCE_DIR) + "/tests/data/profiles/" + name;
}
double FactValue(const nlohmann::json& j, const std::string& key) {
  for (const auto& f : j["evidence"]["facts"])
    if (f["key"] == key) return f["value"].get<double>();
  return -1;
}
}  // namespace

namespace {
// Runs of spaces and line breaks as one space: a wrapped table cell read as one sentence.
std::string FoldSpaces(const std::string& text) {
  std::string out;
  for (char c : text) {
    bool space = c == ' ' || c == '\n';
    if (space && !out.empty() && out.back() == ' ') continue;
    out += space ? ' ' : c;
  }
  return out;
}
}  // namespace

TEST_CASE("a profile's account and region give the limits egress gives", "[cli][advise][edges]") {
  RunResult advise = RunFeedcheck({"advise", "--profile", Profile("italynorth-standard-gpv2.yaml"),
                                   "--json", "--fail-on", "never"});
  INFO(advise.err);
  REQUIRE(advise.exit_code == 0);
  RunResult egress =
      RunFeedcheck({"egress", "--sku", "Standard_ND96asr_v4", "--account-kind", "standard_gpv2",
                    "--region", "italynorth", "--nodes", "12", "--json"});
  INFO(egress.err);
  REQUIRE(egress.exit_code == 0);
  auto a = advise.Json();
  auto e = egress.Json();
  CHECK(FactValue(a, "account.egress_gbps") == 50);
  CHECK(FactValue(a, "account.requests_per_s") == 20000);
  CHECK(FactValue(a, "account.egress_gbps") == FactValue(e, "account.egress_gbps"));
  CHECK(FactValue(a, "account.requests_per_s") == FactValue(e, "account.requests_per_s"));
  // ... and the same accounts needed: ceil(12 x 24 / 50) = 6.
  const nlohmann::json* f = FindingOf(a, "egress-nodes-beyond-account");
  REQUIRE(f);
  CHECK(Has((*f)["message"], "replicate the data across 6 storage accounts"));
  CHECK(e["result"]["accounts_needed"] == 6);
}

TEST_CASE("regions: did you mean, and unknown is an error unless the limit is given",
          "[cli][advise][egress][edges]") {
  RunResult typo = RunFeedcheck({"advise", "--profile", Profile("region-typo.yaml")});
  CHECK(typo.exit_code == 3);
  CHECK(Has(typo.err, "region-typo.yaml:4:"));
  CHECK(Has(typo.err, "unknown region 'eastuss' (did you mean eastus"));
  CHECK_FALSE(Has(typo.out, "finding"));

  RunResult given = RunFeedcheck({"advise", "--profile", Profile("region-unknown-with-limit.yaml"),
                                  "--json", "--fail-on", "never"});
  INFO(given.err);
  CHECK(given.exit_code == 0);
  CHECK(FactValue(given.Json(), "account.egress_gbps") == 120);

  RunResult mars = RunFeedcheck({"egress", "--sku", "Standard_ND96asr_v4", "--region", "mars"});
  CHECK(mars.exit_code == 2);
  CHECK(Has(mars.err, "--region: unknown region 'mars'"));
  RunResult eastuss =
      RunFeedcheck({"egress", "--sku", "Standard_ND96asr_v4", "--region", "eastuss"});
  CHECK(eastuss.exit_code == 2);
  CHECK(Has(eastuss.err, "did you mean eastus"));
  RunResult with_limit = RunFeedcheck({"egress", "--sku", "Standard_ND96asr_v4", "--region", "mars",
                                       "--account-egress-gbps", "80"});
  INFO(with_limit.err);
  CHECK(with_limit.exit_code == 0);
  CHECK(Has(with_limit.out, "Nodes at full NIC rate"));
  // A known region outside the listed ones is not an error: its lower limits apply.
  RunResult italy = RunFeedcheck({"plan", "--bytes", "1TB", "--files", "1000", "--sku",
                                  "Standard_ND96asr_v4", "--region", "Italy North"});
  CHECK(italy.exit_code == 0);
}

TEST_CASE("profile errors exit 3 with clear diagnostics", "[cli][advise][edges]") {
  RunResult r = RunFeedcheck({"advise", "--profile", Profile("profile-errors.yaml")});
  CHECK(r.exit_code == 3);
  CHECK(Has(r.err, "profile-errors.yaml:6:"));
  CHECK(Has(r.err, "'resnet' is not one of unet3d, cosmoflow, resnet50; did you mean 'resnet50'?"));
  CHECK(Has(r.err, "profile-errors.yaml:8:"));
  CHECK(Has(r.err, "did you mean 'ro_mount'?"));
  CHECK(Has(r.err, "no advice given"));
  CHECK_FALSE(Has(r.out, "0 findings"));

  RunResult rw = RunFeedcheck({"advise", "--profile", Profile("output-mode-input.yaml")});
  CHECK(rw.exit_code == 3);
  CHECK(Has(rw.err, "'rw_mount' is an output mode; inputs are ro_mount, download, direct"));

  RunResult j = RunFeedcheck({"advise", "--profile", Profile("output-mode-input.yaml"), "--json"});
  CHECK(j.exit_code == 3);
  CHECK(j.Json()["kind"] == "feedcheck-report");
  CHECK(j.Json()["result"].contains("error"));
}

TEST_CASE("the replication plan when one node outruns an account", "[cli][advise][egress][edges]") {
  RunResult r = RunFeedcheck(
      {"advise", "--profile", Profile("h100-one-node-50g.yaml"), "--json", "--fail-on", "never"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  auto json = r.Json();
  const nlohmann::json* f = FindingOf(json, "egress-nodes-beyond-account");
  REQUIRE(f);
  std::string m = (*f)["message"];
  CHECK(Has(m, "1 node x 80.0 Gbit/s = 80.0 Gbit/s exceeds the account's 50.0 Gbit/s"));
  CHECK(Has(m, "cannot feed even one node at full rate"));
  CHECK(Has(m, "stripe the data across 2 storage accounts"));
  CHECK(Has(m, "put shard s in account (s mod 2) + 1"));
  CHECK_FALSE(Has(m, "0 nodes"));
  CHECK_FALSE(Has(m, "rank 0 -> account 1"));

  RunResult e = RunFeedcheck(
      {"egress", "--sku", "Standard_ND96isr_H100_v5", "--region", "italynorth", "--nodes", "16"});
  INFO(e.err);
  REQUIRE(e.exit_code == 0);
  // The explanation column wraps in the terminal: read it with the line breaks folded.
  CHECK(Has(FoldSpaces(e.out), "stripe shards over all 26 accounts: one node needs 2"));
  CHECK(Has(e.out, "Nodes at full NIC rate              0"));
  CHECK(Has(e.out, "1  node (50 / 1 = 50 Gbit/s each)"));
  CHECK_FALSE(Has(e.out, "1  nodes"));
  RunResult ej = RunFeedcheck({"egress", "--sku", "Standard_ND96isr_H100_v5", "--region",
                               "italynorth", "--nodes", "16", "--json"});
  auto plan = ej.Json()["result"];
  CHECK(plan["accounts"] == 26);
  CHECK(plan["accounts_striped"] == true);
  CHECK(plan["accounts_per_node"] == 2);
  CHECK(plan["node_split"] == "");
}

TEST_CASE("advice checks its own premises: data larger than the disk", "[cli][advise][edges]") {
  RunResult big = RunFeedcheck({"advise", "--profile", Profile("data-larger-than-disk.yaml"),
                                "--json", "--fail-on", "never"});
  INFO(big.err);
  REQUIRE(big.exit_code == 0);
  auto big_json = big.Json();
  const nlohmann::json* f = FindingOf(big_json, "mount-small-files-multi-epoch");
  REQUIRE(f);
  std::string m = (*f)["message"];
  CHECK_FALSE(Has(m, "later epochs read from the local disk"));
  CHECK(Has(m, "the data is larger than the local disk"));

  RunResult small = RunFeedcheck(
      {"advise", "--profile", Profile("data-fits-disk.yaml"), "--json", "--fail-on", "never"});
  REQUIRE(small.exit_code == 0);
  auto small_json = small.Json();
  // Data that fits the disk and is read more than once is decided for download, and judged as
  // a download: the mount's cache advice for the mount advised against is not in the report.
  CHECK(FindingOf(small_json, "download-fits-and-rereads") != nullptr);
  CHECK(FindingOf(small_json, "mount-small-files-multi-epoch") == nullptr);
}

TEST_CASE("findings are ordered by how far past a limit they are", "[cli][advise][edges]") {
  RunResult r = RunFeedcheck(
      {"advise", "--profile", Profile("requests-13x.yaml"), "--json", "--fail-on", "never"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  auto j = r.Json();
  REQUIRE(j["findings"].size() >= 2);
  const auto& first = j["findings"][0];
  CHECK(first["rule_id"] == "requests-beyond-account");
  CHECK(first["severity"] == "critical");  // more than 2x over a hard account limit
  CHECK(first["escalated"] == true);
  // The nodes pull at most the account's egress: min(12 x 24, 200) Gbit/s of 64 KiB files is
  // 381,470 requests/s, 9.5x the 40,000 (not the 13.7x of the NICs alone).
  CHECK(first["excess"].get<double>() == Approx(25e9 / 65536 / 40000).epsilon(0.001));
  // 12 x 24 = 288 of 200 Gbit/s is 1.44x: a warning, after the critical one.
  const nlohmann::json* egress = FindingOf(j, "egress-nodes-beyond-account");
  REQUIRE(egress);
  CHECK((*egress)["severity"] == "warning");
  CHECK((*egress)["excess"].get<double>() == Approx(1.44));
  // Within a severity: the larger excess first, findings without one after.
  for (size_t i = 1; i < j["findings"].size(); ++i) {
    const auto& a = j["findings"][i - 1];
    const auto& b = j["findings"][i];
    if (a["severity"] != b["severity"]) continue;
    if (b["excess"].is_number()) {
      REQUIRE(a["excess"].is_number());
      CHECK(a["excess"].get<double>() >= b["excess"].get<double>());
    }
  }
  RunResult text = RunFeedcheck({"advise", "--profile", Profile("requests-13x.yaml")});
  CHECK(text.exit_code == 1);  // the critical finding fails at --fail-on critical
  CHECK(Has(text.out, "CRITICAL"));
  CHECK(Has(text.out, "[requests-beyond-account]"));
  CHECK(Has(text.out, "9.54x its limit"));
}

TEST_CASE("retired sizes are sized and flagged", "[cli][advise][egress][edges]") {
  RunResult e = RunFeedcheck({"egress", "--sku", "NC24s_v3", "--region", "eastus", "--nodes", "4"});
  REQUIRE(e.exit_code == 0);
  CHECK(Has(e.out, "Standard_NC24s_v3 (retired 2025-09-30)"));
  CHECK(Has(e.out,
            "https://learn.microsoft.com/azure/virtual-machines/ncv3-nc6s-nc12s-nc24s-retirement"));
  // In the table of all sizes, the retirement date has a column of its own, so the size
  // column (and its JSON value) is the name a program matches.
  RunResult all = RunFeedcheck({"egress", "--all", "--json"});
  const nlohmann::json all_json = all.Json();
  int retired = 0;
  for (const auto& t : all_json["tables"])
    if (t["title"] == "By VM size")
      for (const auto& row : t["rows"]) {
        CHECK(row["sku"].get<std::string>().find(' ') == std::string::npos);
        if (row["sku"] == "Standard_NC6s_v3" || row["sku"] == "Standard_NC12s_v3") {
          CHECK(row["retired_on"] == "2025-09-30");
          ++retired;
        }
        if (row["sku"] == "Standard_ND96asr_v4") CHECK(row["retired_on"] == "");
      }
  CHECK(retired == 2);
  RunResult all_text = RunFeedcheck({"egress", "--all"});
  CHECK(Has(all_text.out, "Retired"));
  CHECK(Has(all_text.out, "2025-09-30"));
  RunResult plan =
      RunFeedcheck({"plan", "--bytes", "1TB", "--files", "1000", "--sku", "Standard_NC6s_v3"});
  CHECK(Has(plan.out, "Standard_NC6s_v3 (retired 2025-09-30)"));
  RunResult a = RunFeedcheck(
      {"advise", "--profile", Profile("retired-size.yaml"), "--json", "--fail-on", "never"});
  REQUIRE(a.exit_code == 0);
  auto a_json = a.Json();
  const nlohmann::json* f = FindingOf(a_json, "vm-size-retired");
  REQUIRE(f);
  CHECK(Has((*f)["message"], "Standard_NC24s_v3 was retired on 2025-09-30"));
  RunResult current = RunFeedcheck({"advise", "--profile", Profile("italynorth-standard-gpv2.yaml"),
                                    "--json", "--fail-on", "never"});
  auto current_json = current.Json();
  CHECK(FindingOf(current_json, "vm-size-retired") == nullptr);
}

TEST_CASE("postmortem looks the account up as egress does", "[cli][postmortem][edges]") {
  const std::string job = std::string(FEEDCHECK_SOURCE_DIR) + "/tests/data/joblogs/job-demo";
  auto account_facts = [&](const std::string& region, const std::string& kind) {
    RunResult r =
        RunFeedcheck({"postmortem", job, "--sku", "Standard_ND96asr_v4", "--nodes", "2", "--region",
                      region, "--account-kind", kind, "--format", "json", "--fail-on", "never"});
    std::map<std::string, nlohmann::json> out;
    auto j = r.Json();
    if (!j.is_object()) return out;
    for (const auto& f : j["evidence"]["facts"])
      if (f["key"].get<std::string>().rfind("account.", 0) == 0) out[f["key"]] = f["value"];
    return out;
  };
  auto italy = account_facts("italynorth", "standard_gpv2");
  CHECK(italy["account.egress_gbps"] == 50.0);
  CHECK(italy["account.requests_per_s"] == 20000.0);
  // A named target other than standard GPv2 is that target, whatever the region.
  auto premium = account_facts("eastus", "premium_block_blob");
  CHECK(premium["account.kind"] == "premium_block_blob");
  CHECK(premium.count("account.egress_gbps") == 0);  // no published limit
}

TEST_CASE("settings a user's rule advises are checked against the guide's",
          "[cli][advise][rules][edges]") {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("feedcheck_edges_rules_" + std::to_string(getpid()));
  fs::create_directories(dir);
  {
    std::ofstream out(dir / "mine.yaml");
    out << "- id: prune-late\n"
           "  severity: info\n"
           "  title: Prune the cache late\n"
           "  when: node.count >= 1\n"
           "  say: prune late\n"
           "  env:\n"
           "    DATASET_MOUNT_FILE_CACHE_PRUNE_THRESHOLD: 1.5\n"
           "    DATASET_MOUNT_READ_THREAD: 64\n"
           "  source: ours\n";
  }
  // The misspelt name is a warning when the rule is read (the runtime would ignore it) ...
  RunResult validate = RunFeedcheck({"rules", "validate", (dir / "mine.yaml").string()});
  CHECK(Has(validate.out + validate.err, "R214"));
  CHECK(Has(validate.out + validate.err, "did you mean 'DATASET_MOUNT_READ_THREADS'?"));
  // ... and the out-of-range value is named beside the advice that pastes it.
  RunResult r =
      RunFeedcheck({"advise", "--rules", dir.string(), "--profile",
                    Profile("italynorth-standard-gpv2.yaml"), "--json", "--fail-on", "never"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  std::string warnings = r.Json()["context"]["warnings"].dump();
  CHECK(Has(warnings, "rule prune-late advises DATASET_MOUNT_FILE_CACHE_PRUNE_THRESHOLD=1.5"));
  CHECK(Has(warnings, "1.5 is outside 0 to 1"));
  CHECK(Has(warnings, "Available mount settings"));
  fs::remove_all(dir);
}
