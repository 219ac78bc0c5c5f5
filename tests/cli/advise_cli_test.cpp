#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "run_feedcheck.h"

namespace {
std::string Example(const std::string& name) {
  return std::string(FEEDCHECK_SOURCE_DIR) + "/examples/" + name;
}
std::map<std::string, std::string> Env(const nlohmann::json& j) {
  std::map<std::string, std::string> env;
  for (const auto& [k, v] : j["env"].items()) env[k] = v.get<std::string>();
  return env;
}

// A directory of rules files in the test's scratch directory.
std::string WriteRulesDir(const std::string& name, const std::string& yaml) {
  std::filesystem::path dir =
      std::filesystem::path(WriteTempFile(name + ".marker", "")).parent_path() / name;
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "rules.yaml") << yaml;
  return dir.string();
}
}  // namespace

TEST_CASE("advise: each scenario profile yields exactly the guide's env vars", "[cli][advise]") {
  const std::map<std::string, std::map<std::string, std::string>> expected = {
      {"large-file-sequential-once.yaml",
       {{"DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED", "true"},
        {"DATASET_MOUNT_BLOCK_FILE_CACHE_ENABLED", "false"},
        {"DATASET_MOUNT_MEMORY_CACHE_SIZE", "0"},
        {"DATASET_MOUNT_READ_BUFFER_BLOCK_COUNT", "80"}}},
      {"large-file-multithread-once.yaml",
       {{"DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED", "true"},
        {"DATASET_MOUNT_BLOCK_FILE_CACHE_ENABLED", "false"},
        {"DATASET_MOUNT_MEMORY_CACHE_SIZE", "0"}}},
      {"small-files-one-epoch.yaml",
       {{"DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED", "true"},
        {"DATASET_MOUNT_BLOCK_FILE_CACHE_ENABLED", "false"},
        {"DATASET_MOUNT_MEMORY_CACHE_SIZE", "0"}}},
      {"small-files-multi-epoch.yaml", {{"DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED", "true"}}},
      {"large-file-random-seeks.yaml", {{"DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED", "false"}}},
  };
  for (const auto& [profile, env] : expected) {
    INFO(profile);
    // With the knowledge base in play (sku, region), nothing else may add env vars.
    RunResult r = RunFeedcheck({"advise", "--profile", Example(profile), "--json"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    auto j = r.Json();
    REQUIRE(j.is_object());
    CHECK(j["schema_version"] == 1);
    CHECK(Env(j) == env);
    CHECK(j["env_conflicts"].empty());
    CHECK(j["diagnostics"].empty());
  }
}

TEST_CASE("advise prints findings, not-evaluated rules and the env block", "[cli][advise]") {
  RunResult r = RunFeedcheck(
      {"advise", "--profile", Example("large-file-sequential-once.yaml"), "--env-format", "yaml"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("INFO      mount-large-sequential-once:") != std::string::npos);
  CHECK(r.out.find("workload.readers = 1  (declared, ") != std::string::npos);
  // Rules not evaluated: one line by default, the list with -v.
  CHECK(r.out.find("Not evaluated (missing facts):") == std::string::npos);
  CHECK(r.out.find("rules need facts this run did not have; -v lists them") != std::string::npos);
  RunResult verbose =
      RunFeedcheck({"-v", "advise", "--profile", Example("large-file-sequential-once.yaml")});
  CHECK(verbose.out.find("Not evaluated (missing facts):") != std::string::npos);
  CHECK(
      verbose.out.find("cross-region-latency: not evaluated (missing probe.latency.connect_ms)") !=
      std::string::npos);
  CHECK(r.out.find("environment_variables:\n"
                   "  DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED: \"true\"\n"
                   "  DATASET_MOUNT_BLOCK_FILE_CACHE_ENABLED: \"false\"\n"
                   "  DATASET_MOUNT_MEMORY_CACHE_SIZE: \"0\"\n"
                   "  DATASET_MOUNT_READ_BUFFER_BLOCK_COUNT: \"80\"\n") != std::string::npos);
  CHECK(r.out.find("BlobFuse2 config fragment:") != std::string::npos);
}

TEST_CASE("advise --env-format shell and python", "[cli][advise]") {
  RunResult shell = RunFeedcheck(
      {"advise", "--profile", Example("large-file-random-seeks.yaml"), "--env-format", "shell"});
  CHECK(shell.out.find("export DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED='false'\n") !=
        std::string::npos);
  RunResult py = RunFeedcheck(
      {"advise", "--profile", Example("small-files-multi-epoch.yaml"), "--env-format", "python"});
  CHECK(
      py.out.find("env_var = {\n    \"DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED\": \"true\",\n}\n") !=
      std::string::npos);
  RunResult bad = RunFeedcheck(
      {"advise", "--profile", Example("small-files-multi-epoch.yaml"), "--env-format", "toml"});
  CHECK(bad.exit_code == 2);
}

TEST_CASE("advise: 12 ND96asr_v4 nodes on one account get the replication plan",
          "[cli][advise][egress]") {
  RunResult r = RunFeedcheck({"advise", "--profile", Example("egress-12-nodes-nd96asr-v4.yaml"),
                              "--json", "--fail-on", "never"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  auto j = r.Json();
  bool egress = false;
  for (const auto& f : j["findings"]) {
    if (f["rule_id"] != "egress-nodes-beyond-account") continue;
    egress = true;
    std::string m = f["message"];
    CHECK(m.find("12 nodes x 24.0 Gbit/s = 288 Gbit/s exceeds the account's 200 Gbit/s") !=
          std::string::npos);
    CHECK(m.find("one account feeds 8 nodes at full rate") != std::string::npos);
    CHECK(m.find("nodes 0-5 -> account 1, nodes 6-11 -> account 2") != std::string::npos);
    CHECK(m.find("from RANK") == std::string::npos);  // the node index, not the process rank
  }
  CHECK(egress);
}

TEST_CASE("advise --fail-on and facts files", "[cli][advise]") {
  std::string facts = WriteTempFile("facts.json", R"({"schema_version": 1, "facts": [
    {"key": "probe.errors.throttled_egress", "value": 12, "unit": "count",
     "provenance": {"origin": "measured", "source": "probe throughput"}}]})");
  RunResult r = RunFeedcheck({"advise", facts, "--json"});
  INFO(r.err);
  CHECK(r.exit_code == 1);  // a critical finding, --fail-on critical by default
  auto j = r.Json();
  REQUIRE(j["findings"].size() == 1);
  CHECK(j["findings"][0]["rule_id"] == "throttled-egress");
  CHECK(RunFeedcheck({"advise", facts, "--fail-on", "never"}).exit_code == 0);
  CHECK(RunFeedcheck({"advise"}).exit_code == 2);
  std::string bad_rules_dir = WriteRulesDir("bad-rules", "- id: x\n");
  RunResult invalid = RunFeedcheck({"--rules", bad_rules_dir, "advise", facts});
  CHECK(invalid.exit_code == 3);
  CHECK(invalid.err.find("error[R004]: rule has no 'title'") != std::string::npos);
}

TEST_CASE("advise layers measured facts over a profile and the knowledge base", "[cli][advise]") {
  // The profile: 12 nodes of 24 Gbit/s on a 200 Gbit/s account, CosmoFlow's 51.2 Gbit/s per node.
  // A measured per-node rate replaces the NIC in the supply, but never beats the node's share of
  // the account (200 / 12 = 16.7 Gbit/s): 60 measured still gives 16.7; 5 measured gives 5.
  auto measured = [](double gbps) {
    return WriteTempFile("measured-" + std::to_string(int(gbps)) + ".json",
                         R"json({"schema_version": 1, "facts": [
    {"key": "probe.throughput.gbps", "value": )json" +
                             std::to_string(gbps) + R"json(, "unit": "Gbit/s",
     "provenance": {"origin": "measured", "source": "probe throughput (concurrency=64)"}}]})json");
  };
  const std::string profile = Example("egress-12-nodes-nd96asr-v4.yaml");
  struct Outcome {
    std::set<std::string> fired;
    double supply_gbps = -1;
    std::string supply_source;
  };
  auto run = [&](std::vector<std::string> args) {
    RunResult r = RunFeedcheck(args);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    Outcome o;
    const nlohmann::json j = r.Json();  // keep the document alive while iterating
    for (const auto& f : j["findings"]) o.fired.insert(f["rule_id"].get<std::string>());
    for (const auto& f : j["facts"]) {
      if (f["key"] != "supply.per_node_gbps") continue;
      o.supply_gbps = f["value"].get<double>();
      o.supply_source = f["provenance"]["source"].get<std::string>();
    }
    return o;
  };
  Outcome fast =
      run({"advise", measured(60), "--profile", profile, "--json", "--fail-on", "never"});
  CHECK(fast.supply_gbps == Approx(200.0 / 12));
  CHECK(fast.supply_source.find("probe.throughput.gbps") != std::string::npos);
  CHECK(fast.fired.count("gpu-demand-far-exceeds-supply") == 1);
  CHECK(fast.fired.count("egress-nodes-beyond-account") == 1);
  CHECK(fast.fired.count("supply-nodes-beyond-account") == 1);  // 200 / 60: 3 nodes at 60

  Outcome slow = run({"advise", measured(5), "--profile", profile, "--json", "--fail-on", "never"});
  CHECK(slow.supply_gbps == Approx(5.0));
  CHECK(slow.fired.count("gpu-demand-far-exceeds-supply") == 1);
  CHECK(slow.fired.count("supply-nodes-beyond-account") == 0);  // 12 x 5 = 60 < 200

  Outcome alone = run({"advise", "--profile", profile, "--json", "--fail-on", "never"});
  CHECK(alone.supply_gbps == Approx(200.0 / 12));
  CHECK(alone.supply_source.find("node.nic_gbps") != std::string::npos);
  CHECK(alone.fired.count("gpu-demand-far-exceeds-supply") == 1);
  CHECK(alone.fired.count("supply-nodes-beyond-account") == 0);  // nothing measured
  // A critical finding fails the run at the default --fail-on critical.
  CHECK(RunFeedcheck({"advise", "--profile", profile}).exit_code == 1);
}

