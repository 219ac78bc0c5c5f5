#include "app/plan_workflow.h"

#include <catch2/catch.hpp>
#include <map>

#include "app_test_support.h"
#include "core/diagnostic_codes.h"

using namespace feedcheck;
using namespace feedcheck::app;
using namespace feedcheck::app::testing;

namespace {

Report Plan(PlanRequest request) {
  Outcome out = RunPlan(request);
  for (const auto& d : out.diagnostics.kept()) UNSCOPED_INFO(FormatDiagnostic(d));
  REQUIRE(out.status == ExitStatus::kOk);
  REQUIRE(out.has_report);
  return out.report;
}

PlanRequest Shape(std::string bytes, std::string files) {
  PlanRequest r;
  r.bytes = std::move(bytes);
  r.files = std::move(files);
  return r;
}

}  // namespace

TEST_CASE("plan: the guide's request counts", "[app][plan]") {
  CHECK(ResultNumber(Plan(Shape("1TB", "2,000,000")), "get_requests") == 2000000);
  PlanRequest mean;
  mean.files = "2000000";
  mean.mean_file_bytes = "500KB";
  CHECK(ResultNumber(Plan(mean), "get_requests") == 2000000);
  PlanRequest big;
  big.files = "1000";
  big.mean_file_bytes = "1GiB";
  big.block = "4MiB";
  CHECK(ResultNumber(Plan(big), "get_requests") == 256000);
  PlanRequest walk;
  walk.dirs = "1000000";
  walk.files_per_dir = "10";
  walk.mean_file_bytes = "100KB";
  Report w = Plan(walk);
  CHECK(ResultNumber(w, "list_requests_walk") == 1000200);
  CHECK(ResultNumber(w, "list_requests_flat") == 2000);
  PlanRequest wide;
  wide.dirs = "1000";
  wide.files_per_dir = "10000";
  wide.bytes = "1TB";
  Report d = Plan(wide);
  CHECK(ResultNumber(d, "list_requests_walk") == 2001);
  CHECK(ResultNumber(d, "list_requests_flat") == 2000);
}

TEST_CASE("plan: the guide's load times", "[app][plan]") {
  PlanRequest d2 = Shape("50GB", "50");
  d2.sku = "Standard_D2_v2";
  Report r = Plan(d2);
  CHECK(ResultNumber(r, "load_s_nic").value_or(0) == Approx(266.667).epsilon(1e-4));
  const ReportTable* time =
      FindTable(r, "Best-case time (each node loads all the data, download mode)");
  REQUIRE(time);
  CHECK(Cell(*time, 0, "value")->text == "267 s (4 min 27 s)");
  CHECK(Cell(*time, 0, "how")->text.find("188 MB/s") != std::string::npos);
  PlanRequest d5 = Shape("50,000 MB", "50");
  d5.sku = "D5_v2";
  CHECK(ResultNumber(Plan(d5), "load_s_nic").value_or(0) == Approx(33.333).epsilon(1e-4));
}

TEST_CASE("plan: the guide's scenario end to end", "[app][plan]") {
  PlanRequest request;
  request.bytes = "1TB";
  request.mean_file_bytes = "500KB";
  request.sku = "Standard_ND96asr_v4";
  request.nodes = "12";
  request.region = "eastus";
  Report r = Plan(request);
  CHECK(ResultNumber(r, "files") == 2000000);
  CHECK(ResultNumber(r, "get_requests") == 2000000);
  CHECK(ResultBool(r, "fits_on_disk") == true);
  CHECK(ResultBool(r, "small_files") == true);
  CHECK(ResultNumber(r, "load_s_share").value_or(0) == Approx(480));
  CHECK(ResultNumber(r, "epoch_s_min").value_or(0) == Approx(50));  // 2,000,000 GETs at 40,000/s
  CHECK(ResultText(r, "epoch_bound") == "request rate");
  std::map<std::string, Fact> facts;
  for (const auto& [key, fact] : r.evidence.facts) facts.emplace(key, fact);
  CHECK(facts.at("plan.get_requests").number() == 2000000);
  CHECK(facts.at("dataset.bytes").provenance.origin == FactOrigin::kDeclared);
  CHECK(facts.at("dataset.files").provenance.origin == FactOrigin::kDerived);
  CHECK(facts.at("node.local_disk_bytes").provenance.origin == FactOrigin::kKnowledge);
  CHECK(facts.count("account.requests_per_s"));
}

TEST_CASE("plan: requests, times and the small-file warning in its tables", "[app][plan]") {
  PlanRequest request;
  request.dirs = "1000";
  request.files_per_dir = "10000";
  request.bytes = "1TB";
  request.sku = "Standard_ND96asr_v4";
  request.request_latency_ms = "20";
  Report r = Plan(request);
  const ReportTable* req = FindTable(r, "Requests to read the data once");
  REQUIRE(req);
  CHECK(Cell(*req, 0, "value")->text == "10,000,000");
  CHECK(Cell(*req, 2, "value")->text == "2,001");
  const ReportTable* small = FindTable(r, "Small files");
  REQUIRE(small);
  CHECK(Cell(*small, 0, "how")->text.find("x 20 ms,") != std::string::npos);
  CHECK(Cell(*small, 0, "how")->text.find("assumed") == std::string::npos);  // latency given
  CHECK(Cell(*small, 1, "how")->text.rfind("WARNING: under 4 MiB", 0) == 0);
  CHECK(ResultBool(r, "latency_assumed") == false);
}

TEST_CASE("plan: data larger than the local disk does not fit", "[app][plan]") {
  PlanRequest request = Shape("200GB", "200");
  request.sku = "Standard_D2_v2";
  CHECK(ResultBool(Plan(request), "fits_on_disk") == false);
}

TEST_CASE("plan: errors name the flag and are usage errors", "[app][plan][errors]") {
  auto usage = [](PlanRequest request, const char* code, const std::string& part) {
    Outcome out = RunPlan(request);
    INFO(part);
    CHECK(out.status == ExitStatus::kUsage);
    CHECK(HasDiagnostic(out.diagnostics, code, part));
  };
  usage(Shape("lots", "10"), codes::kBadFlag, "--bytes");
  PlanRequest block = Shape("1TB", "10");
  block.block = "4 Gbit/s";
  usage(block, codes::kBadFlag, "--block");
  usage(block, codes::kBadFlag, "expected a size");
  usage(Shape("1TB", "2.5"), codes::kBadFlag, "--files");
  usage(Shape("1TB", ""), codes::kMissingInput, "file count is unknown");
  PlanRequest sku = Shape("1TB", "10");
  sku.sku = "D2_v3";
  usage(sku, codes::kBadFlag, "did you mean");
  usage(sku, codes::kBadFlag, "Standard_D2_v2");
  PlanRequest latency = Shape("1TB", "10");
  latency.request_latency_ms = "-3";
  usage(latency, codes::kBadFlag, "--request-latency-ms");
  PlanRequest epochs = Shape("1TB", "10");
  epochs.epochs = "0";
  usage(epochs, codes::kBadFlag, "--epochs");
}
