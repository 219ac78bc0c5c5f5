#include "probes/test_data.h"

#include <catch2/catch.hpp>
#include <filesystem>

#include "fixture_tree.h"

using namespace feedcheck;
using feedcheck::testing::FixtureTree;

namespace {
size_t Entries(const std::string& dir) {
  size_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    (void)e;
    ++n;
  }
  return n;
}
}  // namespace

TEST_CASE("test objects: copies per size, capped by total bytes", "[probes][testdata]") {
  TestDataSpec spec;
  spec.sizes = {1000, 1 << 20};
  spec.copies_per_size = 3;
  spec.max_total_bytes = (2 << 20) + 3000;  // 3 x 1000 B + 2 x 1 MiB; a third MiB does not fit
  auto objects = PlanTestObjects(spec);
  REQUIRE(objects.size() == 5);
  CHECK(objects[0] == std::make_pair(std::string("d0/size-1000-0.bin"), uint64_t{1000}));
  CHECK(objects[1].first == "d1/size-1000-1.bin");
  CHECK(objects[4].second == (1u << 20));
  uint64_t total = 0;
  for (const auto& o : objects) total += o.second;
  CHECK(total <= spec.max_total_bytes);
  CHECK(UniqueTestPrefix() != UniqueTestPrefix());
  CHECK(UniqueTestPrefix().rfind("feedcheck-test-", 0) == 0);
}

TEST_CASE("local test data lives in a new directory and is removed, pre-existing files kept",
          "[probes][testdata][local]") {
  FixtureTree t;
  t.Write("keep.txt", "mine");
  TestDataSpec spec;
  spec.sizes = {4096, 65536};
  spec.copies_per_size = 2;
  std::string dir, error;
  {
    TestData td;
    REQUIRE(td.CreateInDirectory(t.root(), spec, nullptr, &dir, &error));
    CHECK(td.created() == 4);
    CHECK(td.created_bytes() == 2 * (4096 + 65536));
    CHECK(std::filesystem::file_size(dir + "/d1/size-65536-1.bin") == 65536);
    CHECK(Entries(t.root()) == 2);
  }  // destructor removes
  CHECK_FALSE(std::filesystem::exists(dir));
  CHECK(Entries(t.root()) == 1);
}

TEST_CASE("the cleanup registry removes test data when the process is torn down",
          "[probes][testdata][local]") {
  FixtureTree t;
  CleanupRegistry registry;
  TestData td;
  std::string dir, error;
  TestDataSpec spec;
  spec.sizes = {4096};
  REQUIRE(td.CreateInDirectory(t.root(), spec, &registry, &dir, &error));
  CHECK(registry.pending() == 1);
  registry.RunAll();  // what the signal watcher does when the command does not stop in time
  CHECK_FALSE(std::filesystem::exists(dir));
  CHECK(td.Remove() == 0);  // idempotent afterwards
}

TEST_CASE("a stop request while seeding still leaves nothing behind", "[probes][testdata][local]") {
  FixtureTree t;
  std::string dir, error;
  RequestStop(2);
  {
    TestData td;
    CHECK_FALSE(td.CreateInDirectory(t.root(), TestDataSpec{}, nullptr, &dir, &error));
    CHECK(error.find("signal") != std::string::npos);
  }
  ResetStopRequest();
  CHECK(Entries(t.root()) == 0);
}

TEST_CASE("storage test data refuses anonymous credentials", "[probes][testdata]") {
  HttpProbeEnv env;
  std::string error;
  REQUIRE(ParseTarget("https://acct.blob.core.windows.net/data/x/", {}, &env.target, &error));
  env.signer = RequestSigner(AuthConfig{}, true);
  TestData td;
  HttpProbeEnv out;
  CHECK_FALSE(td.CreateInStorage(env, TestDataSpec{}, nullptr, &out, &error));
  CHECK(error.find("Shared Key") != std::string::npos);
}

TEST_CASE("test data fits the budget: one object of each size, refused when that does not fit",
          "[probes][testdata]") {
  TestDataSpec spec;
  spec.sizes = {4096, 65536};
  ProbeBudget budget;
  budget.max_bytes = 140000;  // half: 70,000 bytes of uploads
  std::vector<std::pair<std::string, uint64_t>> plan;
  std::string error;
  REQUIRE(PlanTestDataWithin(spec, budget, &plan, &error));
  uint64_t total = 0;
  bool big = false;
  for (const auto& [name, size] : plan) {
    total += size;
    big = big || size == 65536;
  }
  CHECK(big);  // every size, even when copies of the small one would fill the share first
  CHECK(total <= 70000);
  budget.max_bytes = 100000;
  CHECK_FALSE(PlanTestDataWithin(spec, budget, &plan, &error));
  CHECK(error.find("--max-bytes") != std::string::npos);
  budget.max_bytes = 1ull << 30;
  budget.max_requests = 9;  // 1 + 2 x 2 = 5 needed, at most half of 9
  CHECK_FALSE(PlanTestDataWithin(spec, budget, &plan, &error));
  CHECK(error.find("--max-requests") != std::string::npos);
  budget.max_requests = 12;
  REQUIRE(PlanTestDataWithin(spec, budget, &plan, &error));
  CHECK(plan.size() <= 2);  // (12 / 2 - 1) / 2 objects: a PUT and a DELETE each
}
