#include "rules/job_lint.h"

#include <catch2/catch.hpp>

#include "core/diagnostic_codes.h"
#include "rules/profile.h"
#include "test_facts.h"

using namespace feedcheck;
using namespace feedcheck::rules;
using feedcheck::rules::test::Facts;

namespace {

const char* kJob = R"($schema: https://azuremlschemas.azureedge.net/latest/commandJob.schema.json
type: command
command: python train.py --data ${{inputs.images}}
inputs:
  epochs: 10
  images:
    type: uri_folder
    path: azureml://datastores/images/paths/train
    mode: download
environment_variables:
  DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED: "false"
  AZUREML_DATASET_HTTP_RETRY_COUNT: "20"
compute: azureml:gpu-cluster
resources:
  instance_count: 12
  instance_type: Standard_ND96asr_v4
)";

struct Linted {
  JobFile job;
  EvaluationResult result;
  std::vector<LintProblem> problems;
};

Linted Lint(const std::string& yaml, FactSet extra) {
  Linted l;
  DiagnosticList d;
  REQUIRE(ReadJobText("job.yml", yaml, &l.job, &d));
  RuleSet set;
  REQUIRE(set.LoadDirectory(std::string(FEEDCHECK_SOURCE_DIR) + "/rules/builtin", &d));
  FactSet facts = std::move(extra);
  facts.Merge(JobFacts(l.job));
  l.result = set.Evaluate(facts);
  l.problems = LintJob(l.job, l.result, MergeAdvice(l.result.findings));
  return l;
}

const LintProblem* Problem(const Linted& l, const std::string& code, const std::string& text = "") {
  for (const auto& p : l.problems)
    if (p.code == code && (text.empty() || p.message.find(text) != std::string::npos)) return &p;
  return nullptr;
}

}  // namespace

TEST_CASE("the job file reader keeps lines", "[rules][lint]") {
  JobFile job;
  DiagnosticList d;
  REQUIRE(ReadJobText("job.yml", kJob, &job, &d));
  CHECK(d.total() == 0);
  REQUIRE(job.inputs.size() == 2);
  CHECK(job.inputs[0].type == "literal");
  CHECK(job.inputs[1].mode == "download");
  CHECK(job.inputs[1].mode_line == 9);
  CHECK(job.env_line == 10);
  REQUIRE(job.env.size() == 2);
  CHECK(job.env[1].line == 12);
  CHECK(job.instance_count == 12);
  CHECK(job.instance_count_line == 15);
  FactSet facts = JobFacts(job);
  CHECK(facts.Number("node.count") == 12);
  CHECK(facts.Text("node.sku") == "Standard_ND96asr_v4");
  CHECK(facts.Text("workload.mode") == "download");
  CHECK(facts.Number("workload.epochs") == 10);
  CHECK(facts.Text("runtime.setting.AZUREML_DATASET_HTTP_RETRY_COUNT") == "20");
  CHECK(facts.Find("node.count")->provenance.line == 15);
}

TEST_CASE("L001 wrong mode points at the mode line", "[rules][lint]") {
  // 10 TB does not fit a 6000 GiB disk: download is wrong, mount is the change.
  Linted l = Lint(kJob, Facts({"dataset.bytes=10TB", "node.local_disk_bytes=6000GiB"}));
  const LintProblem* p = Problem(l, codes::kLintWrongMode);
  REQUIRE(p);
  CHECK(p->severity == Severity::kCritical);
  CHECK(p->location.line == 9);
  CHECK(p->change == "mode: download -> mode: ro_mount");
  CHECK(p->rule_id == "download-does-not-fit");
  Linted fits = Lint(kJob, Facts({"dataset.bytes=1TB", "node.local_disk_bytes=6000GiB"}));
  CHECK_FALSE(Problem(fits, codes::kLintWrongMode));
}

