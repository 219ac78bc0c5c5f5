#include <catch2/catch.hpp>
#include <map>

#include "run_feedcheck.h"

namespace {

nlohmann::json PlanJson(std::vector<std::string> args) {
  args.insert(args.begin(), "plan");
  args.push_back("--json");
  RunResult r = RunFeedcheck(args);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  auto j = r.Json();
  REQUIRE(j.is_object());
  REQUIRE(j["schema_version"] == 1);
  return j["result"];
}

}  // namespace

TEST_CASE("plan: the guide's request counts", "[cli][plan]") {
  CHECK(PlanJson({"--bytes", "1TB", "--files", "2,000,000"})["get_requests"] == 2000000);
  CHECK(PlanJson({"--files", "2000000", "--mean-file-bytes", "500KB"})["get_requests"] == 2000000);
  CHECK(PlanJson({"--files", "1000", "--mean-file-bytes", "1GiB", "--block",
                  "4MiB"})["get_requests"] == 256000);
  auto walk =
      PlanJson({"--dirs", "1000000", "--files-per-dir", "10", "--mean-file-bytes", "100KB"});
  CHECK(walk["list_requests_walk"] == 1000200);
  CHECK(walk["list_requests_flat"] == 2000);
  auto wide = PlanJson({"--dirs", "1000", "--files-per-dir", "10000", "--bytes", "1TB"});
  CHECK(wide["list_requests_walk"] == 2001);
  CHECK(wide["list_requests_flat"] == 2000);
}

TEST_CASE("plan: the guide's load times", "[cli][plan]") {
  auto d2 = PlanJson({"--bytes", "50GB", "--files", "50", "--sku", "Standard_D2_v2"});
  CHECK(d2["load_s_nic"].get<double>() == Approx(266.667).epsilon(1e-4));
  auto d5 = PlanJson({"--bytes", "50,000 MB", "--files", "50", "--sku", "D5_v2"});
  CHECK(d5["load_s_nic"].get<double>() == Approx(33.333).epsilon(1e-4));
  RunResult human = RunFeedcheck({"plan", "--bytes", "50GB", "--files", "50", "--sku", "D2_v2"});
  REQUIRE(human.exit_code == 0);
  CHECK(human.out.find("267 s") != std::string::npos);
  CHECK(human.out.find("188 MB/s") != std::string::npos);
}

TEST_CASE("plan: the guide's scenario end to end", "[cli][plan]") {
  RunResult r =
      RunFeedcheck({"plan", "--bytes", "1TB", "--mean-file-bytes", "500KB", "--sku",
                    "Standard_ND96asr_v4", "--nodes", "12", "--region", "eastus", "--json"});
  REQUIRE(r.exit_code == 0);
  auto j = r.Json();
  auto res = j["result"];
  CHECK(res["files"] == 2000000);
  CHECK(res["get_requests"] == 2000000);
  CHECK(res["fits_on_disk"] == true);
  CHECK(res["small_files"] == true);
  CHECK(res["load_s_share"].get<double>() == Approx(480));
  CHECK(res["epoch_s_min"].get<double>() == Approx(50));  // 2,000,000 GETs at 40,000 req/s
  CHECK(res["epoch_bound"] == "request rate");
  std::map<std::string, nlohmann::json> facts;
  for (const auto& f : j["facts"]) facts[f["key"]] = f;
  CHECK(facts["plan.get_requests"]["value"] == 2000000);
  CHECK(facts["dataset.bytes"]["provenance"]["origin"] == "declared");
  CHECK(facts["dataset.files"]["provenance"]["origin"] == "derived");
  CHECK(facts["node.local_disk_bytes"]["provenance"]["origin"] == "knowledge");
  CHECK(facts.count("account.requests_per_s"));
}

TEST_CASE("plan human output: requests, times and the small-file warning", "[cli][plan]") {
  RunResult r = RunFeedcheck({"plan", "--dirs", "1000", "--files-per-dir", "10000", "--bytes",
                              "1TB", "--sku", "Standard_ND96asr_v4", "--request-latency-ms", "20"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("2,001") != std::string::npos);
  CHECK(r.out.find("10,000,000") != std::string::npos);
  CHECK(r.out.find("Fits on local disk") != std::string::npos);
  CHECK(r.out.find("WARNING: under 4 MiB") != std::string::npos);
  CHECK(r.out.find("x 20 ms,") != std::string::npos);
  CHECK(r.out.find("assumed") == std::string::npos);  // latency was given
}

TEST_CASE("plan: data larger than the local disk does not fit", "[cli][plan]") {
  auto res = PlanJson({"--bytes", "200GB", "--files", "200", "--sku", "Standard_D2_v2"});
  CHECK(res["fits_on_disk"] == false);
}

TEST_CASE("plan: errors name the flag and exit 2", "[cli][plan][errors]") {
  RunResult bytes = RunFeedcheck({"plan", "--bytes", "lots", "--files", "10"});
  CHECK(bytes.exit_code == 2);
  CHECK(bytes.err.find("--bytes") != std::string::npos);
  RunResult block =
      RunFeedcheck({"plan", "--bytes", "1TB", "--files", "10", "--block", "4 Gbit/s"});
  CHECK(block.exit_code == 2);
  CHECK(block.err.find("--block") != std::string::npos);
  CHECK(block.err.find("expected a size") != std::string::npos);
  RunResult files = RunFeedcheck({"plan", "--bytes", "1TB", "--files", "2.5"});
  CHECK(files.exit_code == 2);
  CHECK(files.err.find("--files") != std::string::npos);
  RunResult shape = RunFeedcheck({"plan", "--bytes", "1TB"});
  CHECK(shape.exit_code == 2);
  CHECK(shape.err.find("file count is unknown") != std::string::npos);
  RunResult sku = RunFeedcheck({"plan", "--bytes", "1TB", "--files", "10", "--sku", "D2_v3"});
  CHECK(sku.exit_code == 2);
  CHECK(sku.err.find("did you mean") != std::string::npos);
  CHECK(sku.err.find("Standard_D2_v2") != std::string::npos);
  RunResult latency =
      RunFeedcheck({"plan", "--bytes", "1TB", "--files", "10", "--request-latency-ms", "-3"});
  CHECK(latency.exit_code == 2);
  CHECK(latency.err.find("--request-latency-ms") != std::string::npos);
  RunResult epochs = RunFeedcheck({"plan", "--bytes", "1TB", "--files", "10", "--epochs", "0"});
  CHECK(epochs.exit_code == 2);
  CHECK(epochs.err.find("--epochs") != std::string::npos);
}
