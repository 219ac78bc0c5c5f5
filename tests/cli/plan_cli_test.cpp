// plan through the binary: the JSON shape, the tables for people, exit codes. What plan
// computes is tested against app::RunPlan in tests/app/plan_workflow_test.cpp.
#include <catch2/catch.hpp>
#include <map>

#include "run_feedcheck.h"

TEST_CASE("plan --json: the Report shape, result keys as before", "[cli][plan]") {
  RunResult r =
      RunFeedcheck({"plan", "--bytes", "1TB", "--mean-file-bytes", "500KB", "--sku",
                    "Standard_ND96asr_v4", "--nodes", "12", "--region", "eastus", "--json"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  auto j = r.Json();
  CHECK(j["schema_version"] == 1);
  CHECK(j["kind"] == "feedcheck-report");
  auto res = j["result"];
  CHECK(res["files"] == 2000000);
  CHECK(res["get_requests"] == 2000000);
  CHECK(res["fits_on_disk"] == true);
  CHECK(res["small_files"] == true);
  CHECK(res["epoch_bound"] == "request rate");
  std::map<std::string, nlohmann::json> facts;
  for (const auto& f : j["evidence"]["facts"]) facts[f["key"]] = f;
  CHECK(facts["plan.get_requests"]["value"] == 2000000);
  CHECK(facts["dataset.bytes"]["provenance"]["origin"] == "declared");
  CHECK(j["tables"].size() == 3);
}

TEST_CASE("plan human output: requests, times and the small-file warning", "[cli][plan]") {
  RunResult r = RunFeedcheck({"plan", "--dirs", "1000", "--files-per-dir", "10000", "--bytes",
                              "1TB", "--sku", "Standard_ND96asr_v4", "--request-latency-ms", "20"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("2,001") != std::string::npos);
  CHECK(r.out.find("10,000,000") != std::string::npos);
  CHECK(r.out.find("Fits on local disk") != std::string::npos);
  CHECK(r.out.find("WARNING: under 4 MiB") != std::string::npos);
  RunResult d2 = RunFeedcheck({"plan", "--bytes", "50GB", "--files", "50", "--sku", "D2_v2"});
  REQUIRE(d2.exit_code == 0);
  CHECK(d2.out.find("267 s") != std::string::npos);
  CHECK(d2.out.find("188 MB/s") != std::string::npos);
}

TEST_CASE("plan: errors name the flag and exit 2", "[cli][plan][errors]") {
  RunResult bytes = RunFeedcheck({"plan", "--bytes", "lots", "--files", "10"});
  CHECK(bytes.exit_code == 2);
  CHECK(bytes.err.find("--bytes") != std::string::npos);
  RunResult shape = RunFeedcheck({"plan", "--bytes", "1TB"});
  CHECK(shape.exit_code == 2);
  CHECK(shape.err.find("file count is unknown") != std::string::npos);
  RunResult both =
      RunFeedcheck({"plan", "--bytes", "1TB", "--files", "10", "--json", "-f", "html"});
  CHECK(both.exit_code == 2);
  CHECK(both.err.find("--format html") != std::string::npos);
}
