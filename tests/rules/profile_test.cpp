#include "rules/profile.h"

#include <catch2/catch.hpp>

#include "core/diagnostic_codes.h"
#include "rules/rule_messages.h"

using namespace feedcheck;
using namespace feedcheck::rules;

TEST_CASE("profile fields become declared facts with file:line", "[rules][profile]") {
  Profile p;
  DiagnosticList d;
  REQUIRE(LoadProfileText("p.yaml", R"(nodes: 12
sku: Standard_ND96asr_v4
region: East US
compute_region: westeurope
dataset:
  bytes: 2TB
  files: 2,000,000
  median_file: 500KB
workload:
  epochs: 3
  access: shuffled_files
  readers: 8
  mode: ro_mount
  delayed_start_ok: no
gpu:
  preset: unet3d
facts:
  probe.throughput.gbps: 2.5GB/s
)",
                          &p, &d));
  CHECK(d.total() == 0);
  CHECK(p.sku == "Standard_ND96asr_v4");
  CHECK(p.region == "East US");
  CHECK(p.facts.Number("node.count") == 12);
  CHECK(p.facts.Number("dataset.bytes") == 2e12);
  CHECK(p.facts.Number("dataset.files") == 2e6);
  CHECK(p.facts.Number("dataset.median_file_bytes") == 5e5);
  CHECK(p.facts.Text("workload.access") == "shuffled_files");
  CHECK(p.facts.Bool("workload.delayed_start_ok") == false);
  const auto same_region = SameRegionFact(p, p.region);
  REQUIRE(same_region);
  CHECK(std::get<bool>(same_region->value) == false);
  CHECK(same_region->provenance.line > 0);
  CHECK(SameRegionFact(p, "westeurope"));
  CHECK(std::get<bool>(SameRegionFact(p, "West Europe")->value) == true);
  CHECK(p.facts.Number("workload.gpu_demand_per_gpu_gbps") == Approx(25.6));
  CHECK(p.facts.Number("probe.throughput.gbps") == Approx(20));
  const Fact* f = p.facts.Find("dataset.median_file_bytes");
  REQUIRE(f);
  CHECK(f->provenance.origin == FactOrigin::kDeclared);
  CHECK(f->provenance.file == "p.yaml");
  CHECK(f->provenance.line == 8);
  CHECK(p.facts.Find("workload.gpu_demand_per_gpu_gbps")->provenance.source.find("preset unet3d") ==
        0);
}

TEST_CASE("bad profile fields are reported with their line and skipped", "[rules][profile]") {
  Profile p;
  DiagnosticList d;
  REQUIRE(LoadProfileText("p.yaml", R"(nodes: 4
dataset:
  median_file: 20Gbit/s
  filez: 3
workload:
  access: sideways
facts:
  node.cont: 3
)",
                          &p, &d));
  REQUIRE(d.total() == 4);
  CHECK(d.kept()[0].code == codes::kProfileValue);
  CHECK(d.kept()[0].location.line == 3);
  CHECK(d.kept()[0].message ==
        "dataset.median_file: '20Gbit/s' is a rate, but dataset.median_file_bytes is a size "
        "(bytes)");
  CHECK(d.kept()[1].code == codes::kProfileField);
  CHECK(d.kept()[1].location.line == 4);
  CHECK(d.kept()[1].message.rfind("unknown profile field 'dataset.filez'", 0) == 0);
  CHECK(d.kept()[2].message ==
        "'sideways' is not one of sequential, random, shuffled_files, columnar");
  CHECK(d.kept()[3].message == "unknown fact 'node.cont'; did you mean 'node.count'?");
  CHECK(p.facts.Number("node.count") == 4);  // the rest is kept
  CHECK_FALSE(p.facts.Has("dataset.median_file_bytes"));
}

TEST_CASE("a profile that is not a mapping or not YAML is an error", "[rules][profile]") {
  Profile p;
  DiagnosticList d;
  CHECK_FALSE(LoadProfileText("p.yaml", "- a\n- b\n", &p, &d));
  CHECK(d.kept().back().code == codes::kProfileField);
  CHECK_FALSE(LoadProfileText("p.yaml", "a: [\n", &p, &d));
  CHECK(d.kept().back().code == codes::kYamlSyntax);
  CHECK_FALSE(LoadProfile("/nonexistent/p.yaml", &p, &d));
}

TEST_CASE("a value that overflows in the fact's unit is an error", "[rules][profile]") {
  // Found by fuzz_units: 1e308 s is a finite quantity, but not in milliseconds.
  Fact f;
  std::string error;
  CHECK_FALSE(ParseFactValue("probe.latency.ttfb_p50_ms", "1e308 s", &f, &error));
  CHECK(error == "'1e308 s' is too large for probe.latency.ttfb_p50_ms (ms)");
  CHECK_FALSE(ParseFactValue("dataset.bytes", "1e308TB", &f, &error));
  REQUIRE(ParseFactValue("probe.latency.ttfb_p50_ms", "1e300 s", &f, &error));
  CHECK(f.number() == Approx(1e303));
}

