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

namespace {
FactSet Declared(std::initializer_list<std::pair<const char*, double>> items) {
  FactSet facts;
  Provenance p;
  p.origin = FactOrigin::kDeclared;
  p.source = "profile";
  for (const auto& [key, value] : items) facts.Set(NumberFact(key, value, Unit::kBytes, p));
  return facts;
}
}  // namespace

TEST_CASE("declared dataset facts that contradict each other are named together",
          "[core][bounds]") {
  // A consistent dataset: nothing to say.
  CHECK(DeclaredContradictions(Declared({{"dataset.bytes", 1e12},
                                         {"dataset.median_file_bytes", 5e5},
                                         {"dataset.max_file_bytes", 4e6}}))
            .empty());
  // A median larger than the largest file and than the dataset: two contradictions.
  auto both = DeclaredContradictions(Declared({{"dataset.bytes", 5e8},
                                               {"dataset.median_file_bytes", 2e9},
                                               {"dataset.max_file_bytes", 1e9}}));
  REQUIRE(both.size() == 3);  // and the largest file larger than the dataset
  CHECK(both[0].key == "dataset.median_file_bytes");
  CHECK(both[0].message.find("dataset.max_file_bytes") != std::string::npos);
  CHECK(both[1].message.find("larger than the whole dataset") != std::string::npos);
  CHECK(both[2].key == "dataset.max_file_bytes");
  // files x mean far from bytes; within 2x is a rough figure, not a contradiction.
  FactSet off = Declared({{"dataset.bytes", 1e12}, {"dataset.mean_file_bytes", 5e5}});
  Provenance p;
  p.origin = FactOrigin::kDeclared;
  off.Set(NumberFact("dataset.files", 20'000'000, Unit::kCount, p));
  auto far = DeclaredContradictions(off);
  REQUIRE(far.size() == 1);
  CHECK(far[0].message.find("more than 2x away") != std::string::npos);
  off.Set(NumberFact("dataset.files", 3'000'000, Unit::kCount, p));
  CHECK(DeclaredContradictions(off).empty());
  // Facts from the knowledge base or a derivation are not the user's to contradict.
  FactSet derived;
  Provenance d;
  d.origin = FactOrigin::kKnowledge;
  derived.Set(NumberFact("dataset.median_file_bytes", 2e9, Unit::kBytes, d));
  derived.Set(NumberFact("dataset.max_file_bytes", 1e9, Unit::kBytes, d));
  CHECK(DeclaredContradictions(derived).empty());
}

TEST_CASE("a median file size is checked against the dataset, as a mean is", "[core][bounds]") {
  // 1,000 files of median 1 GB: at least 500 of them are 1 GB or more, 500 GB, not 5 GB.
  auto impossible = DeclaredContradictions(Declared(
      {{"dataset.bytes", 5e9}, {"dataset.files", 1000}, {"dataset.median_file_bytes", 1e9}}));
  REQUIRE(impossible.size() == 1);
  CHECK(impossible[0].key == "dataset.median_file_bytes");
  // From 500 GB on it is possible: half the files at the median, the rest as large or larger.
  const double total = GENERATE(5e11, 6e11, 5e12);
  CHECK(DeclaredContradictions(Declared({{"dataset.bytes", total},
                                         {"dataset.files", 1000},
                                         {"dataset.median_file_bytes", 1e9}}))
            .empty());
}
