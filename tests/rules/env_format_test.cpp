#include "reports/env_format.h"

#include <catch2/catch.hpp>

using namespace feedcheck;

TEST_CASE("env vars in each paste format", "[reports][env]") {
  std::vector<EnvSetting> env = {{"DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED", "true"},
                                 {"DATASET_MOUNT_MEMORY_CACHE_SIZE", "0"}};
  CHECK(FormatEnv(env, EnvFormat::kYaml) ==
        "environment_variables:\n"
        "  DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED: \"true\"\n"
        "  DATASET_MOUNT_MEMORY_CACHE_SIZE: \"0\"\n");
  CHECK(FormatEnv(env, EnvFormat::kShell) ==
        "export DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED='true'\n"
        "export DATASET_MOUNT_MEMORY_CACHE_SIZE='0'\n");
  CHECK(FormatEnv(env, EnvFormat::kPython) ==
        "env_var = {\n"
        "    \"DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED\": \"true\",\n"
        "    \"DATASET_MOUNT_MEMORY_CACHE_SIZE\": \"0\",\n"
        "}\n");
  CHECK(FormatEnv(env, EnvFormat::kJson) ==
        "{\n  \"DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED\": \"true\",\n"
        "  \"DATASET_MOUNT_MEMORY_CACHE_SIZE\": \"0\"\n}\n");
}

TEST_CASE("env values with quotes stay literal", "[reports][env]") {
  std::vector<EnvSetting> env = {{"X", "it's \"q\" \\ $HOME"}};
  CHECK(FormatEnv(env, EnvFormat::kShell) == "export X='it'\\''s \"q\" \\ $HOME'\n");
  CHECK(FormatEnv(env, EnvFormat::kYaml) ==
        "environment_variables:\n  X: \"it's \\\"q\\\" \\\\ $HOME\"\n");
}

TEST_CASE("no env vars", "[reports][env]") {
  CHECK(FormatEnv({}, EnvFormat::kYaml) == "environment_variables: {}\n");
  CHECK(FormatEnv({}, EnvFormat::kJson) == "{}\n");
  CHECK(EnvFormatFromName("python") == EnvFormat::kPython);
  CHECK_FALSE(EnvFormatFromName("toml"));
}
