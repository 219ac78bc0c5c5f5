// advise as a function: profiles and facts files -> findings, settings and the env block.
#include "app/advise_workflow.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "app_test_support.h"
#include "core/diagnostic_codes.h"

using namespace feedcheck;
using namespace feedcheck::app;
using namespace feedcheck::app::testing;

namespace {
std::string Example(const std::string& name) { return SourcePath("examples/" + name); }

std::map<std::string, std::string> Env(const Report& r) {
  std::map<std::string, std::string> env;
  for (const auto& e : r.env) env[e.name] = e.value;
  return env;
}

Outcome Advise(std::vector<std::string> facts, std::string profile, std::string fail_on = "never",
               std::string env_format = "yaml") {
  AdviseRequest request;
  request.facts_files = std::move(facts);
  request.profile = std::move(profile);
  request.fail_on = std::move(fail_on);
  request.env_format = std::move(env_format);
  Outcome out = RunAdvise(request);
  for (const auto& d : out.diagnostics.kept()) UNSCOPED_INFO(FormatDiagnostic(d));
  return out;
}

std::map<std::string, std::string> Messages(const Report& r) {
  std::map<std::string, std::string> by_id;
  for (const auto& f : r.findings) by_id[f.rule_id] = f.message;
  return by_id;
}

const ConfigFragment* Fragment(const Report& r, const std::string& kind) {
  for (const auto& c : r.config)
    if (c.kind == kind) return &c;
  return nullptr;
}
}  // namespace

TEST_CASE("advise: each scenario profile yields exactly the guide's env vars", "[app][advise]") {
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
      // 400 GB fits the D15_v2's 1,000 GiB disk: the guide's "When to use download" (random
      // positions of a large file) is decided, so the mount's whole-file cache setting is not
      // pasted beside it (it would do nothing on a downloaded input).
      {"large-file-random-seeks.yaml", {}},
  };
  for (const auto& [profile, env] : expected) {
    INFO(profile);
    // With the knowledge base in play (sku, region), nothing else may add env vars.
    Outcome out = Advise({}, Example(profile));
    REQUIRE(out.status == ExitStatus::kOk);
    CHECK(Env(out.report) == env);
    CHECK(ResultNumber(out.report, "env_conflicts") == 0);
    CHECK(ResultNumber(out.report, "settings") == static_cast<double>(env.size()));
    CHECK(out.diagnostics.total() == 0);
  }
}

TEST_CASE("advise: findings with evidence, rules not evaluated and the env block",
          "[app][advise]") {
  Outcome out = Advise({}, Example("large-file-sequential-once.yaml"));
  REQUIRE(out.status == ExitStatus::kOk);
  const Report& r = out.report;
  auto messages = Messages(r);
  REQUIRE(messages.count("mount-large-sequential-once"));
  bool readers = false;
  for (const auto& f : r.findings)
    for (const auto& e : f.evidence)
      readers =
          readers || (e.key == "workload.readers" && e.provenance.origin == FactOrigin::kDeclared);
  CHECK(readers);
  bool latency_skipped = false;
  for (const auto& s : r.skipped)
    if (s.rule_id == "cross-region-latency")
      for (const auto& m : s.missing_facts) latency_skipped |= m == "probe.latency.connect_ms";
  CHECK(latency_skipped);
  CHECK(ResultNumber(r, "not_evaluated") == static_cast<double>(r.skipped.size()));
  CHECK(ResultNumber(r, "findings") == static_cast<double>(r.findings.size()));
  const ConfigFragment* env = Fragment(r, "environment variables (yaml)");
  REQUIRE(env);
  CHECK(env->text ==
        "environment_variables:\n"
        "  DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED: \"true\"\n"
        "  DATASET_MOUNT_BLOCK_FILE_CACHE_ENABLED: \"false\"\n"
        "  DATASET_MOUNT_MEMORY_CACHE_SIZE: \"0\"\n"
        "  DATASET_MOUNT_READ_BUFFER_BLOCK_COUNT: \"80\"\n");
  CHECK(r.config.size() >= 2);  // and the BlobFuse2 fragment
  CHECK(ResultNumber(r, "config_fragments") == static_cast<double>(r.config.size() - 1));
}

TEST_CASE("advise --env-format shell and python", "[app][advise]") {
  Outcome shell = Advise({}, Example("large-file-multithread-once.yaml"), "never", "shell");
  const ConfigFragment* s = Fragment(shell.report, "environment variables (shell)");
  REQUIRE(s);
  CHECK(s->text.find("export DATASET_MOUNT_BLOCK_FILE_CACHE_ENABLED='false'\n") !=
        std::string::npos);
  Outcome py = Advise({}, Example("small-files-multi-epoch.yaml"), "never", "python");
  const ConfigFragment* p = Fragment(py.report, "environment variables (python)");
  REQUIRE(p);
  CHECK(p->text.find(
            "env_var = {\n    \"DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED\": \"true\",\n}\n") !=
        std::string::npos);
  Outcome bad = Advise({}, Example("small-files-multi-epoch.yaml"), "never", "toml");
  CHECK(bad.status == ExitStatus::kUsage);
  CHECK(HasDiagnostic(bad.diagnostics, codes::kBadFlag, "--env-format"));
}

