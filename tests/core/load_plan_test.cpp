#include "core/load_plan.h"

#include <catch2/catch.hpp>

#include "core/units.h"

using namespace feedcheck;

namespace {

PlanResult Plan(const PlanInput& in) {
  PlanResult r;
  std::string error;
  INFO(error);
  REQUIRE(ComputePlan(in, &r, &error));
  return r;
}

std::string PlanError(const PlanInput& in) {
  PlanResult r;
  std::string error;
  CHECK_FALSE(ComputePlan(in, &r, &error));
  return error;
}

constexpr double kGiB = 1073741824.0;

}  // namespace

TEST_CASE("guide: 2,000,000 files of 500 KB take 2,000,000 GETs", "[core][plan]") {
  PlanInput in;
  in.files = 2000000;
  in.mean_file_bytes = 500e3;
  PlanResult r = Plan(in);
  CHECK(r.get_requests == 2000000);
  CHECK(r.requests_per_file == 1);
  CHECK(r.dataset_bytes == 1e12);  // 1 TB, as in the guide's table
  CHECK(r.small_files);
  // The same from --bytes 1TB --files 2000000.
  PlanInput by_bytes;
  by_bytes.dataset_bytes = *ParseBytes("1TB");
  by_bytes.files = 2000000;
  CHECK(Plan(by_bytes).get_requests == 2000000);
  CHECK(Plan(by_bytes).mean_file_bytes == 500e3);
}

TEST_CASE("guide: 1,000 files of 1 GiB in 4 MiB blocks take 256,000 GETs", "[core][plan]") {
  PlanInput in;
  in.files = 1000;
  in.mean_file_bytes = kGiB;
  in.block_bytes = *ParseBytes("4MiB");
  PlanResult r = Plan(in);
  CHECK(r.requests_per_file == 256);
  CHECK(r.get_requests == 256000);
  CHECK_FALSE(r.small_files);
  CHECK(GetRequests(1000, kGiB, 4 * 1048576.0) == 256000);
  CHECK(GetRequests(1, 4 * 1048576.0 + 1, 4 * 1048576.0) == 2);  // one byte over: two blocks
  CHECK(GetRequests(1, 4 * 1048576.0, 4 * 1048576.0) == 1);
}

TEST_CASE("guide: listing 1,000,000 dirs x 10 files by walking takes 1,000,200", "[core][plan]") {
  CHECK(WalkListRequests(1000000, 10) == 1000200);
  PlanInput in;
  in.dirs = 1000000;
  in.files_per_dir = 10;
  in.mean_file_bytes = 100e3;
  PlanResult r = Plan(in);
  CHECK(r.files == 10000000);
  CHECK(r.list_requests_walk == 1000200);
  CHECK(r.list_requests_flat == 2000);  // the same 10,000,000 blobs as one flat listing
  CHECK(r.walk_from_layout);
}

TEST_CASE("1,000 dirs x 10,000 files: 2,001 requests, not the guide's 1,001", "[core][plan]") {
  // A 10,000-entry directory takes two 5,000-entry pages.
  CHECK(ListPages(10000) == 2);
  CHECK(WalkListRequests(1000, 10000) == 2001);
  PlanInput in;
  in.dirs = 1000;
  in.files_per_dir = 10000;
  in.dataset_bytes = 1e12;
  PlanResult r = Plan(in);
  CHECK(r.list_requests_walk == 2001);
  CHECK(r.list_requests_flat == 2000);
}

TEST_CASE("list pages: at least one, 5,000 entries each", "[core][plan]") {
  CHECK(ListPages(0) == 1);
  CHECK(ListPages(1) == 1);
  CHECK(ListPages(5000) == 1);
  CHECK(ListPages(5001) == 2);
  CHECK(ListPages(1000000) == 200);
  PlanInput in;
  in.files = 2000000;
  in.mean_file_bytes = 500e3;
  PlanResult flat = Plan(in);
  CHECK(flat.list_requests_flat == 400);
  CHECK(flat.list_requests_walk == 400);  // no layout: one directory
  CHECK_FALSE(flat.walk_from_layout);
}