TEST_CASE("a declared value outside its field's bounds is refused at its line",
          "[rules][profile]") {
  const char* text =
      "sku: Standard_ND96asr_v4\n"
      "node:\n"
      "  nic: 1e308\n"
      "dataset:\n"
      "  bytes: -5 TB\n"
      "  files: 0\n"
      "account_limits:\n"
      "  egress: 0\n"
      "  ingress: 60\n";
  Profile p;
  DiagnosticList d;
  LoadProfileText("p.yaml", text, &p, &d);
  REQUIRE(d.total() == 4);
  std::vector<int> lines;
  for (const auto& diag : d.kept()) {
    CHECK(diag.code == codes::kProfileValue);
    lines.push_back(diag.location.line);
  }
  CHECK(lines == std::vector<int>{3, 5, 6, 8});
  // The field as written (node.nic) and the fact it sets (node.nic_gbps), when they differ.
  CHECK(d.kept()[0].message == "node.nic: '1e308': node.nic_gbps must be at most 10.0 Tbit/s");
  CHECK(d.kept()[1].message == "'-5 TB': dataset.bytes cannot be negative");
  CHECK(d.kept()[2].message == "'0': dataset.files must be above 0");
  CHECK(d.kept()[3].message == "account_limits.egress: '0': account.egress_gbps must be above 0");
  // The valid field next to them is kept.
  CHECK(p.facts.Has("account.ingress_gbps"));
  CHECK_FALSE(p.facts.Has("account.egress_gbps"));
}

TEST_CASE("nodes must be a whole node count, as in a job file", "[rules][profile]") {
  for (const char* bad : {"0", "-3", "2.5", "1e10", "1000000"}) {
    INFO(bad);
    Profile p;
    DiagnosticList d;
    LoadProfileText("p.yaml", std::string("sku: Standard_D4s_v5\nnodes: ") + bad + "\n", &p, &d);
    REQUIRE(d.total() == 1);
    CHECK(d.kept()[0].code == codes::kProfileValue);
    CHECK(d.kept()[0].location.line == 2);
    CHECK(d.kept()[0].message.find("is not a node count") != std::string::npos);
    CHECK_FALSE(p.facts.Has("node.count"));
    CHECK(p.sku == "Standard_D4s_v5");  // the rest is kept
  }
  Profile p;
  DiagnosticList d;
  REQUIRE(LoadProfileText("p.yaml", "nodes: 999999\n", &p, &d));
  CHECK(p.facts.Number("node.count") == 999999);
}

TEST_CASE("input modes and presets: output modes and near misses are named", "[rules][profile]") {
  Profile p;
  DiagnosticList d;
  REQUIRE(
      LoadProfileText("p.yaml", "workload:\n  mode: rw_mount\ngpu:\n  preset: resnet\n", &p, &d));
  REQUIRE(d.total() == 2);
  CHECK(d.kept()[0].location.line == 2);
  CHECK(d.kept()[0].message.rfind(
            "'rw_mount' is an output mode; inputs are ro_mount, download, direct", 0) == 0);
  CHECK(d.kept()[1].location.line == 4);
  CHECK(d.kept()[1].message ==
        "'resnet' is not one of unet3d, cosmoflow, resnet50; did you mean 'resnet50'?");
  Profile q;
  DiagnosticList e;
  REQUIRE(LoadProfileText("q.yaml", "workload:\n  mode: mount\n", &q, &e));
  REQUIRE(e.total() == 1);
  CHECK(e.kept()[0].message.find("did you mean 'ro_mount'?") != std::string::npos);
  CHECK_FALSE(q.facts.Has("workload.mode"));
}

TEST_CASE("a key given twice is an error naming both lines", "[rules][profile]") {
  Profile p;
  DiagnosticList d;
  CHECK_FALSE(LoadProfileText("twice.yaml",
                              "nodes: 2\ndataset:\n  bytes: 1TB\n  bytes: 2TB\n"
                              "nodes: 8\n",
                              &p, &d));
  REQUIRE(d.kept().size() == 2);
  // Inner mapping first (it closes first in the parse), each at its repeat, naming the first.
  CHECK(d.kept()[0].code == codes::kDuplicateKey);
  CHECK(d.kept()[0].location.line == 4);
  CHECK(d.kept()[0].message.find("key 'bytes' is given twice in one mapping, at line 3 and "
                                 "again at line 4") == 0);
  CHECK(d.kept()[1].location.line == 5);
  CHECK(d.kept()[1].message.find("'nodes'") != std::string::npos);
  // The same key in two different mappings is fine.
  DiagnosticList ok;
  CHECK(LoadProfileText("ok.yaml",
                        "nodes: 2\ndataset:\n  bytes: 1TB\n  files: 10\nworkload:\n  epochs: 3\n",
                        &p, &ok));
  CHECK(ok.errors() == 0);
}

TEST_CASE("a profile's checkpoint cadence is a duration in seconds, anything else an error",
          "[rules][profile]") {
  struct Case {
    const char* text;
    double seconds;  // 0: refused, naming the line
  };
  const Case c =
      GENERATE(Case{"30min", 1800}, Case{"2h", 7200}, Case{"900s", 900}, Case{"45 min", 2700},
               Case{"0s", 0}, Case{"-5min", 0}, Case{"30GB", 0}, Case{"often", 0});
  Profile p;
  DiagnosticList d;
  REQUIRE(LoadProfileText(
      "p.yaml", std::string("workload:\n  epochs: 3\n  checkpoint_every: ") + c.text + "\n", &p,
      &d));
  INFO(c.text);
  if (c.seconds > 0) {
    CHECK(d.total() == 0);
    CHECK(p.facts.Number("workload.checkpoint_every_s") == Approx(c.seconds));
    CHECK(p.facts.Find("workload.checkpoint_every_s")->provenance.line == 3);
  } else {
    REQUIRE(d.total() == 1);
    CHECK(d.kept()[0].code == codes::kProfileValue);
    CHECK(d.kept()[0].location.line == 3);
    CHECK_FALSE(p.facts.Find("workload.checkpoint_every_s"));
  }
  CHECK(p.facts.Number("workload.epochs") == 3);  // the rest is kept
}