TEST_CASE("advise: 12 ND96asr_v4 nodes on one account get the replication plan",
          "[app][advise][egress]") {
  Outcome out = Advise({}, Example("egress-12-nodes-nd96asr-v4.yaml"));
  REQUIRE(out.status == ExitStatus::kOk);
  auto messages = Messages(out.report);
  REQUIRE(messages.count("egress-nodes-beyond-account"));
  const std::string m = messages["egress-nodes-beyond-account"];
  CHECK(m.find("12 nodes x 24.0 Gbit/s = 288 Gbit/s exceeds the account's 200 Gbit/s") !=
        std::string::npos);
  CHECK(m.find("one account feeds 8 nodes at full rate") != std::string::npos);
  CHECK(m.find("nodes 0-5 -> account 1, nodes 6-11 -> account 2") != std::string::npos);
  CHECK(m.find("from RANK") == std::string::npos);  // the node index, not the process rank
}

TEST_CASE("advise --fail-on and facts files", "[app][advise]") {
  std::string facts = WriteTempFile("facts.json", R"({"schema_version": 1, "facts": [
    {"key": "probe.errors.throttled_egress", "value": 12, "unit": "count",
     "provenance": {"origin": "measured", "source": "probe throughput"}}]})");
  Outcome critical = Advise({facts}, "", "critical");
  CHECK(critical.status == ExitStatus::kFindings);
  REQUIRE(critical.report.findings.size() == 1);
  CHECK(critical.report.findings[0].rule_id == "throttled-egress");
  CHECK(ResultNumber(critical.report, "critical") == 1);
  CHECK(Advise({facts}, "", "never").status == ExitStatus::kOk);
  Outcome none = Advise({}, "");
  CHECK(none.status == ExitStatus::kUsage);
  CHECK(HasDiagnostic(none.diagnostics, codes::kMissingInput, "--profile"));
  Outcome broken = Advise({WriteTempFile("broken.json", "{")}, "");
  CHECK(broken.status == ExitStatus::kInputError);
  CHECK(HasDiagnostic(broken.diagnostics, codes::kInputErrors, "no advice given"));
}

TEST_CASE("advise reads a saved report's evidence like a facts file", "[app][advise]") {
  // A saved result (--json of analyze, a probe, preflight) is a Report: its evidence counts.
  std::string saved = WriteTempFile("saved-report.json", R"({"schema_version": 1,
    "kind": "feedcheck-report", "title": "Probe", "evidence": {"schema_version": 1, "facts": [
    {"key": "probe.errors.throttled_egress", "value": 12, "unit": "count",
     "provenance": {"origin": "measured", "source": "probe throughput"}}]}})");
  Outcome out = Advise({saved}, "");
  REQUIRE(out.status == ExitStatus::kOk);
  REQUIRE(out.report.findings.size() == 1);
  CHECK(out.report.findings[0].rule_id == "throttled-egress");
}

TEST_CASE("advise layers measured facts over a profile and the knowledge base", "[app][advise]") {
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
  struct Seen {
    std::set<std::string> fired;
    double supply_gbps = -1;
    std::string supply_source;
  };
  auto run = [&](std::vector<std::string> facts) {
    Outcome out = Advise(std::move(facts), profile);
    REQUIRE(out.status == ExitStatus::kOk);
    Seen o;
    for (const auto& f : out.report.findings) o.fired.insert(f.rule_id);
    if (const Fact* f = out.report.evidence.facts.Find("supply.per_node_gbps")) {
      o.supply_gbps = f->number();
      o.supply_source = f->provenance.source;
    }
    return o;
  };
  Seen fast = run({measured(60)});
  CHECK(fast.supply_gbps == Approx(200.0 / 12));
  CHECK(fast.supply_source.find("probe.throughput.gbps") != std::string::npos);
  CHECK(fast.fired.count("gpu-demand-far-exceeds-supply") == 1);
  CHECK(fast.fired.count("egress-nodes-beyond-account") == 1);
  CHECK(fast.fired.count("supply-nodes-beyond-account") == 1);  // 200 / 60: 3 nodes at 60

  Seen slow = run({measured(5)});
  CHECK(slow.supply_gbps == Approx(5.0));
  CHECK(slow.fired.count("gpu-demand-far-exceeds-supply") == 1);
  CHECK(slow.fired.count("supply-nodes-beyond-account") == 0);  // 12 x 5 = 60 < 200

  Seen alone = run({});
  CHECK(alone.supply_gbps == Approx(200.0 / 12));
  CHECK(alone.supply_source.find("node.nic_gbps") != std::string::npos);
  CHECK(alone.fired.count("gpu-demand-far-exceeds-supply") == 1);
  CHECK(alone.fired.count("supply-nodes-beyond-account") == 0);  // nothing measured
  // A critical finding fails the run at the default --fail-on critical.
  CHECK(Advise({}, profile, "critical").status == ExitStatus::kFindings);
}

