// Pipeline and sweep jobs read into command steps: components from files relative to the job,
// bindings to the pipeline's inputs and outputs, concurrent trials, and misspelt keys.
#include "rules/job_steps.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "core/diagnostic_codes.h"
#include "rules/job_lint.h"

using namespace feedcheck;
using namespace feedcheck::rules;

namespace {

std::string Shapes(const std::string& name) {
  return std::string(FEEDCHECK_SOURCE_DIR) + "/tests/data/edges/shapes/" + name;
}

const JobFile* Step(const JobSteps& steps, const std::string& name) {
  for (const auto& s : steps.steps)
    if (s.step == "step '" + name + "'") return &s;
  return nullptr;
}

const JobInput* Input(const JobFile& job, const std::string& name) {
  for (const auto& i : job.inputs)
    if (i.name == name) return &i;
  return nullptr;
}

}  // namespace

TEST_CASE("a pipeline's steps come from inline jobs and component files", "[rules][lint]") {
  JobSteps steps;
  DiagnosticList d;
  REQUIRE(ReadJobSteps(Shapes("pipeline-components.yml"), &steps, &d));
  CHECK(d.errors() == 0);
  CHECK(steps.kind == "pipeline");
  REQUIRE(steps.steps.size() == 3);
  const JobFile* train = Step(steps, "train_job");
  REQUIRE(train);
  // The component file's settings, at their lines in the component file.
  REQUIRE(!train->env.empty());
  CHECK(train->env[0].name == "DATASET_MOUNT_BLOCK_BASED_CACHE_ENABLE");
  CHECK(train->env[0].file.find("components/train.yml") != std::string::npos);
  CHECK(train->env[0].line == 20);
  // training_data bound to the pipeline's training_images: its mode, at the pipeline's line.
  const JobInput* data = Input(*train, "training_data");
  REQUIRE(data);
  CHECK(data->bound_to == "training_images");
  CHECK(data->mode == "ro_mount");
  CHECK(data->file == Shapes("pipeline-components.yml"));
  CHECK(data->mode_line == 10);
  // A literal the step gives; learning_rate keeps the component's default; both literals.
  REQUIRE(Input(*train, "max_epochs"));
  CHECK(Input(*train, "max_epochs")->type == "literal");
  CHECK(Input(*train, "max_epochs")->literal == "20");
  // The pipeline's compute, where it is written.
  CHECK(train->compute == "azureml:gpu-cluster");
  CHECK(train->compute_line == 5);
  CHECK(train->instance_count == 2);
  // score_job: the step's own mode beside a bound path; another step's output as input.
  const JobFile* score = Step(steps, "score_job");
  REQUIRE(score);
  REQUIRE(Input(*score, "test_data"));
  CHECK(Input(*score, "test_data")->mode == "download");
  REQUIRE(Input(*score, "model_input"));
  CHECK(Input(*score, "model_input")->upstream);
  // The typo in the component file, and the one in the pipeline.
  bool resources = false;
  for (const auto& t : score->typos)
    resources = resources || (t.key == "resourcs" && t.likely == "resources");
  CHECK(resources);
  bool path = false;
  for (const auto& t : steps.typos)
    path = path || (t.key == "paths" && t.likely == "path" && t.line == 9);
  CHECK(path);
  // The registered component is a note, not an error.
  REQUIRE(steps.notes.size() == 1);
  CHECK(steps.notes[0].text.find("azureml:my_eval@latest") != std::string::npos);
}

TEST_CASE("a pipeline output binding gives the step the pipeline's output mode", "[rules][lint]") {
  JobSteps steps;
  DiagnosticList d;
  REQUIRE(ReadJobSteps(Shapes("pipeline-inline.yml"), &steps, &d));
  const JobFile* train = Step(steps, "train");
  REQUIRE(train);
  REQUIRE(train->outputs.size() == 1);
  CHECK(train->outputs[0].mode == "upload");
  // epochs bound to a literal pipeline input stays a literal: a fact of the step.
  REQUIRE(Input(*train, "epochs"));
  CHECK(Input(*train, "epochs")->literal == "10");
  const JobFile* prep = Step(steps, "prep");
  REQUIRE(prep);
  REQUIRE(Input(*prep, "raw"));
  CHECK(Input(*prep, "raw")->mode == "download");
  CHECK(prep->compute == "azureml:gpu-cluster");  // settings.default_compute
}

