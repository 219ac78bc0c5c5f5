#include "rules/job_steps.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "core/ascii_text.h"
#include "core/diagnostic_codes.h"
#include "rules/job_keys.h"
#include "rules/profile.h"
#include "rules/rule_messages.h"
#include "rules/yaml_input.h"

namespace feedcheck::rules {
namespace {

// "${{parent.inputs.x}}" with prefix "parent.inputs." -> "x"; "" when it is not one.
std::string Binding(const std::string& text, const std::string& prefix) {
  std::string t(Trim(text));
  if (!StartsWith(t, "${{") || t.size() < 5 || t.compare(t.size() - 2, 2, "}}") != 0) return "";
  std::string inner(Trim(std::string_view(t).substr(3, t.size() - 5)));
  if (!StartsWith(inner, prefix)) return "";
  return inner.substr(prefix.size());
}

// A component reference that is a file: "file:./train.yml", "./train.yml", "train.yaml".
std::string ComponentFile(const std::string& ref) {
  std::string r(Trim(ref));
  if (StartsWith(r, "file:")) return r.substr(5);
  if (StartsWith(r, "azureml:") || StartsWith(r, "azureml://")) return "";
  const bool yaml_name =
      r.size() > 4 && (r.compare(r.size() - 4, 4, ".yml") == 0 ||
                       (r.size() > 5 && r.compare(r.size() - 5, 5, ".yaml") == 0));
  return yaml_name ? r : "";
}

std::string Relative(const std::string& job_path, const std::string& ref) {
  namespace fs = std::filesystem;
  const fs::path base = fs::path(job_path).parent_path();
  return (base / fs::path(ref)).lexically_normal().generic_string();
}

// Reads a component (a file or an inline mapping) into `step`. Returns false with a
// diagnostic when a referenced file cannot be read.
bool ReadComponent(const YAML::Node& component, const std::string& where,
                   const std::string& job_path, JobFile* step, JobSteps* out,
                   DiagnosticList* diagnostics) {
  if (component.IsMap()) {
    CheckKeys(component, KeySet::kCommandJob, where, job_path, &step->typos);
    ReadCommandFields(component, job_path, step, diagnostics);
    return true;
  }
  if (component.IsSequence()) {
    diagnostics->Add(JobDiagnostic(
        job_path, Line(component),
        fmt::format("{} must be a mapping (the command job) or a component reference (a .yml "
                    "file, or azureml:NAME:VERSION), not a list",
                    where)));
    return false;
  }
  const std::string ref = Scalar(component);
  if (ref.empty()) return true;
  const std::string file = ComponentFile(ref);
  if (file.empty() && !StartsWith(Trim(ref), "azureml:")) {
    // `trial: 5`, `component: train`: neither a file lint can read nor a registered component.
    diagnostics->Add(JobDiagnostic(
        job_path, Line(component),
        fmt::format("{}: '{}' is neither a component file (a path ending in .yml or .yaml, or "
                    "file:PATH) nor a registered component (azureml:NAME:VERSION or "
                    "azureml:NAME@LABEL); give the command job as a mapping or one of those",
                    where, ref)));
    return false;
  }
  if (file.empty()) {
    out->notes.push_back(
        {{job_path, Line(component), 0},
         fmt::format("{} uses the registered component {}: lint reads what the step itself gives "
                     "(its inputs, settings and resources), not the component's own",
                     step->step, ref)});
    return true;
  }
  const std::string path = Relative(job_path, file);
  std::string content;
  DiagnosticList read;
  if (!ReadInputFile(path, "component file", codes::kJobFile, &content, &read)) {
    diagnostics->Add(JobDiagnostic(
        job_path, Line(component),
        fmt::format("{}: component file {} (from '{}', relative to the job file) cannot be read",
                    step->step, path, ref)));
    return false;
  }
  YAML::Node root;
  DiagnosticList parse;
  if (!ParseYaml(path, content, &root, &parse)) {
    // The error is at its line in the component file; the context says which step uses it.
    for (Diagnostic d : parse.kept()) {
      d.context = fmt::format("component file of {}, {}:{}", step->step, job_path, Line(component));
      diagnostics->Add(std::move(d));
    }
    return false;
  }
  if (!root.IsMap()) {
    diagnostics->Add(JobDiagnostic(path, Line(root), "a component file is a YAML mapping"));
    return false;
  }
  CheckKeys(root, KeySet::kCommandJob, "", path, &step->typos);
  ReadCommandFields(root, path, step, diagnostics);
  return true;
}

// The value a pipeline input gives an expression (${{parent.inputs.x}}): its literal or
// default; "" when the pipeline gives none (it is set when the pipeline runs).
std::string PipelineValue(const JobFile& parent, const std::string& expression) {
  const std::string name = Binding(expression, "parent.inputs.");
  if (name.empty()) return "";
  for (const auto& p : parent.inputs)
    if (p.name == name && p.type == "literal" && p.literal.find("${{") == std::string::npos)
      return std::string(Trim(p.literal));
  return "";
}

// instance_type and instance_count written as pipeline-input expressions, resolved from the
// pipeline's inputs where they give a value.
void ResolveResources(const JobFile& parent, JobFile* step) {
  if (!step->instance_type_expression.empty()) {
    if (std::string v = PipelineValue(parent, step->instance_type_expression); !v.empty()) {
      step->instance_type = v;  // the expression is kept: --sku overrides a pipeline default
    }
  }
  if (!step->instance_count_expression.empty()) {
    const std::string v = PipelineValue(parent, step->instance_count_expression);
    auto q = v.empty() ? std::nullopt : ParseQuantity(v);
    if (q && q->unit == Unit::kCount && q->value >= 1 && q->value < 1e6 &&
        q->value == static_cast<int>(q->value)) {
      step->instance_count = static_cast<int>(q->value);
      step->instance_count_expression.clear();
    }
  }
}

// Binds a step's inputs and outputs to the pipeline's (or a sweep's trial to the sweep's), and
// drops the inputs a component declares that nothing gives a value.
void Bind(const JobFile& parent, const std::set<std::string>& declared, JobFile* step) {
  std::vector<JobInput> kept;
  for (JobInput input : step->inputs) {
    const std::string text = input.type == "literal" ? input.literal : input.path;
    if (std::string name = Binding(text, "parent.inputs."); !name.empty()) {
      auto from = std::find_if(parent.inputs.begin(), parent.inputs.end(),
                               [&](const JobInput& p) { return p.name == name; });
      if (from != parent.inputs.end()) {
        input.bound_to = name;
        if (from->type == "literal") {
          input.type = "literal";
          input.literal = from->literal;
        } else {
          if (input.type == "literal") input.type = from->type;
          input.path = from->path;
          // The mode the step gives wins; else the pipeline input's, where it is written.
          if (input.mode.empty()) {
            input.mode = from->mode;
            input.mode_line = from->mode_line;
            input.file = from->file;
            input.line = from->line;
          }
        }
      }
    } else if (!Binding(text, "parent.jobs.").empty()) {
      input.upstream = true;
      if (input.type == "literal") input.type = "uri_folder";
    }
    // A data input only a component declares, with no path and no binding, is not read.
    if (input.type != "literal" && input.path.empty() && !input.upstream &&
        input.bound_to.empty() && declared.count(input.name))
      continue;
    kept.push_back(std::move(input));
  }
  step->inputs = std::move(kept);
  ResolveResources(parent, step);
  for (auto& output : step->outputs) {
    std::string name = Binding(output.binding, "parent.outputs.");
    if (name.empty()) continue;
    auto from = std::find_if(parent.outputs.begin(), parent.outputs.end(),
                             [&](const JobOutput& p) { return p.name == name; });
    if (from == parent.outputs.end() || from->mode.empty()) continue;
    output.mode = from->mode;
    output.mode_line = from->mode_line;
    output.file = from->file;
    output.line = from->line;
  }
}

std::set<std::string> Names(const JobFile& job) {
  std::set<std::string> names;
  for (const auto& i : job.inputs) names.insert(i.name);
  return names;
}

void Start(const std::string& name, std::string step, JobFile* job) {
  job->path = job->env_file = job->resources_file = job->distribution_file = name;
  job->step = std::move(step);
}

// The sweep's limits: max_concurrent_trials copies of the trial read the data at once.
void ReadSweepLimits(const YAML::Node& root, JobFile* trial) {
  const YAML::Node limits = root["limits"];
  if (!limits || !limits.IsMap()) return;
  for (const char* key : {"max_concurrent_trials", "max_total_trials"}) {
    const YAML::Node n = limits[key];
    auto q = n && n.IsScalar() ? ParseQuantity(n.as<std::string>()) : std::nullopt;
    if (!q || q->unit != Unit::kCount || q->value < 1 || q->value > 1e5) continue;
    trial->concurrent_copies = static_cast<int>(q->value);
    trial->concurrent_copies_line = Line(n);
    break;  // max_total_trials bounds the concurrency only when max_concurrent_trials is absent
  }
}

// A nested pipeline is read to this depth; deeper ones are listed as skipped.
constexpr int kMaxPipelineDepth = 4;

bool ReadPipelineSteps(const std::string& name, const YAML::Node& root, JobSteps* out,
                       DiagnosticList* diagnostics, const JobFile* outer, const std::string& prefix,
                       int depth);

// A step of type pipeline: its component (a file or an inline mapping) is read as a pipeline
// whose inputs are what the step gives it; a registered one cannot be read and is listed.
bool ReadNestedPipeline(const std::string& name, const std::string& step_name,
                        const YAML::Node& node, const JobFile& pipeline, const std::string& prefix,
                        int depth, JobSteps* out, DiagnosticList* diagnostics) {
  const int line = Line(node);
  const std::string label = prefix + step_name;
  if (depth >= kMaxPipelineDepth) {
    out->notes.push_back(
        {{name, line, 0},
         fmt::format("step '{}' is a pipeline nested {} deep: skipped, lint reads {} levels", label,
                     depth + 1, kMaxPipelineDepth)});
    return true;
  }
  // The step's own inputs, bound to this pipeline's, become the nested pipeline's inputs.
  JobFile outer;
  Start(name, fmt::format("step '{}'", label), &outer);
  ReadCommandFields(node, name, &outer, diagnostics);
  Bind(pipeline, {}, &outer);
  const YAML::Node component = node["component"];
  if (component && component.IsMap())
    return ReadPipelineSteps(name, component, out, diagnostics, &outer, label + " > ", depth + 1);
  const std::string ref = Scalar(component);
  const std::string file = ComponentFile(ref);
  if (file.empty()) {
    out->notes.push_back(
        {{name, line, 0},
         fmt::format("step '{}' is the pipeline component {}: not read (lint reads a pipeline "
                     "component from its file, component: file:PATH); lint that file to check "
                     "its steps",
                     label, ref.empty() ? std::string("(none given)") : ref)});
    return true;
  }
  const std::string path = Relative(name, file);
  std::string content;
  DiagnosticList read;
  YAML::Node nested;
  DiagnosticList parse;
  if (!ReadInputFile(path, "component file", codes::kJobFile, &content, &read) ||
      !ParseYaml(path, content, &nested, &parse) || !nested.IsMap()) {
    diagnostics->Add(JobDiagnostic(
        name, line,
        fmt::format("step '{}': pipeline component file {} (from '{}', relative to the job "
                    "file) cannot be read as a YAML mapping",
                    label, path, ref)));
    return false;
  }
  return ReadPipelineSteps(path, nested, out, diagnostics, &outer, label + " > ", depth + 1);
}

// A step of type sweep: its trial, with the step's inputs and resources, and its limits.
bool ReadSweepStep(const std::string& name, const std::string& label, const YAML::Node& node,
                   const JobFile& pipeline, const std::string& compute, int compute_line,
                   JobSteps* out, DiagnosticList* diagnostics) {
  JobFile trial;
  Start(name, fmt::format("step '{}' (a sweep's trial)", label), &trial);
  const YAML::Node t = node["trial"];
  if (!t) {
    out->notes.push_back({{name, Line(node), 0},
                          fmt::format("step '{}' is a sweep without a trial: skipped", label)});
    return true;
  }
  if (!ReadComponent(t, "jobs." + label + ".trial", name, &trial, out, diagnostics)) return false;
  const std::set<std::string> declared = Names(trial);
  ReadCommandFields(node, name, &trial, diagnostics);
  if (trial.compute.empty()) {
    trial.compute = compute;
    trial.compute_line = compute_line;
  }
  Bind(pipeline, declared, &trial);
  ReadSweepLimits(node, &trial);
  out->steps.push_back(std::move(trial));
  return true;
}

bool ReadPipelineSteps(const std::string& name, const YAML::Node& root, JobSteps* out,
                       DiagnosticList* diagnostics, const JobFile* outer, const std::string& prefix,
                       int depth) {
  CheckKeys(root, KeySet::kPipelineJob, "", name, &out->typos);
  JobFile pipeline;
  Start(name, "", &pipeline);
  ReadCommandFields(root, name, &pipeline, diagnostics);
  for (auto& t : pipeline.typos) out->typos.push_back(std::move(t));
  // A nested pipeline's inputs are what the step that runs it gives (its defaults otherwise).
  if (outer)
    for (const auto& given : outer->inputs) {
      auto same = std::find_if(pipeline.inputs.begin(), pipeline.inputs.end(),
                               [&](const JobInput& i) { return i.name == given.name; });
      if (same == pipeline.inputs.end())
        pipeline.inputs.push_back(given);
      else
        *same = given;
    }
  std::string compute = pipeline.compute;
  int compute_line = pipeline.compute_line;
  if (compute.empty() && outer) {
    compute = outer->compute;
    compute_line = outer->compute_line;
  }
  if (const YAML::Node s = root["settings"]; s && s.IsMap() && compute.empty())
    if (const YAML::Node c = s["default_compute"]; c && c.IsScalar()) {
      compute = c.as<std::string>();
      compute_line = Line(c);
    }
  const YAML::Node jobs = root["jobs"];
  if (!jobs || !jobs.IsMap() || jobs.size() == 0) {
    diagnostics->Add(JobDiagnostic(name, jobs ? Line(jobs) : Line(root),
                                   "a pipeline job has a 'jobs:' mapping of steps"));
    return false;
  }
  bool ok = true;
  const size_t steps_before = out->steps.size();
  for (const auto& kv : jobs) {
    const std::string step_name = kv.first.as<std::string>();
    const std::string label = prefix + step_name;
    const YAML::Node& node = kv.second;
    if (!node.IsMap()) continue;
    const std::string type = Scalar(node["type"]).empty() ? "command" : Scalar(node["type"]);
    if (type == "pipeline") {
      ok = ReadNestedPipeline(name, step_name, node, pipeline, prefix, depth, out, diagnostics) &&
           ok;
      continue;
    }
    if (type == "sweep") {
      ok =
          ReadSweepStep(name, label, node, pipeline, compute, compute_line, out, diagnostics) && ok;
      continue;
    }
    if (type != "command") {
      out->notes.push_back(
          {{name, Line(kv.first), 0},
           fmt::format("step '{}' is a {} step: skipped, lint reads command, sweep and pipeline "
                       "steps",
                       label, type)});
      continue;
    }
    JobFile step;
    Start(name, fmt::format("step '{}'", label), &step);
    CheckKeys(node, KeySet::kPipelineStep, "jobs." + step_name, name, &step.typos);
    if (const YAML::Node component = node["component"])
      ok = ReadComponent(component, "jobs." + step_name + ".component", name, &step, out,
                         diagnostics) &&
           ok;
    const std::set<std::string> declared = Names(step);
    // The component's file holds its settings; the step's own (in the pipeline) override them.
    ReadCommandFields(node, name, &step, diagnostics);
    if (step.compute.empty()) {
      step.compute = compute;
      step.compute_line = compute_line;
    }
    Bind(pipeline, declared, &step);
    out->steps.push_back(std::move(step));
  }
  if (out->steps.size() == steps_before && ok)
    out->notes.push_back(
        {{name, Line(jobs), 0},
         fmt::format(
             "the pipeline{} has no command step to lint",
             prefix.empty() ? "" : " of step '" + prefix.substr(0, prefix.size() - 3) + "'")});
  return ok;
}

bool ReadPipeline(const std::string& name, const YAML::Node& root, JobSteps* out,
                  DiagnosticList* diagnostics) {
  out->kind = "pipeline";
  return ReadPipelineSteps(name, root, out, diagnostics, nullptr, "", 0);
}

bool ReadSweep(const std::string& name, const YAML::Node& root, JobSteps* out,
               DiagnosticList* diagnostics) {
  out->kind = "sweep";
  JobFile trial;
  Start(name, "the sweep's trial", &trial);
  CheckKeys(root, KeySet::kSweepJob, "", name, &out->typos);
  const YAML::Node t = root["trial"];
  if (!t) {
    diagnostics->Add(JobDiagnostic(name, Line(root), "a sweep job has a 'trial:' (its command)"));
    return false;
  }
  if (!ReadComponent(t, "trial", name, &trial, out, diagnostics)) return false;
  const std::set<std::string> declared = Names(trial);
  // The sweep's inputs are the trial's (its command reads ${{inputs.x}}); its resources and
  // compute run every trial.
  ReadCommandFields(root, name, &trial, diagnostics);
  Bind(JobFile{}, declared, &trial);
  ReadSweepLimits(root, &trial);
  out->steps.push_back(std::move(trial));
  return true;
}

}  // namespace

bool ReadJobStepsText(const std::string& name, const std::string& content, JobSteps* out,
                      DiagnosticList* diagnostics) {
  YAML::Node root;
  if (!ParseYaml(name, content, &root, diagnostics)) return false;
  const std::string type = root.IsMap() ? Scalar(root["type"]) : "";
  try {
    if (type == "pipeline") return ReadPipeline(name, root, out, diagnostics);
    if (type == "sweep") return ReadSweep(name, root, out, diagnostics);
  } catch (const YAML::Exception& e) {
    diagnostics->Add(YamlExceptionDiagnostic(name, e, codes::kJobFile));
    return false;
  }
  out->kind = "command";
  JobFile job;
  if (!ReadJobText(name, content, &job, diagnostics)) return false;
  out->steps.push_back(std::move(job));
  return true;
}

bool ReadJobSteps(const std::string& path, JobSteps* out, DiagnosticList* diagnostics) {
  std::string content;
  return ReadInputFile(path, "job file", codes::kJobFile, &content, diagnostics) &&
         ReadJobStepsText(path, content, out, diagnostics);
}

}  // namespace feedcheck::rules
