#include "core/runtime_settings.h"

#include <catch2/catch.hpp>

using namespace feedcheck;

TEST_CASE("the data runtime's settings are the guide's, with their types and sections",
          "[core][settings]") {
  // The guide's "Available download settings" (2) and "Available mount settings" (14).
  CHECK(RuntimeSettings().size() == 16);
  const RuntimeSetting* threads = FindRuntimeSetting("RSLEX_DOWNLOADER_THREADS");
  REQUIRE(threads);
  CHECK(threads->section == "Available download settings");
  CHECK(threads->default_value == "NUMBER_OF_CPU_CORES * 4");
  const RuntimeSetting* block = FindRuntimeSetting("DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED");
  REQUIRE(block);
  CHECK(block->type == SettingType::kBool);
  CHECK(block->section == "Available mount settings");
  CHECK(FindRuntimeSetting("AZCOPY_CONCURRENCY_VALUE") == nullptr);  // azcopy's, not the runtime's
  CHECK(RuntimeSettingSource(*block).find(
            "https://learn.microsoft.com/azure/machine-learning/how-to-read-write-data-v2") !=
        std::string::npos);
}

TEST_CASE("values are checked against the type and range the guide documents", "[core][settings]") {
  auto problem = [](const char* name, const char* value) {
    return RuntimeSettingValueProblem(*FindRuntimeSetting(name), value);
  };
  CHECK_FALSE(problem("DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED", "True"));  // the guide's Python
  CHECK_FALSE(problem("DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED", "false"));
  CHECK(problem("DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED", "yes"));
  CHECK_FALSE(problem("DATASET_MOUNT_FILE_CACHE_PRUNE_THRESHOLD", "0.8"));
  CHECK(problem("DATASET_MOUNT_FILE_CACHE_PRUNE_THRESHOLD", "1.5").value() ==
        "1.5 is outside 0 to 1");
  CHECK_FALSE(problem("DATASET_MOUNT_READ_THREADS", "384"));
  CHECK(problem("DATASET_MOUNT_READ_THREADS", "0"));
  CHECK(problem("DATASET_MOUNT_READ_THREADS", "many"));
  CHECK_FALSE(problem("DATASET_MOUNT_MEMORY_CACHE_SIZE", "0"));  // 0 disables the memory cache
  CHECK(problem("DATASET_MOUNT_READ_BLOCK_SIZE", "2MB"));  // bytes; modifiers only for cache size
  CHECK_FALSE(problem("DATASET_MOUNT_CACHE_SIZE", "-10GB"));  // leave 10 GB free
  CHECK_FALSE(problem("DATASET_MOUNT_CACHE_SIZE", "500 MB"));
  CHECK(problem("DATASET_MOUNT_CACHE_SIZE", "10TB"));
  CHECK_FALSE(problem("AZUREML_DATASET_HTTP_RETRY_COUNT", "0"));
  CHECK(problem("AZUREML_DATASET_HTTP_RETRY_COUNT", "-1"));
}

TEST_CASE("a misspelt setting is taken for the documented one it most likely means",
          "[core][settings]") {
  CHECK(LikelyRuntimeSetting("DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLE") ==
        "DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED");
  CHECK(LikelyRuntimeSetting("RSLEX_DOWNLOAD_THREADS") == "RSLEX_DOWNLOADER_THREADS");
  CHECK(LikelyRuntimeSetting("DATSET_MOUNT_READ_THREADS") == "DATASET_MOUNT_READ_THREADS");
  CHECK(LikelyRuntimeSetting("dataset_mount_read_threads") == "DATASET_MOUNT_READ_THREADS");
  // Cut short of its last word: the one setting it begins.
  CHECK(LikelyRuntimeSetting("DATASET_MOUNT_BLOCK_BASED_CACHE") ==
        "DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED");
  CHECK(LikelyRuntimeSetting("DATASET_MOUNT_ATTRIBUTE_CACHE") ==
        "DATASET_MOUNT_ATTRIBUTE_CACHE_TTL");
  // The runtime's prefix, nothing near: not documented, no guess.
  CHECK(LikelyRuntimeSetting("DATASET_MOUNT_TURBO_MODE") == "");
  // Documented, or not meant for the runtime at all.
  CHECK_FALSE(LikelyRuntimeSetting("DATASET_MOUNT_READ_THREADS"));
  CHECK_FALSE(LikelyRuntimeSetting("NCCL_DEBUG"));
  CHECK_FALSE(LikelyRuntimeSetting("DATASET_PATH"));  // a job's own variable
  CHECK_FALSE(LikelyRuntimeSetting("AZUREML_COMPUTE_USE_COMMON_RUNTIME"));
}