TEST_CASE("a sweep's trial runs max_concurrent_trials copies at once", "[rules][lint]") {
  JobSteps steps;
  DiagnosticList d;
  REQUIRE(ReadJobSteps(Shapes("sweep.yml"), &steps, &d));
  CHECK(steps.kind == "sweep");
  REQUIRE(steps.steps.size() == 1);
  const JobFile& trial = steps.steps[0];
  CHECK(trial.instance_count == 2);
  CHECK(trial.concurrent_copies == 8);
  CHECK(trial.concurrent_copies_line == 35);
  CHECK(trial.NodesAtOnce() == 16);
  REQUIRE(Input(trial, "images"));
  CHECK(Input(trial, "images")->mode == "ro_mount");
  FactSet facts = JobFacts(trial);
  CHECK(facts.Number("node.count") == 16);
  CHECK(facts.Find("node.count")->provenance.line == 35);
}

TEST_CASE("pipeline errors name the file and line", "[rules][lint][errors]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "feedcheck-job-steps-test";
  fs::create_directories(dir);
  const std::string job = (dir / "p.yml").string();
  std::ofstream(job) << "type: pipeline\njobs:\n  a:\n    type: command\n"
                        "    component: file:./missing.yml\n";
  JobSteps steps;
  DiagnosticList d;
  CHECK_FALSE(ReadJobSteps(job, &steps, &d));
  REQUIRE(d.errors() == 1);
  CHECK(d.kept()[0].location.line == 5);
  CHECK(d.kept()[0].message.find("missing.yml") != std::string::npos);
  JobSteps empty;
  DiagnosticList e;
  CHECK_FALSE(ReadJobStepsText("p.yml", "type: pipeline\njobs: {}\n", &empty, &e));
  CHECK(e.kept()[0].message.find("'jobs:'") != std::string::npos);
  JobSteps no_trial;
  DiagnosticList t;
  CHECK_FALSE(ReadJobStepsText("s.yml", "type: sweep\ncompute: azureml:c\n", &no_trial, &t));
  CHECK(t.kept()[0].message.find("trial") != std::string::npos);
  JobSteps spark;
  DiagnosticList s;
  CHECK(ReadJobStepsText("p.yml",
                         "type: pipeline\njobs:\n  s:\n    type: spark\n  c:\n    type: command\n"
                         "    command: python t.py\n",
                         &spark, &s));
  CHECK(spark.steps.size() == 1);
  REQUIRE(spark.notes.size() == 1);
  CHECK(spark.notes[0].text.find("spark step") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("misspelt schema keys are flagged with the likely key, valid ones are not",
          "[rules][lint]") {
  JobSteps steps;
  DiagnosticList d;
  REQUIRE(ReadJobStepsText("j.yml",
                           "type: command\ncommand: python t.py\ncomand_line: x\n"
                           "environment_variable:\n  A: b\ninputs:\n  d:\n    type: uri_folder\n"
                           "    paths: azureml://x\n    mode: ro_mount\n"
                           "resources:\n  instance_count: 1\n  instance_typ: Standard_NC6s_v3\n"
                           "display_name: ok\nexperiment_name: ok\ntags: {a: b}\n",
                           &steps, &d));
  REQUIRE(steps.steps.size() == 1);
  std::map<std::string, std::string> typos;
  for (const auto& t : steps.steps[0].typos) typos[t.key] = t.likely;
  CHECK(typos["environment_variable"] == "environment_variables");
  CHECK(typos["paths"] == "path");
  CHECK(typos["instance_typ"] == "instance_type");
  CHECK(typos.count("comand_line") == 0);  // far from every key: left alone
  CHECK(typos.count("display_name") == 0);
  CHECK(typos.size() == 3);
}

TEST_CASE("training data read through an rw_mount output is questioned", "[rules][lint]") {
  JobSteps steps;
  DiagnosticList d;
  REQUIRE(ReadJobStepsText("j.yml",
                           "type: command\ncommand: python t.py --out ${{outputs.work}}\n"
                           "outputs:\n  work:\n    type: uri_folder\n",
                           &steps, &d));
  const JobFile& job = steps.steps[0];
  // No data input: only when the profile describes a dataset the job must be reading somehow.
  CHECK(OutputReads(job, /*dataset_declared=*/false).empty());
  auto with_dataset = OutputReads(job, /*dataset_declared=*/true);
  REQUIRE(with_dataset.size() == 1);
  CHECK(with_dataset[0].code == codes::kLintDirect);
  CHECK(with_dataset[0].severity == Severity::kInfo);
  CHECK(with_dataset[0].location.line == 4);
  CHECK(with_dataset[0].message.find("reads no data input") != std::string::npos);
  // An upload output is not a mount: nothing to question.
  JobSteps upload;
  REQUIRE(ReadJobStepsText("j.yml",
                           "type: command\ncommand: python t.py --data ${{outputs.work}}\n"
                           "outputs:\n  work:\n    mode: upload\n",
                           &upload, &d));
  CHECK(OutputReads(upload.steps[0], true).empty());
}

TEST_CASE("a trial or component that is neither a file nor registered is an error",
          "[rules][lint][errors]") {
  JobSteps steps;
  DiagnosticList d;
  CHECK_FALSE(ReadJobStepsText("s.yml", "type: sweep\ncompute: azureml:c\ntrial: 5\n", &steps, &d));
  REQUIRE(d.errors() == 1);
  CHECK(d.kept()[0].location.file == "s.yml");
  CHECK(d.kept()[0].location.line == 3);
  CHECK(d.kept()[0].message.find("trial: '5' is neither a component file") != std::string::npos);
  JobSteps list;
  DiagnosticList l;
  CHECK_FALSE(ReadJobStepsText("s.yml", "type: sweep\ntrial:\n  - a\n", &list, &l));
  REQUIRE(l.errors() == 1);
  CHECK(l.kept()[0].message.find("not a list") != std::string::npos);
  // A registered component stays a note: lint reads what the step gives.
  JobSteps registered;
  DiagnosticList r;
  CHECK(ReadJobStepsText("s.yml", "type: sweep\ntrial: azureml:train:1\n", &registered, &r));
  CHECK(r.errors() == 0);
  REQUIRE(registered.notes.size() == 1);
  CHECK(registered.notes[0].text.find("registered component azureml:train:1") != std::string::npos);
}

TEST_CASE("a YAML error in a component file names that file, its line and the step",
          "[rules][lint][errors]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "feedcheck-job-steps-yaml-test";
  fs::create_directories(dir);
  std::ofstream(dir / "c.yml") << "type: command\ninputs:\n  d:\n    mode: [ro_mount\n"
                                  "command: python t.py\n";
  const std::string job = (dir / "p.yml").string();
  std::ofstream(job) << "type: pipeline\njobs:\n  train:\n    component: ./c.yml\n";
  JobSteps steps;
  DiagnosticList d;
  CHECK_FALSE(ReadJobSteps(job, &steps, &d));
  REQUIRE(d.errors() >= 1);
  const Diagnostic& e = d.kept()[0];
  CHECK(e.location.file == (dir / "c.yml").string());
  // The unclosed flow sequence opens on line 4; yaml-cpp notices it on line 4 or 5.
  CHECK(e.location.line >= 4);
  CHECK(e.location.line <= 5);
  CHECK(e.context.find("step 'train'") != std::string::npos);
  CHECK(e.context.find(job + ":4") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("a VM size or node count given as a pipeline input is resolved from its value",
          "[rules][lint]") {
  const std::string sku = GENERATE(as<std::string>{}, "Standard_ND96asr_v4", "");
  const std::string pipeline =
      "type: pipeline\ninputs:\n  size:\n    type: string\n" +
      (sku.empty() ? std::string("    optional: true\n") : "    default: " + sku + "\n") +
      "  nodes:\n    type: integer\n    default: 3\n"
      "jobs:\n  train:\n    type: command\n    command: python t.py\n"
      "    resources:\n      instance_type: ${{parent.inputs.size}}\n"
      "      instance_count: ${{parent.inputs.nodes}}\n";
  JobSteps steps;
  DiagnosticList d;
  REQUIRE(ReadJobStepsText("p.yml", pipeline, &steps, &d));
  REQUIRE(steps.steps.size() == 1);
  const JobFile& train = steps.steps[0];
  CHECK(train.instance_type == sku);  // "" when the pipeline gives no value: unknown
  CHECK(train.instance_type_expression == "${{parent.inputs.size}}");
  CHECK(train.instance_type_line == 14);
  CHECK(train.instance_count == 3);
  CHECK(train.instance_count_expression.empty());
  const FactSet facts = JobFacts(train);
  CHECK(facts.Text("node.sku").value_or("") == sku);
  CHECK(facts.Number("node.count").value_or(0) == 3);
}

TEST_CASE("nested pipeline components and sweep steps are read, or listed with the reason",
          "[rules][lint]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "feedcheck-nested-pipeline";
  fs::create_directories(dir);
  std::ofstream(dir / "inner.yml") << "type: pipeline\ninputs:\n  data:\n    type: uri_folder\n"
                                      "jobs:\n  read:\n    type: command\n"
                                      "    command: python r.py --data ${{inputs.d}}\n"
                                      "    inputs:\n      d: ${{parent.inputs.data}}\n";
  std::ofstream(dir / "trial.yml") << "type: command\ncommand: python t.py\n";
  const std::string outer =
      "type: pipeline\ninputs:\n  images:\n    type: uri_folder\n"
      "    path: azureml://datastores/d/paths/images\n    mode: download\n"
      "jobs:\n"
      "  prep:\n    type: pipeline\n    component: file:./inner.yml\n"
      "    inputs:\n      data: ${{parent.inputs.images}}\n"
      "  tune:\n    type: sweep\n    trial: ./trial.yml\n"
      "    inputs:\n      data: ${{parent.inputs.images}}\n"
      "    limits:\n      max_concurrent_trials: 4\n"
      "  remote:\n    type: pipeline\n    component: azureml:shared_pipeline:1\n"
      "  spark_step:\n    type: spark\n";
  std::ofstream(dir / "outer.yml") << outer;
  JobSteps steps;
  DiagnosticList d;
  REQUIRE(ReadJobSteps((dir / "outer.yml").string(), &steps, &d));
  std::map<std::string, const JobFile*> by_name;
  for (const auto& s : steps.steps) by_name[s.step] = &s;
  // The nested pipeline's step reads the outer pipeline's input through the step's binding.
  REQUIRE(by_name.count("step 'prep > read'"));
  const JobFile& read = *by_name["step 'prep > read'"];
  REQUIRE(read.FirstDataInput());
  CHECK(read.FirstDataInput()->mode == "download");
  CHECK(read.FirstDataInput()->path == "azureml://datastores/d/paths/images");
  // The sweep step: its trial, with the step's inputs and its concurrent trials.
  REQUIRE(by_name.count("step 'tune' (a sweep's trial)"));
  CHECK(by_name["step 'tune' (a sweep's trial)"]->concurrent_copies == 4);
  CHECK(by_name["step 'tune' (a sweep's trial)"]->FirstDataInput() != nullptr);
  // What is not read is said, with the reason.
  auto noted = [&](const std::string& part) {
    return std::any_of(steps.notes.begin(), steps.notes.end(),
                       [&](const StepNote& n) { return n.text.find(part) != std::string::npos; });
  };
  CHECK(noted("step 'remote' is the pipeline component azureml:shared_pipeline:1: not read"));
  CHECK(noted("step 'spark_step' is a spark step: skipped"));
  fs::remove_all(dir);
}
