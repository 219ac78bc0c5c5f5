// The job's definition a post-mortem reads from the job folder (job.yml, job.json): its
// environment_variables as runtime.setting facts naming file:line or the key, credentials never
// kept, malformed and oversized files refused with file:line.
#include "rules/job_spec.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "core/diagnostic_codes.h"

using namespace feedcheck;
using namespace feedcheck::rules;
namespace fs = std::filesystem;

namespace {

const char* kYaml =
    "$schema: https://azuremlschemas.azureedge.net/latest/commandJob.schema.json\n"
    "type: command\n"
    "command: python train.py --data ${{inputs.training_data}}\n"
    "environment: azureml:acpt-pytorch-2.2-cuda12.1@latest\n"
    "environment_variables:\n"
    "  RSLEX_DOWNLOADER_THREADS: \"8\"\n"
    "  AZURE_STORAGE_KEY: \"a2V5a2V5a2V5a2V5\"\n"
    "inputs:\n"
    "  training_data:\n"
    "    type: uri_folder\n"
    "    path: azureml://datastores/workspaceblobstore/paths/datasets/x/\n"
    "    mode: download\n"
    "compute: azureml:gpu-cluster\n"
    "resources:\n"
    "  instance_count: 2\n";

// The shape of `az ml job show -o json` (abridged): what is not environment_variables is dropped.
const char* kJson = R"({
  "command": "python train.py",
  "compute": "azureml:gpu-cluster",
  "environment_variables": {
    "DATASET_MOUNT_READ_BUFFER_BLOCK_COUNT": "4",
    "AZUREML_DATASET_HTTP_RETRY_COUNT": 10,
    "MY_SAS": "https://a.blob.core.windows.net/c?sv=2022-11-02&sig=abcdef0123456789"
  },
  "inputs": {"training_data": {"mode": "ro_mount", "type": "uri_folder"}},
  "resources": {"instance_count": 3},
  "status": "Completed",
  "type": "command"
}
)";

std::string ScratchFile(const std::string& name, const std::string& text) {
  const fs::path dir =
      fs::temp_directory_path() / ("feedcheck-job-spec-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / name, std::ios::binary) << text;
  return (dir / name).string();
}

}  // namespace

TEST_CASE("job spec: job.yml's environment_variables with file:line", "[rules][job_spec]") {
  JobSpec spec;
  DiagnosticList d;
  REQUIRE(ReadJobSpecText("job/job.yml", kYaml, &spec, &d));
  CHECK(d.errors() == 0);
  FactSet facts = JobSpecFacts(spec);
  const Fact* threads = facts.Find("runtime.setting.RSLEX_DOWNLOADER_THREADS");
  REQUIRE(threads);
  CHECK(threads->text() == "8");
  CHECK(threads->provenance.file == "job/job.yml");
  CHECK(threads->provenance.line == 6);
  CHECK(threads->provenance.source == "job/job.yml:6");
  CHECK(threads->provenance.origin == FactOrigin::kDeclared);
  // A credential's value is never kept.
  const Fact* key = facts.Find("runtime.setting.AZURE_STORAGE_KEY");
  REQUIRE(key);
  CHECK(key->text() == "REDACTED");
  // Only the settings: the inputs' mode and the node count come from the logs and the flags.
  CHECK(facts.Find("workload.mode") == nullptr);
  CHECK(facts.Find("node.count") == nullptr);
}

TEST_CASE("job spec: az ml job show -o json, by key and line", "[rules][job_spec]") {
  JobSpec spec;
  DiagnosticList d;
  REQUIRE(ReadJobSpecText("job/job.json", kJson, &spec, &d));
  FactSet facts = JobSpecFacts(spec);
  const Fact* blocks = facts.Find("runtime.setting.DATASET_MOUNT_READ_BUFFER_BLOCK_COUNT");
  REQUIRE(blocks);
  CHECK(blocks->text() == "4");
  CHECK(blocks->provenance.line == 5);
  CHECK(blocks->provenance.source ==
        "job/job.json:5 (environment_variables.DATASET_MOUNT_READ_BUFFER_BLOCK_COUNT)");
  // A number is read as its text.
  REQUIRE(facts.Find("runtime.setting.AZUREML_DATASET_HTTP_RETRY_COUNT"));
  CHECK(facts.Find("runtime.setting.AZUREML_DATASET_HTTP_RETRY_COUNT")->text() == "10");
  // A value holding a SAS signature is a credential.
  REQUIRE(facts.Find("runtime.setting.MY_SAS"));
  CHECK(facts.Find("runtime.setting.MY_SAS")->text() == "REDACTED");
  CHECK(facts.Find("runtime.setting.status") == nullptr);
  // No environment_variables: nothing, and no complaint.
  REQUIRE(ReadJobSpecText("job.json", R"({"type": "command", "status": "Failed"})", &spec, &d));
  CHECK(spec.env.empty());
  CHECK(d.total() == 0);
}

