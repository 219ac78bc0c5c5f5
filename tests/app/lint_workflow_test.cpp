// lint as a function: a job file (and flags) -> the problems at their lines, with the change.
#include "app/lint_workflow.h"

#include <algorithm>
#include <catch2/catch.hpp>

#include "app_test_support.h"
#include "core/diagnostic_codes.h"

using namespace feedcheck;
using namespace feedcheck::app;
using namespace feedcheck::app::testing;

namespace {

std::string Job(const std::string& name) { return SourcePath("tests/data/jobs/" + name); }

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

LintOutcome Lint(const std::string& job, const std::string& region = "",
                 const std::string& fail_on = "critical") {
  LintRequest request;
  request.job = job;
  request.region = region;
  request.fail_on = fail_on;
  LintOutcome out = RunLint(request);
  for (const auto& d : out.outcome.diagnostics.kept()) UNSCOPED_INFO(FormatDiagnostic(d));
  return out;
}

// The problem with `code` at `line` (0: the first with `code`); nullptr when there is none.
const rules::LintProblem* Problem(const LintOutcome& lint, const std::string& code, int line = 0) {
  for (const auto& p : lint.problems)
    if (p.code == code && (line == 0 || p.location.line == line)) return &p;
  return nullptr;
}

}  // namespace

TEST_CASE("lint prints the change to make at file:line", "[app][lint]") {
  LintRequest request;
  request.job = SourcePath("examples/jobs/train-images-12-nodes.yml");
  request.profile = SourcePath("examples/small-files-multi-epoch.yaml");
  request.fail_on = "warning";
  LintOutcome lint = RunLint(request);
  CHECK(lint.outcome.status == ExitStatus::kFindings);
  // 12 x ND96asr_v4 (24 Gbit/s) on an East US account (200 Gbit/s).
  const rules::LintProblem* egress = Problem(lint, codes::kLintEgress, 19);
  REQUIRE(egress);
  CHECK(egress->severity == Severity::kWarning);
  CHECK(egress->location.file == request.job);
  CHECK(Has(egress->message, "resources.instance_count is 12"));
  // AZUREML_DATASET_HTTP_RETRY_COUNT "20" (line 15), nearly 3x the default: the guide's "set too
  // high: decrease" applies on its own, whatever the latency.
  const rules::LintProblem* retries = Problem(lint, codes::kLintContradictingEnv, 15);
  REQUIRE(retries);
  CHECK(retries->rule_id == "http-retry-count-too-high");
  // RSLEX_DOWNLOADER_THREADS 8 on 96 cores -> 384.
  bool threads = false;
  for (const auto& p : lint.problems)
    threads = threads || Has(p.change,
                             "RSLEX_DOWNLOADER_THREADS: \"8\" -> "
                             "RSLEX_DOWNLOADER_THREADS: \"384\"");
  CHECK(threads);
  // The report: one table row per problem, and the counts.
  const Report& r = lint.outcome.report;
  const ReportTable* table = FindTable(r, "Problems");
  REQUIRE(table);
  CHECK(table->rows.size() == lint.problems.size());
  CHECK(ResultNumber(r, "problems") == static_cast<double>(lint.problems.size()));
  CHECK(ResultNumber(r, "warnings").value_or(0) >= 3);
}

TEST_CASE("lint reads the job's own distribution: NODE_RANK under PyTorch", "[app][lint]") {
  LintOutcome lint = Lint(Job("pytorch-12-nodes-download.yml"), "eastus", "warning");
  CHECK(lint.outcome.status == ExitStatus::kFindings);
  const rules::LintProblem* egress = Problem(lint, codes::kLintEgress, 18);
  REQUIRE(egress);
  CHECK(Has(egress->message, "resources.instance_count is 12"));
  CHECK_FALSE(Has(egress->message, "ranks 0-"));
  CHECK(Has(egress->change, "account = int(os.environ[\"NODE_RANK\"]) * 2 // 12"));
  CHECK(Has(egress->change, "nodes 0-5 -> account 1, nodes 6-11 -> account 2"));
  // DATASET_MOUNT_* on a job whose inputs are all downloaded do nothing.
  const rules::LintProblem* threads = Problem(lint, codes::kLintNoEffect, 13);
  REQUIRE(threads);
  CHECK(Has(threads->message, "DATASET_MOUNT_READ_THREADS has no effect"));
  const rules::LintProblem* cache = Problem(lint, codes::kLintNoEffect, 15);
  REQUIRE(cache);
  CHECK(Has(cache->message, "DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLED has no effect"));
  // Problems in line order, those about the whole file last.
  std::vector<int> lines;
  for (const auto& p : lint.problems)
    if (p.location.line > 0) lines.push_back(p.location.line);
  REQUIRE(lines.size() >= 3);
  CHECK(std::is_sorted(lines.begin(), lines.end()));
}