TEST_CASE("advise on a saved MPI ramp: the measured knee drives the cluster rules",
          "[app][advise][cluster]") {
  // `feedcheck-mpi --json probe throughput --ramp` on the emulated cluster of scripts/
  // mpi-netns.sh (3 ranks, 500 Mbit/s NICs, a 1 Gbit/s shared link) told the account allows
  // 10 Gbit/s: the knee at 2 nodes is a shared link, not the account (tests/data/mpi/README.md).
  const std::string ramp = SourcePath("tests/data/mpi/ramp_shared_link.json");
  Outcome alone = Advise({ramp}, "");
  REQUIRE(alone.status == ExitStatus::kOk);
  auto a = Messages(alone.report);
  REQUIRE(a.count("cluster-knee-below-prediction") == 1);
  CHECK(a["cluster-knee-below-prediction"].find("stopped growing at 2 nodes") != std::string::npos);
  CHECK(a["cluster-knee-below-prediction"].find("account's 10.0 Gbit/s egress limit") !=
        std::string::npos);
  CHECK(a.count("cluster-nodes-beyond-knee") == 0);  // no planned node count yet

  std::string plan = WriteTempFile("plan.yaml", "nodes: 8\n");
  Outcome planned = Advise({ramp}, plan);
  REQUIRE(planned.status == ExitStatus::kOk);
  auto p = Messages(planned.report);
  REQUIRE(p.count("cluster-nodes-beyond-knee") == 1);
  CHECK(p["cluster-nodes-beyond-knee"].find("nodes beyond 2 add no throughput") !=
        std::string::npos);
  CHECK(p["cluster-nodes-beyond-knee"].find("The planned 8 nodes") != std::string::npos);
  CHECK(p.count("cluster-knee-below-prediction") == 1);
  // 8 planned nodes x 500 Mbit/s fit a 10 Gbit/s account: the planning rule stays quiet, the
  // measurement speaks.
  CHECK(p.count("egress-nodes-beyond-account") == 0);

  // Warnings only: --fail-on critical passes.
  CHECK(Advise({ramp}, plan, "critical").status == ExitStatus::kOk);
}

TEST_CASE("advise on a saved MPI small-file result: files below the measured break-even",
          "[app][advise][cluster]") {
  // Recorded against Azurite (tests/data/mpi/README.md): break-even 3.30 MiB.
  const std::string result = SourcePath("tests/data/mpi/smallfiles_azurite.json");
  auto fired = [&](const std::string& median) {
    std::string profile =
        WriteTempFile("files-" + median + ".yaml", "dataset:\n  median_file: " + median + "\n");
    Outcome out = Advise({result}, profile, "critical");
    CHECK(out.status == ExitStatus::kOk);
    auto messages = Messages(out.report);
    auto it = messages.find("small-files-below-breakeven");
    return it == messages.end() ? std::string() : it->second;
  };
  std::string small = fired("100KB");
  CHECK(small.find("The median file (100 KB) is below the break-even size") != std::string::npos);
  CHECK(small.find("at about 3% of the per-request bandwidth") != std::string::npos);
  CHECK(fired("64MB").empty());
}

TEST_CASE("advise judges the mode it advises and pastes only what acts on it", "[app][advise]") {
  // Random seeks in 200 GB files that fit the disk: download is advised, and judged.
  Outcome out = Advise({}, Example("large-file-random-seeks.yaml"));
  REQUIRE(out.status == ExitStatus::kOk);
  CHECK(ResultText(out.report, "input_mode") == "download");
  CHECK(out.report.env.empty());
  // The mount's whole-file cache advice (mount-large-random-seeks) judges a mount: not here.
  CHECK(Messages(out.report).count("download-random-large-files") == 1);
  CHECK(Messages(out.report).count("mount-large-random-seeks") == 0);
  // No finding judges the mount the report advises against.
  for (const auto& f : out.report.findings) {
    INFO(f.rule_id);
    for (const auto& e : f.evidence)
      if (e.key == "workload.mode" && f.rule_id != "download-random-large-files")
        CHECK(e.text() == "download");
  }
}