TEST_CASE("L002 missing env var for the scenario, L003 contradicting value", "[rules][lint]") {
  std::string job = kJob;
  job.replace(job.find("mode: download"), 14, "mode: ro_mount");
  // A count raised within twice the default (the guide's example sets 10).
  job.replace(job.find("COUNT: \"20\""), 11, "COUNT: \"12\"");
  // Scenario (c): millions of small files read once by 8 readers.
  Linted l = Lint(job, Facts({"dataset.median_file_bytes=500KB", "dataset.files=2000000",
                              "workload.readers=8"}));
  // epochs=10 comes from the job's literal input: scenario (d), block cache on.
  const LintProblem* wrong =
      Problem(l, codes::kLintContradictingEnv, "DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED");
  REQUIRE(wrong);
  CHECK(wrong->location.line == 11);
  CHECK(wrong->change ==
        "DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED: \"false\" -> "
        "DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED: \"true\"");
  // A raised retry count alone is not contradicted: the guide ties fewer retries to client
  // latency that storage does not see, which these facts do not show.
  CHECK_FALSE(Problem(l, codes::kLintContradictingEnv, "AZUREML_DATASET_HTTP_RETRY_COUNT"));
  Linted slow =
      Lint(job, Facts({"dataset.median_file_bytes=500KB", "dataset.files=2000000",
                       "workload.readers=8", "metrics.e2e_latency_ms=12ms",
                       "metrics.server_latency_ms=10ms", "probe.latency.ttfb_p50_ms=80ms"}));
  const LintProblem* retries =
      Problem(slow, codes::kLintContradictingEnv, "AZUREML_DATASET_HTTP_RETRY_COUNT");
  REQUIRE(retries);
  CHECK(retries->location.line == 12);
  // Far above the default (20 is nearly 3x), the guide's "set too high: decrease" on its own.
  Linted high = Lint(kJob, Facts({"dataset.median_file_bytes=500KB", "dataset.files=2000000",
                                  "workload.readers=8"}));
  const LintProblem* too_high =
      Problem(high, codes::kLintContradictingEnv, "AZUREML_DATASET_HTTP_RETRY_COUNT");
  REQUIRE(too_high);
  CHECK(too_high->rule_id == "http-retry-count-too-high");
  CHECK(too_high->change ==
        "AZUREML_DATASET_HTTP_RETRY_COUNT: \"20\" -> "
        "AZUREML_DATASET_HTTP_RETRY_COUNT: \"7\"");

  std::string one_epoch = job;
  one_epoch.replace(one_epoch.find("epochs: 10"), 10, "epochs: 1");
  Linted c = Lint(one_epoch, Facts({"dataset.median_file_bytes=500KB", "dataset.files=2000000",
                                    "workload.readers=8"}));
  const LintProblem* missing =
      Problem(c, codes::kLintMissingEnv, "DATASET_MOUNT_MEMORY_CACHE_SIZE");
  REQUIRE(missing);
  CHECK(missing->location.line == 10);
  CHECK(missing->change ==
        "add under environment_variables:  DATASET_MOUNT_MEMORY_CACHE_SIZE: \"0\"");
  CHECK(Problem(c, codes::kLintMissingEnv, "DATASET_MOUNT_BLOCK_FILE_CACHE_ENABLED"));
}

TEST_CASE("L004 more nodes than one account feeds", "[rules][lint]") {
  Linted l = Lint(kJob, Facts({"node.nic_gbps=24Gbit/s", "account.egress_gbps=200Gbit/s"}));
  const LintProblem* p = Problem(l, codes::kLintEgress);
  REQUIRE(p);
  CHECK(p->location.line == 15);
  CHECK(p->message ==
        "resources.instance_count is 12: More nodes than one storage account can feed at full NIC "
        "rate");
  CHECK(p->change.find("nodes 0-5 -> account 1, nodes 6-11 -> account 2") != std::string::npos);
  std::string eight = kJob;
  eight.replace(eight.find("instance_count: 12"), 18, "instance_count: 8");
  CHECK_FALSE(
      Problem(Lint(eight, Facts({"node.nic_gbps=24Gbit/s", "account.egress_gbps=200Gbit/s"})),
              codes::kLintEgress));
}

TEST_CASE("a clean job has no problems", "[rules][lint]") {
  std::string job = kJob;
  job.replace(job.find("mode: download"), 14, "mode: ro_mount");
  job.replace(job.find("\"false\""), 7, "\"true\"");
  job.replace(job.find("\"20\""), 4, "\"7\"");
  Linted l = Lint(
      job, Facts({"dataset.median_file_bytes=500KB", "dataset.files=20000", "workload.readers=8",
                  "node.nic_gbps=24Gbit/s", "account.egress_gbps=400Gbit/s"}));
  for (const auto& p : l.problems) UNSCOPED_INFO(p.code << " " << p.message);
  // Only the small-files advice remains (L005: nothing in the job can fix it).
  REQUIRE(l.problems.size() == 1);
  CHECK(l.problems[0].code == codes::kLintOther);
  CHECK(l.problems[0].rule_id == "small-files-pack-shards");
}