TEST_CASE("guide: 50 GB over a D2_v2 NIC takes about 267 s, D5_v2 about 33 s", "[core][plan]") {
  PlanInput in;
  in.dataset_bytes = *ParseBytes("50,000 MB");
  in.files = 50;
  in.nic_gbps = *ParseBitsPerSecond("1500 Mbit/s") / 1e9;
  PlanResult d2 = Plan(in);
  REQUIRE(d2.load_s_nic);
  CHECK(*d2.load_s_nic == Approx(266.667).epsilon(1e-4));
  CHECK(std::round(*d2.load_s_nic) == 267);
  in.nic_gbps = 12;
  PlanResult d5 = Plan(in);
  CHECK(*d5.load_s_nic == Approx(33.333).epsilon(1e-4));
  CHECK(std::round(*d5.load_s_nic) == 33);
}

TEST_CASE("load over the node's share of account egress", "[core][plan]") {
  PlanInput in;
  in.dataset_bytes = 1e12;
  in.files = 1000;
  in.nic_gbps = 24;
  in.account_egress_gbps = 200;
  in.nodes = 12;
  PlanResult r = Plan(in);
  CHECK(*r.load_s_nic == Approx(1e12 * 8 / 24e9));
  CHECK(*r.load_s_share == Approx(1e12 * 8 / (200e9 / 12)));  // 480 s
  CHECK(*r.load_s_share == Approx(480));
}

TEST_CASE("fits on disk keeps the runtime's 150 MB reserve", "[core][plan]") {
  PlanInput in;
  in.files = 1;
  in.local_disk_bytes = 100 * kGiB;
  in.dataset_bytes = 100 * kGiB - kRuntimeReservedDiskBytes;
  CHECK(*Plan(in).fits_on_disk);
  in.dataset_bytes = 100 * kGiB - kRuntimeReservedDiskBytes + 1;
  CHECK_FALSE(*Plan(in).fits_on_disk);
  in.local_disk_bytes = 0;  // Standard_D4s_v5: no temp disk
  in.dataset_bytes = 1e6;
  CHECK_FALSE(*Plan(in).fits_on_disk);
  CHECK(*Plan(in).usable_disk_bytes == 0);
  in.local_disk_bytes.reset();
  CHECK_FALSE(Plan(in).fits_on_disk.has_value());
}

TEST_CASE("epoch lower bound takes the tightest of NIC, egress and request rate", "[core][plan]") {
  PlanInput in;
  in.dataset_bytes = 1e12;
  in.files = 1000;
  in.nic_gbps = 24;
  in.nodes = 4;
  PlanResult nic = Plan(in);
  CHECK(*nic.epoch_s_min == Approx(1e12 * 8 / (4 * 24e9)));
  CHECK(nic.epoch_bound == "NIC");
  in.nodes = 12;
  in.account_egress_gbps = 200;
  PlanResult egress = Plan(in);
  CHECK(*egress.epoch_s_min == Approx(40));
  CHECK(egress.epoch_bound == "account egress");
  in.files = 2000000;
  in.account_requests_per_s = 20000;
  PlanResult requests = Plan(in);
  CHECK(*requests.epoch_s_min == Approx(100));  // 2,000,000 GETs at 20,000 req/s
  CHECK(requests.epoch_bound == "request rate");
}

