// The example Azure ML jobs in examples/jobs/ are what a user submits first: their inputs must be
// targets feedcheck accepts, their exit codes must reach Azure ML, and what they name (the code
// folder, the environment's files) must exist.
#include <yaml-cpp/yaml.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "transport/target.h"

namespace {

const std::filesystem::path kJobs = std::filesystem::path(FEEDCHECK_SOURCE_DIR) / "examples/jobs";

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("the pre-flight job passes a storage URL and keeps feedcheck's exit code",
          "[app][examples]") {
  YAML::Node job = YAML::LoadFile((kJobs / "preflight-on-cluster.yml").string());
  const YAML::Node data = job["inputs"]["data"];
  REQUIRE(data);
  CHECK(data["mode"].as<std::string>() == "direct");
  // mode: direct hands the URI to the command as it is: feedcheck must accept it as a target.
  const std::string path = data["path"].as<std::string>();
  INFO(path);
  feedcheck::Target target;
  std::string error;
  CHECK(feedcheck::ParseTarget(path, {}, &target, &error));
  CHECK(error.empty());
  CHECK(target.kind == feedcheck::TargetKind::kBlob);

  const std::string command = job["command"].as<std::string>();
  INFO(command);
  CHECK(Has(command, "feedcheck preflight ${{inputs.data}}"));
  CHECK_FALSE(Has(command, "exit 0"));
  CHECK_FALSE(Has(command, "|| true"));
  // The pre-flight's status is kept and is the job's last word.
  CHECK(Has(command, "status=$?"));
  CHECK(command.substr(command.size() - std::string("exit $status").size()) == "exit $status");
}

TEST_CASE("the training job's code folder and environment files exist", "[app][examples]") {
  YAML::Node job = YAML::LoadFile((kJobs / "train-images-12-nodes.yml").string());
  const std::filesystem::path code = kJobs / job["code"].as<std::string>();
  CHECK(std::filesystem::is_directory(code));
  const std::string command = job["command"].as<std::string>();
  CHECK(Has(command, "python train.py"));
  CHECK(std::filesystem::is_regular_file(code / "train.py"));
  // An image and a conda file (the curated environment it named before was retired).
  const YAML::Node env = job["environment"];
  REQUIRE(env.IsMap());
  CHECK(Has(env["image"].as<std::string>(), "mcr.microsoft.com/azureml/"));
  CHECK(std::filesystem::is_regular_file(kJobs / env["conda_file"].as<std::string>()));
}
