#include "core/declared_bounds.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace feedcheck;

TEST_CASE("declared capacities must be above 0 and below what no cluster has", "[core][bounds]") {
  CHECK_FALSE(DeclaredValueProblem("node.nic_gbps", 24, Unit::kGbps));
  CHECK_FALSE(DeclaredValueProblem("node.nic_gbps", 200, Unit::kGbps));
  CHECK(DeclaredValueProblem("node.nic_gbps", 0, Unit::kGbps) == "must be above 0");
  CHECK(DeclaredValueProblem("node.nic_gbps", 1e-300, Unit::kGbps).value().find("at least") !=
        std::string::npos);
  CHECK(DeclaredValueProblem("node.nic_gbps", 1e308, Unit::kGbps).value().find("at most") !=
        std::string::npos);
  CHECK(DeclaredValueProblem("account.egress_gbps", -5, Unit::kGbps) == "cannot be negative");
  CHECK_FALSE(DeclaredValueProblem("account.egress_gbps", 200, Unit::kGbps));
  CHECK(DeclaredValueProblem("dataset.files", 0, Unit::kCount) == "must be above 0");
  CHECK_FALSE(DeclaredValueProblem("dataset.files", 14'000'000, Unit::kCount));
  CHECK(DeclaredValueProblem("dataset.bytes", NAN, Unit::kBytes) == "is not a number");
}

TEST_CASE("other facts get their unit's bounds; 0 stays a value", "[core][bounds]") {
  // A VM size without a temp disk has 0 bytes of it; a probe may measure 0 Gbit/s.
  CHECK_FALSE(DeclaredValueProblem("node.local_disk_bytes", 0, Unit::kBytes));
  CHECK_FALSE(DeclaredValueProblem("probe.throughput.gbps", 0, Unit::kGbps));
  CHECK_FALSE(DeclaredValueProblem("node.gpus", 0, Unit::kCount));
  CHECK(DeclaredValueProblem("probe.throughput.gbps", -1, Unit::kGbps) == "cannot be negative");
  CHECK(DeclaredValueProblem("dataset.small_file_fraction", 1.5, Unit::kFraction).has_value());
  CHECK(DeclaredValueProblem("gpu.util_mean", 101, Unit::kPercent).has_value());
  CHECK_FALSE(DeclaredValueProblem("probe.latency.ttfb_p99_ms", 1e9, Unit::kMilliseconds));
}
