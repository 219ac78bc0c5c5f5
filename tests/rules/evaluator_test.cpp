#include "rules/evaluator.h"

#include <catch2/catch.hpp>

#include "test_facts.h"

using namespace feedcheck;
using namespace feedcheck::rules;
using feedcheck::rules::test::Compile;
using feedcheck::rules::test::Facts;

namespace {
// "true", "false" or "unknown (missing a, b)".
std::string Eval(const std::string& text, const FactSet& facts) {
  std::string error;
  ExprPtr e = Compile(text, &error);
  if (!e) return "compile error " + error;
  std::vector<std::string> missing;
  Value v = Evaluate(*e, facts, &missing);
  if (!v.known()) {
    std::string out = "unknown (missing";
    for (const auto& m : missing) out += " " + m;
    return out + ")";
  }
  if (v.type == ValueType::kBool) return v.boolean ? "true" : "false";
  return FormatResult(*e, v);
}
}  // namespace

TEST_CASE("literals with units are converted to the fact's unit", "[rules][eval][units]") {
  FactSet f = Facts({"dataset.median_file_bytes=3MiB", "node.nic_gbps=24Gbit/s",
                     "probe.latency.ttfb_p50_ms=0.02s", "gpu.util_mean=40%"});
  CHECK(Eval("dataset.median_file_bytes < 4MiB", f) == "true");
  CHECK(Eval("dataset.median_file_bytes < 3MB", f) == "false");  // 3 MiB > 3 MB
  CHECK(Eval("node.nic_gbps == 3GB/s", f) == "true");            // 24 Gbit/s = 3 GB/s
  CHECK(Eval("node.nic_gbps > 23999Mbit/s", f) == "true");
  CHECK(Eval("probe.latency.ttfb_p50_ms == 20ms", f) == "true");
  CHECK(Eval("gpu.util_mean < 50", f) == "true");    // a bare number is in the fact's unit (%)
  CHECK(Eval("gpu.util_mean < 0.5", f) == "false");  // ... so 0.5 means 0.5%, not 50%
  CHECK(Eval("gpu.util_mean < 50%", f) == "true");
  CHECK(Eval("node.nic_gbps > 10", f) == "true");
}

TEST_CASE("unit mismatches and type mismatches are compile errors", "[rules][eval][units]") {
  std::string error;
  CHECK_FALSE(Compile("dataset.median_file_bytes < 24Gbit/s", &error));
  CHECK(error ==
        "R104@28: unit mismatch: dataset.median_file_bytes (bytes, a size) < 24Gbit/s "
        "(Gbit/s, a rate)");
  CHECK_FALSE(Compile("node.count > 4MiB", &error));
  CHECK(error.rfind("R104@13: unit mismatch: node.count (a count) > 4MiB", 0) == 0);
  CHECK_FALSE(Compile("workload.mode > 3", &error));
  CHECK(error.rfind("R105@0: type mismatch: '>' needs a number, but workload.mode is text", 0) ==
        0);
  CHECK_FALSE(Compile("workload.mode == 3", &error));
  CHECK(error.rfind("R105@17", 0) == 0);
  CHECK_FALSE(Compile("node.count and true", &error));
  CHECK(error.rfind("R105@0", 0) == 0);
  CHECK_FALSE(Compile("node.cont > 1", &error));
  CHECK(error == "R103@0: unknown fact 'node.cont'; did you mean 'node.count'?");
  CHECK_FALSE(Compile("frob(node.count)", &error));
  CHECK(error.rfind("R107@0: unknown function 'frob'", 0) == 0);
  CHECK_FALSE(Compile("min(node.count)", &error));
  CHECK(error == "R107@0: min() takes 2 or more argument(s), got 1");
  CHECK_FALSE(Compile("exists(3)", &error));
  CHECK(error == "R107@7: exists() takes a fact key");
  CHECK_FALSE(Compile("coalesce(node.nic_gbps, dataset.bytes) > 1", &error));
  CHECK(error.rfind("R104@24", 0) == 0);
}

TEST_CASE("arithmetic across dimensions gives the right unit", "[rules][eval][units]") {
  FactSet f = Facts({"dataset.bytes=50000MB", "node.nic_gbps=1500Mbit/s", "node.count=12",
                     "account.egress_gbps=200Gbit/s", "dataset.median_file_bytes=100KB",
                     "account.requests_per_s=40000"});
  // The guide: 50 GB over a 1,500 Mbit/s NIC takes ~270 s (266.7).
  CHECK(Eval("dataset.bytes / node.nic_gbps", f) == "4 min 27 s");
  CHECK(Eval("dataset.bytes / node.nic_gbps > 260s", f) == "true");
  CHECK(Eval("dataset.bytes / node.nic_gbps < 4.5min", f) == "true");
  CHECK(Eval("account.egress_gbps / node.count", f) == "16.7 Gbit/s");
  CHECK(Eval("node.count * node.nic_gbps", f) == "18.0 Gbit/s");
  CHECK(Eval("account.egress_gbps / node.nic_gbps", f) == "133");  // a plain ratio
  // 12 x 1.5 Gbit/s / 100 KB = 22,500 requests/s.
  CHECK(Eval("node.count * node.nic_gbps / dataset.median_file_bytes", f) == "22,500/s");
  CHECK(Eval("node.count * node.nic_gbps / dataset.median_file_bytes < account.requests_per_s",
             f) == "true");
  CHECK(Eval("node.nic_gbps * 10s", f) == "1.75 GiB");
}