TEST_CASE("job spec: malformed definitions are named by file:line", "[rules][job_spec]") {
  JobSpec spec;
  {
    DiagnosticList d;
    CHECK_FALSE(ReadJobSpecText(
        "job.json", "{\n  \"environment_variables\": {\n    \"A\": \"1\",\n}", &spec, &d));
    REQUIRE(d.errors() == 1);
    CHECK(d.kept()[0].code == std::string(codes::kJobFile));
    CHECK(d.kept()[0].location.file == "job.json");
    CHECK(d.kept()[0].location.line == 4);
  }
  {
    DiagnosticList d;
    CHECK_FALSE(ReadJobSpecText("job.json", R"({"environment_variables": ["A=1"]})", &spec, &d));
    REQUIRE(d.errors() == 1);
    CHECK(d.kept()[0].message.find("environment_variables") != std::string::npos);
  }
  {
    DiagnosticList d;
    CHECK_FALSE(ReadJobSpecText("job.json", "[1, 2]", &spec, &d));
    CHECK(d.errors() == 1);
  }
  {
    DiagnosticList d;
    CHECK_FALSE(ReadJobSpecText("job.json", std::string(100000, '[') + std::string(100000, ']'),
                                &spec, &d));
    REQUIRE(d.errors() == 1);
    CHECK(d.kept()[0].message.find("nested deeper") != std::string::npos);
  }
  {
    DiagnosticList d;
    CHECK_FALSE(ReadJobSpecText("job.yml",
                                "type: command\ncommand: python x.py\nenvironment_variables:\n"
                                "  A: \"1\"\n  B: [2, 3\n  C: 4\n",
                                &spec, &d));
    REQUIRE(d.errors() >= 1);
    CHECK(d.kept()[0].location.file == "job.yml");
    CHECK(d.kept()[0].location.line >= 4);
  }
  {
    DiagnosticList d;  // a list, not a mapping: read, as lint reads it, with a warning there
    REQUIRE(ReadJobSpecText("job.yml",
                            "type: command\ncommand: python x.py\nenvironment_variables:\n"
                            "  - A=1\n",
                            &spec, &d));
    CHECK(spec.env.empty());
    REQUIRE(d.total() == 1);
    CHECK(d.kept()[0].severity == DiagnosticSeverity::kWarning);
    CHECK(d.kept()[0].location.line == 4);
  }
  {
    DiagnosticList d;  // a pipeline job's settings are its steps': not this reader's
    CHECK_FALSE(ReadJobSpecText("job.yml", "type: pipeline\njobs: {}\n", &spec, &d));
    REQUIRE(d.errors() == 1);
    CHECK(d.kept()[0].location.line == 1);
  }
}

TEST_CASE("job spec: a huge definition is refused, a long one bounded", "[rules][job_spec]") {
  JobSpec spec;
  DiagnosticList d;
  // Past the 16 MiB every configuration file is held to: refused before it is parsed.
  std::string huge = "{\"environment_variables\": {\"A\": \"";
  huge += std::string(17u << 20, 'x');
  huge += "\"}}";
  CHECK_FALSE(ReadJobSpecFile(ScratchFile("job.json", huge), &spec, &d));
  REQUIRE(d.errors() == 1);
  CHECK(d.kept()[0].message.find("cannot read the job's definition") != std::string::npos);
  // The same bound on text read by other means.
  DiagnosticList text;
  CHECK_FALSE(ReadJobSpecText("job.json", huge, &spec, &text));
  REQUIRE(text.errors() == 1);
  CHECK(text.kept()[0].message.find("larger than 16 MiB") != std::string::npos);
  // Thousands of variables and a long value: at most kMaxJobSpecSettings kept, values cut.
  std::string many = "{\"environment_variables\": {";
  for (int i = 0; i < 5000; ++i) many += (i ? "," : "") + ("\"V" + std::to_string(i) + "\": \"1\"");
  many += ", \"LONG\": \"" + std::string(5000, 'y') + "\"}}";
  DiagnosticList ok;
  REQUIRE(ReadJobSpecFile(ScratchFile("many.json", many), &spec, &ok));
  CHECK(spec.env.size() == kMaxJobSpecSettings);
  for (const auto& e : spec.env) CHECK(e.value.size() <= kMaxJobSpecValueBytes);
}

TEST_CASE("job spec: outputs written through a mount while the job runs, by file:line",
          "[rules][job_spec]") {
  auto facts_of = [](const std::string& outputs) {
    JobSpec spec;
    DiagnosticList d;
    REQUIRE(ReadJobSpecText("job/job.yml", std::string(kYaml) + outputs, &spec, &d));
    return JobSpecFacts(spec);
  };
  // An output's mode is rw_mount when it says none (the CLI's default).
  FactSet facts = facts_of(
      "outputs:\n"
      "  model:\n"
      "    type: uri_folder\n"
      "    mode: upload\n"
      "  checkpoints:\n"
      "    type: uri_folder\n");
  REQUIRE(facts.Number("runtime.writing_outputs"));
  CHECK(*facts.Number("runtime.writing_outputs") == 2);
  const Fact* mounted = facts.Find("runtime.rw_mount_outputs");
  REQUIRE(mounted);
  CHECK(mounted->number() == 1);
  CHECK(mounted->provenance.file == "job/job.yml");
  CHECK(mounted->provenance.line == 20);
  CHECK(mounted->provenance.source.find("outputs.checkpoints") != std::string::npos);
  // Copied after the job's code ends: written through storage, but no save waits on it.
  facts = facts_of("outputs:\n  model:\n    type: uri_folder\n    mode: upload\n");
  CHECK(facts.Number("runtime.writing_outputs"));
  CHECK_FALSE(facts.Find("runtime.rw_mount_outputs"));
  facts = facts_of("outputs:\n  model:\n    type: uri_folder\n    mode: rw_mount\n");
  CHECK(facts.Find("runtime.rw_mount_outputs"));
}
