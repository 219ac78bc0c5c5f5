#include <catch2/catch.hpp>

#include "run_feedcheck.h"

TEST_CASE("lint prints the change to make with file:line", "[cli][lint]") {
  std::string job = std::string(FEEDCHECK_SOURCE_DIR) + "/examples/jobs/train-images-12-nodes.yml";
  std::string profile =
      std::string(FEEDCHECK_SOURCE_DIR) + "/examples/small-files-multi-epoch.yaml";
  RunResult r = RunFeedcheck({"lint", job, "--profile", profile, "--fail-on", "warning"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  // 12 x ND96asr_v4 (24 Gbit/s) on an East US account (200 Gbit/s).
  CHECK(r.out.find(job + ":19: warning[L004]: resources.instance_count is 12") !=
        std::string::npos);
  CHECK(r.out.find(job + ":15: warning[L003]: AZUREML_DATASET_HTTP_RETRY_COUNT is \"20\"") !=
        std::string::npos);
  // RSLEX_DOWNLOADER_THREADS 8 on 96 cores -> 384.
  CHECK(r.out.find("RSLEX_DOWNLOADER_THREADS: \"8\" -> RSLEX_DOWNLOADER_THREADS: \"384\"") !=
        std::string::npos);

  RunResult j = RunFeedcheck({"lint", job, "--profile", profile, "--json"});
  auto json = j.Json();
  REQUIRE(json.is_object());
  CHECK(json["command"] == "lint");
  CHECK(json["problems"].size() >= 3);
  CHECK(RunFeedcheck({"lint", "/nonexistent.yml"}).exit_code == 2);  // CLI11 ExistingFile
  std::string bad = WriteTempFile("bad-job.yml", "- not a job\n");
  CHECK(RunFeedcheck({"lint", bad}).exit_code == 3);
}