TEST_CASE("missing facts make a result unknown unless the known side decides it",
          "[rules][eval][missing]") {
  FactSet f = Facts({"node.count=4", "workload.mode=ro_mount"});
  CHECK(Eval("node.count > 2 and node.nic_gbps > 10", f) == "unknown (missing node.nic_gbps)");
  CHECK(Eval("node.count > 8 and node.nic_gbps > 10", f) == "false");
  CHECK(Eval("node.count > 2 or node.nic_gbps > 10", f) == "true");
  CHECK(Eval("node.count > 8 or node.nic_gbps > 10", f) == "unknown (missing node.nic_gbps)");
  CHECK(Eval("not (node.gpus > 1)", f) == "unknown (missing node.gpus)");
  CHECK(Eval("exists(node.gpus)", f) == "false");
  CHECK(Eval("exists(node.count)", f) == "true");
  CHECK(Eval("coalesce(node.gpus, node.count) == 4", f) == "true");
  CHECK(Eval("coalesce(node.gpus, node.vcpus) == 4", f) ==
        "unknown (missing node.gpus node.vcpus)");
  CHECK(Eval("sum(probe.errors.throttled_egress, metrics.throttled.ServerBusyError) > 0", f) ==
        "unknown (missing probe.errors.throttled_egress metrics.throttled.ServerBusyError)");
  FactSet g = Facts({"metrics.throttled.ServerBusyError=3"});
  CHECK(Eval("sum(probe.errors.throttled_egress, metrics.throttled.ServerBusyError)", g) == "3");
  CHECK(Eval("node.count / 0 > 1", f).find("unknown (missing (division by zero") == 0);
  CHECK(Eval("workload.mode in [\"ro_mount\", \"download\"]", f) == "true");
  CHECK(Eval("workload.mode not in [\"ro_mount\"]", f) == "false");
}

TEST_CASE("facts of another unit or type are converted or reported", "[rules][eval][missing]") {
  FactSet f;
  f.Set(NumberFact("node.nic_gbps", 24000, Unit::kMbps, {}));  // another unit, same dimension
  f.Set(TextFact("node.count", "twelve", {}));                 // wrong type
  CHECK(Eval("node.nic_gbps == 24", f) == "true");
  CHECK(Eval("node.count > 1", f) == "unknown (missing node.count (wrong type or unit))");
  FactSet g = Facts({"runtime.setting.RSLEX_DOWNLOADER_THREADS=lots"});
  CHECK(Eval("num(runtime.setting.RSLEX_DOWNLOADER_THREADS) > 1", g)
            .find("unknown (missing (runtime.setting.RSLEX_DOWNLOADER_THREADS is not a number") ==
        0);
}

TEST_CASE("functions", "[rules][eval]") {
  FactSet f = Facts({"node.count=12", "node.nic_gbps=24Gbit/s", "account.egress_gbps=200Gbit/s",
                     "runtime.setting.DATASET_MOUNT_READ_THREADS=16"});
  CHECK(Eval("floor(account.egress_gbps / node.nic_gbps)", f) == "8");
  CHECK(Eval("ceil(node.count * node.nic_gbps / account.egress_gbps)", f) == "2");
  CHECK(Eval("round(2.5)", f) == "3");
  CHECK(Eval("min(node.nic_gbps, 10Gbit/s)", f) == "10.0 Gbit/s");
  CHECK(Eval("max(node.nic_gbps, 3GB/s, 1Gbit/s)", f) == "24.0 Gbit/s");
  CHECK(Eval("num(runtime.setting.DATASET_MOUNT_READ_THREADS) * 2", f) == "32");
  CHECK(Eval("rank_plan(node.count, 2)", f) == "nodes 0-5 -> account 1, nodes 6-11 -> account 2");
}

TEST_CASE("rank_plan splits node indexes into contiguous balanced blocks", "[rules][eval]") {
  CHECK(RankPlan(12, 2) == "nodes 0-5 -> account 1, nodes 6-11 -> account 2");
  CHECK(RankPlan(12, 3) ==
        "nodes 0-3 -> account 1, nodes 4-7 -> account 2, nodes 8-11 -> account 3");
  CHECK(RankPlan(7, 3) == "nodes 0-2 -> account 1, nodes 3-4 -> account 2, nodes 5-6 -> account 3");
  CHECK(RankPlan(2, 5) == "node 0 -> account 1, node 1 -> account 2");
  CHECK(RankPlan(1, 1) == "node 0 -> account 1");
  CHECK(RankPlan(std::nan(""), 1) == "?");
}
