#include "probes/test_data.h"

#include <catch2/catch.hpp>
#include <filesystem>

#include "fixture_tree.h"
#include "probes/leftover_test_data.h"
#include "probes/test_prefix_name.h"

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

// One grammar, tested both ways: every name the generator makes is matched, and the matcher takes
// nothing the generator cannot make.
TEST_CASE("test prefixes: the generator's names match, nothing else does", "[probes][testdata]") {
  for (int i = 0; i < 100; ++i) {
    std::string prefix = UniqueTestPrefix();
    REQUIRE(prefix.back() == '/');
    prefix.pop_back();
    INFO(prefix);
    CHECK(IsTestDataSegment(prefix));
    CHECK(TestDataPrefixOf("data/" + prefix + "/d0/x.bin") == "data/" + prefix + "/");
  }
  // Fields at their edges, formatted and matched back to the same values.
  for (TestPrefixName name :
       {TestPrefixName{0, 1, 0}, TestPrefixName{2147483647, 2147483647, 0xffffffffu},
        TestPrefixName{1795305600, 4242, 0x1a2b3c4du}}) {
    std::string s = FormatTestPrefixSegment(name);
    INFO(s);
    auto back = ParseTestPrefixSegment(s);
    REQUIRE(back);
    CHECK(back->utc_s == name.utc_s);
    CHECK(back->pid == name.pid);
    CHECK(back->random == name.random);
  }
  CHECK(FormatTestPrefixSegment({1795305600, 4242, 0x1a2b3c4du}) ==
        "feedcheck-test-20261122T000000Z-4242-1a2b3c4d");
  for (const char* bad :
       {"feedcheck-test-20261122T035500Z-4242-1A2B3C4D",                         // uppercase hex
        "feedcheck-test-20269922T035500Z-4242-1a2b3c4d",                         // month 99
        "feedcheck-test-20261132T035500Z-4242-1a2b3c4d",                         // day 32
        "feedcheck-test-20261122T245500Z-4242-1a2b3c4d",                         // hour 24
        "feedcheck-test-20261122T035500Z-123456789012345678901234567-1a2b3c4d",  // 27 digits
        "feedcheck-test-20261122T035500Z-4294967296-1a2b3c4d",                   // past pid_t
        "feedcheck-test-20261122T035500Z-04242-1a2b3c4d",                        // leading zero
        "feedcheck-test-20261122T035500Z-0-1a2b3c4d",                            // pid 0
        "feedcheck-test-20261122T035500Z-+4242-1a2b3c4d",                        // a sign
        "feedcheck-test-20261122T035500Z-4242-1a2b3c4",                          // 7 hex digits
        "feedcheck-test-20261122T035500Z-4242-1a2b3c4d0",                        // 9 hex digits
        "feedcheck-test-20261122T035500Z-4242-1a2b3c4g",                         // not hex
        "feedcheck-test-20261122t035500Z-4242-1a2b3c4d",                         // lowercase t
        "feedcheck-test-20261122T035500Z--4242-1a2b3c4d",                        // empty pid
        "feedcheck-test-notours", "feedcheck-test-20261122T035500Z"}) {
    INFO(bad);
    CHECK_FALSE(IsTestDataSegment(bad));
    CHECK(TestDataPrefixOf(std::string(bad) + "/x.bin").empty());
  }
}