TEST_CASE("lint: MPI jobs derive the node index from the rank", "[app][lint]") {
  LintOutcome lint = Lint(Job("mpi-12-nodes-mount.yml"), "eastus");
  CHECK(lint.outcome.status == ExitStatus::kOk);  // warnings only, --fail-on critical
  const rules::LintProblem* egress = Problem(lint, codes::kLintEgress);
  REQUIRE(egress);
  CHECK(Has(egress->change, "int(os.environ[\"OMPI_COMM_WORLD_RANK\"]) // 8 * 2 // 12"));
  CHECK_FALSE(Has(egress->change, "NODE_RANK\"]"));
  // The download threads on a job that only mounts do nothing.
  const rules::LintProblem* threads = Problem(lint, codes::kLintNoEffect, 12);
  REQUIRE(threads);
  CHECK(Has(threads->message, "RSLEX_DOWNLOADER_THREADS has no effect"));
}

TEST_CASE("lint states the region it assumes, and checks its flags", "[app][lint]") {
  const std::string job = Job("mpi-12-nodes-mount.yml");
  LintOutcome assumed = Lint(job);
  CHECK(assumed.outcome.status == ExitStatus::kOk);
  CHECK(Has(assumed.outcome.report.verdict_detail,
            "note: no region given: assuming a standard GPv2 account in a listed region (200 "
            "Gbit/s"));
  LintOutcome stated = Lint(job, "italynorth");
  CHECK_FALSE(Has(stated.outcome.report.verdict_detail, "assuming"));
  // 50 Gbit/s there, as `egress` says: 6 accounts.
  const rules::LintProblem* egress = Problem(stated, codes::kLintEgress);
  REQUIRE(egress);
  CHECK(Has(egress->change, "across 6 storage accounts"));
  LintOutcome typo = Lint(job, "eastuss");
  CHECK(typo.outcome.status == ExitStatus::kUsage);
  CHECK(HasDiagnostic(typo.outcome.diagnostics, codes::kBadFlag, "did you mean eastus"));
  LintRequest sku;
  sku.job = job;
  sku.sku = "ND96asr_v5";
  CHECK(RunLint(sku).outcome.status == ExitStatus::kUsage);
  // --sku for a job that leaves the instance type to its compute cluster.
  const std::string bare = Job("no-instance-type.yml");
  CHECK(Lint(bare, "eastus").outcome.status == ExitStatus::kOk);
  LintRequest with;
  with.job = bare;
  with.region = "italynorth";
  with.sku = "Standard_ND96isr_H100_v5";
  with.fail_on = "never";
  LintOutcome h100 = RunLint(with);
  const rules::LintProblem* stripe = Problem(h100, codes::kLintEgress);
  REQUIRE(stripe);
  CHECK(stripe->location.line == 11);
  CHECK(Has(stripe->change, "stripe the data across"));  // 80 Gbit/s NICs on 50 Gbit/s
}

TEST_CASE("lint: a file that is not a command job is an input error", "[app][lint][errors]") {
  LintOutcome profile = Lint(SourcePath("examples/small-files-multi-epoch.yaml"));
  CHECK(profile.outcome.status == ExitStatus::kInputError);
  CHECK_FALSE(profile.outcome.has_report);
  bool named = false;
  for (const auto& d : profile.outcome.diagnostics.kept())
    named = named || Has(d.message, "not an Azure ML command job");
  CHECK(named);
  std::string metrics =
      WriteTempFile("metrics.json", R"({"value": [{"name": {"value": "Egress"}}]})");
  CHECK(Lint(metrics).outcome.status == ExitStatus::kInputError);
  // A Spark job is a job lint does not read; a pipeline is read step by step.
  LintOutcome spark = Lint(WriteTempFile("spark.yml", "type: spark\nentry: {file: a.py}\n"));
  CHECK(spark.outcome.status == ExitStatus::kInputError);
  bool type = false;
  for (const auto& d : spark.outcome.diagnostics.kept())
    type = type || Has(d.message, "job type 'spark'");
  CHECK(type);
  LintOutcome pipeline = Lint(Job("pipeline-job.yml"));
  CHECK(pipeline.outcome.status == ExitStatus::kOk);
  const rules::LintProblem* size = Problem(pipeline, codes::kLintNodeSize);
  REQUIRE(size);
  CHECK(Has(size->message, "step 'train': the job runs on serverless compute"));
}

TEST_CASE("lint flags a retired instance type at its line", "[app][lint]") {
  LintOutcome lint = Lint(Job("retired-size.yml"), "eastus", "warning");
  CHECK(lint.outcome.status == ExitStatus::kFindings);
  const rules::LintProblem* retired = Problem(lint, codes::kLintOther, 12);
  REQUIRE(retired);
  CHECK(Has(retired->message, "The VM size is retired"));
}

