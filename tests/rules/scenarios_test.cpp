// The guide's five "optimum mount settings" scenarios, from the example profiles shipped in
// examples/: each yields exactly the guide's environment variables, no more, no fewer.
#include <catch2/catch.hpp>
#include <map>

#include "rules/advice.h"
#include "rules/profile.h"
#include "rules/rule_set.h"

using namespace feedcheck;
using namespace feedcheck::rules;

namespace {

std::map<std::string, std::string> EnvFor(const std::string& example) {
  RuleSet set;
  DiagnosticList d;
  REQUIRE(set.LoadDirectory(std::string(FEEDCHECK_SOURCE_DIR) + "/rules/builtin", &d));
  Profile profile;
  REQUIRE(LoadProfile(std::string(FEEDCHECK_SOURCE_DIR) + "/examples/" + example, &profile, &d));
  CHECK(d.total() == 0);
  Advice advice = MergeAdvice(set.Evaluate(profile.facts).findings);
  CHECK(advice.conflicts.empty());
  std::map<std::string, std::string> env;
  for (const auto& e : advice.env) env[e.name] = e.value;
  return env;
}

}  // namespace

TEST_CASE("(a) large file read sequentially once", "[rules][scenarios]") {
  CHECK(EnvFor("large-file-sequential-once.yaml") ==
        std::map<std::string, std::string>{{"DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED", "true"},
                                           {"DATASET_MOUNT_BLOCK_FILE_CACHE_ENABLED", "false"},
                                           {"DATASET_MOUNT_MEMORY_CACHE_SIZE", "0"},
                                           {"DATASET_MOUNT_READ_BUFFER_BLOCK_COUNT", "80"}});
}

TEST_CASE("(b) large file read once from multiple threads", "[rules][scenarios]") {
  CHECK(EnvFor("large-file-multithread-once.yaml") ==
        std::map<std::string, std::string>{{"DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED", "true"},
                                           {"DATASET_MOUNT_BLOCK_FILE_CACHE_ENABLED", "false"},
                                           {"DATASET_MOUNT_MEMORY_CACHE_SIZE", "0"}});
}

TEST_CASE("(c) millions of small files, one epoch, multiple threads", "[rules][scenarios]") {
  CHECK(EnvFor("small-files-one-epoch.yaml") ==
        std::map<std::string, std::string>{{"DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED", "true"},
                                           {"DATASET_MOUNT_BLOCK_FILE_CACHE_ENABLED", "false"},
                                           {"DATASET_MOUNT_MEMORY_CACHE_SIZE", "0"}});
}

TEST_CASE("(d) millions of small files, multiple epochs", "[rules][scenarios]") {
  CHECK(EnvFor("small-files-multi-epoch.yaml") ==
        std::map<std::string, std::string>{{"DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED", "true"}});
}

TEST_CASE("(e) large file with random seeks", "[rules][scenarios]") {
  CHECK(EnvFor("large-file-random-seeks.yaml") ==
        std::map<std::string, std::string>{{"DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED", "false"}});
}

TEST_CASE("conflicting env values keep the most severe rule and report the other",
          "[rules][advice]") {
  Finding a{"a", Severity::kWarning, "", "", {}, {{"X", "1"}, {"Y", "true"}}, {}, "", "", 0};
  Finding b{"b",
            Severity::kInfo,
            "",
            "",
            {},
            {{"X", "2"}, {"Y", "True"}},
            {{"input_mode", "download"}},
            "",
            "",
            0};
  Advice advice = MergeAdvice({a, b});
  REQUIRE(advice.env.size() == 2);
  CHECK(advice.env[0].value == "1");
  REQUIRE(advice.conflicts.size() == 1);  // "true" and "True" mean the same
  CHECK(advice.conflicts[0].name == "X");
  CHECK(advice.conflicts[0].kept_rule == "a");
  CHECK(advice.conflicts[0].dropped_value == "2");
  CHECK(advice.mode == "download");
  CHECK(advice.mode_rule == "b");
}