TEST_CASE("request overhead and the small-file flag", "[core][plan]") {
  PlanInput in;
  in.files = 2000000;
  in.mean_file_bytes = 500e3;
  PlanResult assumed = Plan(in);
  CHECK(assumed.latency_assumed);
  CHECK(assumed.request_latency_ms == kDefaultRequestLatencyMs);
  CHECK(assumed.request_overhead_s == Approx(2000000 * kDefaultRequestLatencyMs / 1e3));
  in.request_latency_ms = 25;
  PlanResult given = Plan(in);
  CHECK_FALSE(given.latency_assumed);
  CHECK(given.request_overhead_s == Approx(50000));
  CHECK(given.small_files);
  CHECK(given.small_file_basis == "mean");
  // The median wins over the mean when given: big mean, small median is still small files.
  in.mean_file_bytes = 64e6;
  in.median_file_bytes = 1e6;
  PlanResult median = Plan(in);
  CHECK(median.small_file_basis == "median");
  CHECK(median.small_files);
  in.median_file_bytes = 4 * 1048576.0;
  CHECK_FALSE(Plan(in).small_files);
}

TEST_CASE("incomplete or contradictory shapes name the flag", "[core][plan]") {
  PlanInput none;
  none.dataset_bytes = 1e12;
  CHECK(PlanError(none).find("--files") != std::string::npos);
  PlanInput no_bytes;
  no_bytes.files = 10;
  CHECK(PlanError(no_bytes).find("--bytes") != std::string::npos);
  PlanInput clash;
  clash.files = 10;
  clash.dirs = 2;
  clash.files_per_dir = 3;
  clash.dataset_bytes = 1e9;
  CHECK(PlanError(clash).find("disagrees") != std::string::npos);
  // The error restates a size as it was typed: 1MB, not "977 KiB".
  PlanInput mean_clash;
  mean_clash.files = 1000;
  mean_clash.dataset_bytes = 2e9;
  mean_clash.mean_file_bytes = 1e6;
  std::string mean_error = PlanError(mean_clash);
  INFO(mean_error);
  CHECK(mean_error.find("--mean-file-bytes 1 MB disagrees") != std::string::npos);
  CHECK(mean_error.find("= 2 MB") != std::string::npos);
  CHECK(mean_error.find("KiB") == std::string::npos);
  PlanInput zero;
  zero.files = 0;
  zero.dataset_bytes = 1e9;
  CHECK(PlanError(zero).find("--files") != std::string::npos);
  PlanInput block;
  block.files = 1;
  block.dataset_bytes = 1;
  block.block_bytes = 0;
  CHECK(PlanError(block).find("--block") != std::string::npos);
  PlanInput mean;
  mean.files = 10;
  mean.dataset_bytes = 1e9;
  mean.mean_file_bytes = 5e6;
  CHECK(PlanError(mean).find("--mean-file-bytes") != std::string::npos);
  // Half the files at or above a median of 500 GB cannot fit in 1 TB.
  PlanInput median;
  median.files = 10;
  median.dataset_bytes = 1e12;
  median.median_file_bytes = 500e9;
  std::string median_error = PlanError(median);
  INFO(median_error);
  CHECK(median_error.find("--median-file-bytes 500 GB cannot be") != std::string::npos);
  CHECK(median_error.find("would hold 2.5 TB") != std::string::npos);
  median.median_file_bytes = 200e9;  // five files of 200 GB: exactly 1 TB, possible
  PlanResult possible;
  std::string no_error;
  CHECK(ComputePlan(median, &possible, &no_error));
}

TEST_CASE("plan facts are derived", "[core][plan]") {
  PlanInput in;
  in.files = 2000000;
  in.mean_file_bytes = 500e3;
  in.nic_gbps = 24;
  in.local_disk_bytes = 6000 * kGiB;
  FactSet facts;
  AddPlanFacts(Plan(in), "test", &facts);
  CHECK(*facts.Number("plan.get_requests") == 2000000);
  CHECK(*facts.Number("plan.list_requests_flat") == 400);
  CHECK(*facts.Bool("plan.fits_on_disk"));
  CHECK(*facts.Bool("plan.small_files"));
  CHECK(facts.Has("plan.load_s_nic"));
  CHECK_FALSE(facts.Has("plan.load_s_share"));  // no account given
  CHECK(facts.Find("plan.get_requests")->provenance.origin == FactOrigin::kDerived);
}