TEST_CASE("a VM size the knowledge base does not know is reported at the job's line",
          "[app][lint]") {
  const std::string job =
      WriteTempFile("unknown-size.yml",
                    "type: command\ncommand: python t.py --data ${{inputs.d}}\ninputs:\n  d:\n"
                    "    type: uri_folder\n    path: azureml://datastores/d/paths/x\n"
                    "resources:\n  instance_count: 2\n  instance_type: Standard_ND96asr_v9\n");
  LintOutcome lint = Lint(job);
  CHECK(lint.outcome.status == ExitStatus::kInputError);
  bool located = false;
  for (const auto& d : lint.outcome.diagnostics.kept())
    if (d.code == codes::kUnknownVm) located = d.location.file == job && d.location.line == 9;
  CHECK(located);
}

TEST_CASE("a pipeline whose VM size is a pipeline input is linted, never refused", "[app][lint]") {
  const std::string job = WriteTempFile(
      "size-input.yml",
      "type: pipeline\ninputs:\n  sku:\n    type: string\n"
      "jobs:\n  train:\n    type: command\n    command: python t.py --data ${{inputs.d}}\n"
      "    inputs:\n      d:\n        type: uri_folder\n"
      "        path: azureml://datastores/d/paths/x\n"
      "    resources:\n      instance_count: 12\n"
      "      instance_type: ${{parent.inputs.sku}}\n");
  LintOutcome unknown = Lint(job);
  CHECK(unknown.outcome.status == ExitStatus::kOk);
  const rules::LintProblem* size = Problem(unknown, codes::kLintNodeSize);
  REQUIRE(size);
  CHECK(Has(size->message,
            "the VM size is unknown: resources.instance_type is "
            "${{parent.inputs.sku}}"));
  CHECK(size->location.line == 15);
  CHECK(Has(size->change, "--sku"));
  // --sku gives the size: the egress check runs (12 x 24 Gbit/s on a 200 Gbit/s account).
  LintRequest request;
  request.job = job;
  request.sku = "Standard_ND96asr_v4";
  request.region = "eastus";
  LintOutcome sized = RunLint(request);
  CHECK(sized.outcome.status == ExitStatus::kOk);
  CHECK_FALSE(Problem(sized, codes::kLintNodeSize));
  CHECK(Problem(sized, codes::kLintEgress));
}

TEST_CASE("a pipeline where nothing was checked says so, not Ok", "[app][lint]") {
  const std::string job =
      WriteTempFile("nothing.yml",
                    "type: pipeline\njobs:\n  a:\n    type: spark\n  b:\n    type: pipeline\n"
                    "    component: azureml:shared:1\n");
  LintOutcome lint = Lint(job);
  CHECK(lint.outcome.status == ExitStatus::kOk);
  CHECK(lint.outcome.report.verdict == "nothing checked");
  CHECK_FALSE(Has(lint.outcome.report.verdict_detail, "Ok"));
  CHECK(Has(lint.outcome.report.verdict_detail, "step 'a' is a spark step: skipped"));
  CHECK(Has(lint.outcome.report.verdict_detail, "step 'b' is the pipeline component"));
}

TEST_CASE("an input from outside Azure ML's datastores is said to be out of scope", "[app][lint]") {
  const std::string source =
      GENERATE(as<std::string>{}, "http://vision.example.org/images.tar", "s3://bucket/images/");
  const std::string job =
      WriteTempFile("outside.yml",
                    "type: command\ncommand: python t.py --data ${{inputs.d}}\ninputs:\n  d:\n"
                    "    type: uri_file\n    path: " +
                        source + "\nresources:\n  instance_count: 12\n");
  LintRequest request;
  request.job = job;
  request.sku = "Standard_ND96asr_v4";
  request.region = "eastus";
  LintOutcome lint = RunLint(request);
  CHECK(lint.outcome.status == ExitStatus::kOk);
  CHECK(Has(lint.outcome.report.verdict_detail, "outside Azure ML's datastores"));
  // 12 x 24 Gbit/s is past one account's 200 Gbit/s, but the data is on no storage account.
  CHECK_FALSE(Problem(lint, codes::kLintEgress));
  // The same job reading an Azure blob URL is judged against the account.
  const std::string azure =
      WriteTempFile("azure.yml",
                    "type: command\ncommand: python t.py --data ${{inputs.d}}\ninputs:\n  d:\n"
                    "    type: uri_file\n    path: https://acct.blob.core.windows.net/c/x.tar\n"
                    "resources:\n  instance_count: 12\n");
  request.job = azure;
  LintOutcome in_scope = RunLint(request);
  CHECK(Problem(in_scope, codes::kLintEgress));
  CHECK_FALSE(Has(in_scope.outcome.report.verdict_detail, "outside Azure ML's datastores"));
}