TEST_CASE("advise on a saved MPI ramp: the measured knee drives the cluster rules",
          "[cli][advise][cluster]") {
  // `feedcheck-mpi --json probe throughput --ramp` on the emulated cluster of scripts/
  // mpi-netns.sh (3 ranks, 500 Mbit/s NICs, a 1 Gbit/s shared link) told the account allows
  // 10 Gbit/s: the knee at 2 nodes is a shared link, not the account (tests/data/mpi/README.md).
  const std::string ramp =
      std::string(FEEDCHECK_SOURCE_DIR) + "/tests/data/mpi/ramp_shared_link.json";
  auto findings = [](const RunResult& r) {
    std::map<std::string, std::string> by_id;
    const nlohmann::json j = r.Json();
    for (const auto& f : j["findings"])
      by_id[f["rule_id"].get<std::string>()] = f["message"].get<std::string>();
    return by_id;
  };
  RunResult alone = RunFeedcheck({"advise", ramp, "--json", "--fail-on", "never"});
  INFO(alone.err);
  REQUIRE(alone.exit_code == 0);
  auto a = findings(alone);
  REQUIRE(a.count("cluster-knee-below-prediction") == 1);
  CHECK(a["cluster-knee-below-prediction"].find("stopped growing at 2 nodes") != std::string::npos);
  CHECK(a["cluster-knee-below-prediction"].find("account's 10.0 Gbit/s egress limit") !=
        std::string::npos);
  CHECK(a.count("cluster-nodes-beyond-knee") == 0);  // no planned node count yet

  std::string plan = WriteTempFile("plan.yaml", "nodes: 8\n");
  RunResult planned =
      RunFeedcheck({"advise", ramp, "--profile", plan, "--json", "--fail-on", "never"});
  INFO(planned.err);
  REQUIRE(planned.exit_code == 0);
  auto p = findings(planned);
  REQUIRE(p.count("cluster-nodes-beyond-knee") == 1);
  CHECK(p["cluster-nodes-beyond-knee"].find("nodes beyond 2 add no throughput") !=
        std::string::npos);
  CHECK(p["cluster-nodes-beyond-knee"].find("The planned 8 nodes") != std::string::npos);
  CHECK(p.count("cluster-knee-below-prediction") == 1);
  // 8 planned nodes x 500 Mbit/s fit a 10 Gbit/s account: the planning rule stays quiet, the
  // measurement speaks.
  CHECK(p.count("egress-nodes-beyond-account") == 0);

  RunResult text = RunFeedcheck({"advise", ramp, "--profile", plan});
  CHECK(text.exit_code == 0);  // warnings only; --fail-on critical by default
  CHECK(text.out.find("cluster-nodes-beyond-knee") != std::string::npos);
}

TEST_CASE("advise on a saved MPI small-file result: files below the measured break-even",
          "[cli][advise][cluster]") {
  // Recorded against Azurite (tests/data/mpi/README.md): break-even 3.30 MiB.
  const std::string result =
      std::string(FEEDCHECK_SOURCE_DIR) + "/tests/data/mpi/smallfiles_azurite.json";
  auto fired = [&](const std::string& median) {
    std::string profile =
        WriteTempFile("files-" + median + ".yaml", "dataset:\n  median_file: " + median + "\n");
    RunResult r = RunFeedcheck({"advise", result, "--profile", profile, "--json"});
    INFO(r.err);
    CHECK(r.exit_code == 0);
    const nlohmann::json j = r.Json();
    for (const auto& f : j["findings"])
      if (f["rule_id"] == "small-files-below-breakeven") return f["message"].get<std::string>();
    return std::string();
  };
  std::string small = fired("100KB");
  // The size as the profile wrote it (100KB), not restated in KiB.
  CHECK(small.find("The median file (100 KB) is below the break-even size") != std::string::npos);
  CHECK(small.find("at about 3% of the per-request bandwidth") != std::string::npos);
  CHECK(fired("64MB").empty());
}