TEST_CASE("job files that are not jobs are errors with a location", "[rules][lint]") {
  JobFile job;
  DiagnosticList d;
  CHECK_FALSE(ReadJobText("job.yml", "- a\n", &job, &d));
  CHECK(d.kept().back().code == "R303");
  CHECK_FALSE(ReadJobText("job.yml", "inputs: {a: [\n", &job, &d));
  CHECK(d.kept().back().code == "R001");
  JobFile odd;
  DiagnosticList e;
  CHECK(ReadJobText("job.yml", "command: python t.py\nresources:\n  instance_count: lots\n", &odd,
                    &e));
  CHECK(e.kept().back().message ==
        "resources.instance_count 'lots' is not a node count (a whole number from 1 to 999999)");
  CHECK(e.kept().back().location.line == 3);
  // A profile or a metrics file parses as YAML but is no job: an error, not "Ok".
  JobFile profile;
  DiagnosticList f;
  CHECK_FALSE(ReadJobText("p.yaml", "nodes: 4\nsku: Standard_ND96asr_v4\n", &profile, &f));
  CHECK(f.kept().back().message.rfind("not an Azure ML command job", 0) == 0);
  JobFile metrics;
  CHECK_FALSE(ReadJobText("m.json", R"({"value": [], "interval": "PT1M"})", &metrics, &f));
  JobFile pipeline;
  CHECK_FALSE(ReadJobText("p.yml", "type: pipeline\njobs: {}\n", &pipeline, &f));
  CHECK(f.kept().back().message.find("job type 'pipeline'") != std::string::npos);
}

TEST_CASE("the job's distribution becomes facts", "[rules][lint]") {
  auto facts_of = [](const std::string& yaml) {
    JobFile job;
    DiagnosticList d;
    REQUIRE(ReadJobText("job.yml", yaml, &job, &d));
    return JobFacts(job);
  };
  FactSet torch =
      facts_of("command: x\ndistribution:\n  type: pytorch\n  process_count_per_instance: 8\n");
  CHECK(torch.Text("workload.distribution") == "pytorch");
  CHECK(torch.Number("workload.processes_per_node") == 8);
  CHECK(torch.Find("workload.distribution")->provenance.line == 2);
  FactSet torch_default = facts_of("command: x\ndistribution:\n  type: pytorch\n");
  CHECK(torch_default.Number("workload.processes_per_node") == 1);  // PyTorch's default
  FactSet mpi = facts_of("command: x\ndistribution:\n  type: mpi\n");
  CHECK(mpi.Text("workload.distribution") == "mpi");
  CHECK_FALSE(mpi.Has("workload.processes_per_node"));  // required for MPI; unknown here
  FactSet none = facts_of("command: x\n");
  CHECK(none.Text("workload.distribution") == "none");
}

TEST_CASE("settings for the other input mode have no effect", "[rules][lint]") {
  JobFile job;
  DiagnosticList d;
  REQUIRE(ReadJobText("job.yml", kJob, &job, &d));
  auto problems = NoEffectSettings(job);  // kJob downloads its one data input
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].code == codes::kLintNoEffect);
  CHECK(problems[0].location.line == 11);
  CHECK(problems[0].message.rfind("DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED has no effect", 0) == 0);
  JobFile mounted;
  REQUIRE(ReadJobText("job.yml",
                      "command: x\ninputs:\n  d: {type: uri_folder, path: p}\n"
                      "environment_variables:\n  RSLEX_DOWNLOADER_THREADS: \"8\"\n"
                      "  DATASET_MOUNT_READ_THREADS: \"64\"\n",
                      &mounted, &d));
  auto mount_problems = NoEffectSettings(mounted);  // ro_mount by default
  REQUIRE(mount_problems.size() == 1);
  CHECK(mount_problems[0].location.line == 5);
  CHECK(mount_problems[0].message.rfind("RSLEX_DOWNLOADER_THREADS has no effect", 0) == 0);
  JobFile mixed;
  REQUIRE(ReadJobText("job.yml",
                      "command: x\ninputs:\n  a: {path: p, mode: download}\n  b: {path: q}\n"
                      "environment_variables:\n  RSLEX_DOWNLOADER_THREADS: \"8\"\n"
                      "  DATASET_MOUNT_READ_THREADS: \"64\"\n",
                      &mixed, &d));
  CHECK(NoEffectSettings(mixed).empty());  // each acts on one of the inputs
}
