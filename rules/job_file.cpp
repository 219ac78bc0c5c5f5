#include "rules/job_file.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>

#include "core/ascii_text.h"
#include "core/diagnostic_codes.h"
#include "core/fact_registry.h"
#include "core/redact.h"
#include "rules/job_keys.h"
#include "rules/profile.h"
#include "rules/rule_messages.h"
#include "rules/yaml_input.h"

namespace feedcheck::rules {
namespace {

bool IsDataType(const std::string& type) {
  // `path` is the older (preview) schema's name for a data input.
  return type == "uri_folder" || type == "uri_file" || type == "mltable" ||
         type == "mlflow_model" || type == "custom_model" || type == "triton_model" ||
         type == "path";
}

// The line of `key:` itself in a mapping (a block mapping's own mark is its first entry).
int KeyLine(const YAML::Node& map, const std::string& key) {
  for (const auto& kv : map)
    if (kv.first.IsScalar() && kv.first.as<std::string>() == key) return Line(kv.first);
  return 0;
}

void ReadInputs(const YAML::Node& inputs, const std::string& file, JobFile* out,
                DiagnosticList* diagnostics) {
  if (!inputs.IsMap()) {
    if (!inputs.IsNull())
      diagnostics->Add(JobDiagnostic(file, Line(inputs), "'inputs' must be a mapping",
                                     DiagnosticSeverity::kWarning));
    return;
  }
  for (const auto& kv : inputs) {
    JobInput input;
    input.name = kv.first.as<std::string>();
    input.line = Line(kv.first);
    input.file = file;
    const YAML::Node& v = kv.second;
    bool type_given = false;
    if (v.IsMap()) {
      CheckKeys(v, KeySet::kInput, "inputs." + input.name, file, &out->typos);
      type_given = v["type"] && v["type"].IsScalar();
      input.type = type_given ? v["type"].as<std::string>() : "uri_folder";
      input.path = Scalar(v["path"]);
      if (v["mode"] && v["mode"].IsScalar()) {
        input.mode = v["mode"].as<std::string>();
        input.mode_line = Line(v["mode"]);
      }
      if (!IsDataType(input.type)) {
        input.literal = v["value"] ? Scalar(v["value"]) : Scalar(v["default"]);
        input.type = "literal";
      }
    } else if (v.IsScalar()) {
      input.literal = v.as<std::string>();
      // A data asset or a storage URI given as the value (`cifar: azureml:cifar-10:1`) is data
      // read in the default mode, not a literal.
      const std::string t(Trim(input.literal));
      if (StartsWith(t, "azureml:") || StartsWith(t, "wasbs://") || StartsWith(t, "abfss://") ||
          StartsWith(t, "https://") || StartsWith(t, "http://")) {
        input.type = "uri_folder";
        input.path = t;
        input.literal.clear();
      } else {
        input.type = "literal";
      }
    }
    // A step's input replaces its component's of the same name; a mapping without `type:`
    // keeps the type the component declares.
    auto same = std::find_if(out->inputs.begin(), out->inputs.end(),
                             [&](const JobInput& i) { return i.name == input.name; });
    if (same == out->inputs.end()) {
      out->inputs.push_back(std::move(input));
    } else {
      if (!type_given && v.IsMap() && same->type != "literal") input.type = same->type;
      *same = std::move(input);
    }
  }
}

void ReadOutputs(const YAML::Node& outputs, const std::string& file, JobFile* out) {
  if (!outputs.IsMap()) return;
  for (const auto& kv : outputs) {
    JobOutput output;
    output.name = kv.first.as<std::string>();
    output.line = Line(kv.first);
    output.file = file;
    if (kv.second.IsMap()) {
      CheckKeys(kv.second, KeySet::kOutput, "outputs." + output.name, file, &out->typos);
      if (const YAML::Node m = kv.second["mode"]; m && m.IsScalar()) {
        output.mode = m.as<std::string>();
        output.mode_line = Line(m);
      }
    } else if (kv.second.IsScalar()) {
      output.binding = kv.second.as<std::string>();  // ${{parent.outputs.x}}
    }
    auto same = std::find_if(out->outputs.begin(), out->outputs.end(),
                             [&](const JobOutput& o) { return o.name == output.name; });
    if (same == out->outputs.end())
      out->outputs.push_back(std::move(output));
    else
      *same = std::move(output);
  }
}

}  // namespace

const JobInput* JobFile::FirstDataInput() const {
  // The dataset rather than another step's output, when the step has both.
  for (const auto& input : inputs)
    if (input.type != "literal" && !input.upstream) return &input;
  for (const auto& input : inputs)
    if (input.type != "literal") return &input;
  return nullptr;
}

std::string JobFile::ModeOf(const JobInput& input) {
  return input.mode.empty() ? "ro_mount" : input.mode;
}

bool ReadCommandFields(const YAML::Node& root, const std::string& file, JobFile* out,
                       DiagnosticList* diagnostics) {
  bool ok = true;
  if (const YAML::Node c = root["command"]; c && c.IsScalar()) {
    out->command = c.as<std::string>();
    out->command_file = file;
    out->command_line = KeyLine(root, "command");
  }
  if (const YAML::Node inputs = root["inputs"]) ReadInputs(inputs, file, out, diagnostics);
  if (const YAML::Node outputs = root["outputs"]) ReadOutputs(outputs, file, out);
  if (int line = KeyLine(root, "environment_variables")) {
    out->env_line = line;
    out->env_file = file;
  }
  if (int line = KeyLine(root, "resources")) {
    out->resources_line = line;
    out->resources_file = file;
  }
  if (int line = KeyLine(root, "distribution")) {
    out->distribution_line = line;
    out->distribution_file = file;
  }
  if (const YAML::Node env = root["environment_variables"]) {
    if (env.IsMap()) {
      for (const auto& kv : env) {
        if (!kv.second.IsScalar()) continue;
        JobEnv e{kv.first.as<std::string>(), kv.second.as<std::string>(), file, Line(kv.first)};
        // A credential is never kept: not in a fact, a lint message or a report.
        if (LooksLikeSecretName(e.name) || RedactText(e.value) != e.value) {
          e.secret = true;
          e.value = std::string(kRedacted);
        }
        auto same = std::find_if(out->env.begin(), out->env.end(),
                                 [&](const JobEnv& have) { return have.name == e.name; });
        if (same == out->env.end())
          out->env.push_back(std::move(e));
        else
          *same = std::move(e);
      }
    } else if (!env.IsNull()) {
      diagnostics->Add(JobDiagnostic(file, Line(env), "'environment_variables' must be a mapping",
                                     DiagnosticSeverity::kWarning));
    }
  }
  if (const YAML::Node resources = root["resources"]; resources && resources.IsMap()) {
    CheckKeys(resources, KeySet::kResources, "resources", file, &out->typos);
    if (const YAML::Node n = resources["instance_count"]; n && n.IsScalar()) {
      std::string text = n.as<std::string>();
      auto q = ParseQuantity(text);
      if (q && q->unit == Unit::kCount && q->value >= 1 && q->value < 1e6 &&
          q->value == std::floor(q->value)) {
        out->instance_count = static_cast<int>(q->value);
        out->instance_count_line = Line(n);
        out->instance_count_expression.clear();
      } else if (text.find("${{") == std::string::npos) {
        diagnostics->Add(JobDiagnostic(
            file, Line(n),
            fmt::format("resources.instance_count '{}' is not a node count (a whole number "
                        "from 1 to 999999)",
                        text)));
        ok = false;
      } else {
        out->instance_count_expression = text;
        out->instance_count_line = Line(n);
      }
    }
    if (const YAML::Node t = resources["instance_type"]; t && t.IsScalar()) {
      const std::string text = t.as<std::string>();
      // An expression is not a VM size: it is resolved from the pipeline's inputs, or unknown.
      const bool expression = text.find("${{") != std::string::npos;
      out->instance_type = expression ? std::string() : text;
      out->instance_type_expression = expression ? text : std::string();
      out->instance_type_line = Line(t);
    }
  }
  if (const YAML::Node c = root["compute"]; c && c.IsScalar()) {
    out->compute = c.as<std::string>();
    out->compute_line = Line(c);
  }
  if (const YAML::Node d = root["distribution"]; d && d.IsMap()) {
    CheckKeys(d, KeySet::kDistribution, "distribution", file, &out->typos);
    if (d["type"] && d["type"].IsScalar()) out->distribution = d["type"].as<std::string>();
    if (const YAML::Node p = d["process_count_per_instance"]; p && p.IsScalar()) {
      auto q = ParseQuantity(p.as<std::string>());
      if (q && q->unit == Unit::kCount && q->value >= 1 && q->value < 1e4 &&
          q->value == static_cast<int>(q->value)) {
        out->processes_per_node = static_cast<int>(q->value);
      } else if (p.as<std::string>().find("${{") == std::string::npos) {
        diagnostics->Add(JobDiagnostic(file, Line(p),
                                       fmt::format("distribution.process_count_per_instance "
                                                   "'{}' is not a process count",
                                                   p.as<std::string>())));
        ok = false;
      }
    }
  }
  return ok;
}

bool ReadJobText(const std::string& name, const std::string& content, JobFile* out,
                 DiagnosticList* diagnostics) {
  out->path = name;
  out->env_file = out->resources_file = out->distribution_file = name;
  YAML::Node root;
  if (!ParseYaml(name, content, &root, diagnostics)) return false;
  if (!root.IsMap()) {
    diagnostics->Add(JobDiagnostic(name, Line(root),
                                   "a job file is a YAML mapping (type: command, inputs, ...)"));
    return false;
  }
  try {
    // A command job has a command; `type:` may be omitted (command is the default).
    const YAML::Node type = root["type"];
    const std::string type_text = Scalar(type);
    if (!type_text.empty() && type_text != "command") {
      diagnostics->Add(JobDiagnostic(
          name, Line(type),
          fmt::format("job type '{}': lint reads command, pipeline and sweep jobs", type_text)));
      return false;
    }
    if (!root["command"]) {
      diagnostics->Add(JobDiagnostic(
          name, Line(root),
          "not an Azure ML command job: no 'command:' (lint reads a job YAML with command, "
          "inputs, environment_variables, resources; a profile goes to --profile)"));
      return false;
    }
    CheckKeys(root, KeySet::kCommandJob, "", name, &out->typos);
    ReadCommandFields(root, name, out, diagnostics);
  } catch (const YAML::Exception& e) {
    diagnostics->Add(JobDiagnostic(name, e.mark.line + 1, YamlErrorMessage(e)));
    return false;
  }
  return true;
}

bool ReadJobFile(const std::string& path, JobFile* out, DiagnosticList* diagnostics) {
  std::string content;
  return ReadInputFile(path, "job file", codes::kJobFile, &content, diagnostics) &&
         ReadJobText(path, content, out, diagnostics);
}

FactSet JobFacts(const JobFile& job) {
  FactSet facts;
  auto where = [&](const std::string& file, int line) {
    Provenance p;
    p.origin = FactOrigin::kDeclared;
    p.source = "job " + file;
    p.file = file;
    p.line = line;
    return p;
  };
  const std::string& res = job.resources_file.empty() ? job.path : job.resources_file;
  // A sweep's concurrent trials each read the data: the account sees all their nodes at once.
  const int nodes = job.NodesAtOnce();
  // A node count set when the job runs (an unresolved expression) is not known here.
  if (job.instance_count_expression.empty()) {
    if (job.concurrent_copies > 1 && job.concurrent_copies_line > 0)
      facts.Set(NumberFact("node.count", nodes, Unit::kCount,
                           where(job.path, job.concurrent_copies_line)));
    else if (job.instance_count_line > 0)
      facts.Set(NumberFact("node.count", nodes, Unit::kCount, where(res, job.instance_count_line)));
    else
      facts.Set(NumberFact("node.count", nodes, Unit::kCount, where(res, job.resources_line)));
  }
  if (!job.instance_type.empty())
    facts.Set(TextFact("node.sku", job.instance_type, where(res, job.instance_type_line)));
  if (const JobInput* input = job.FirstDataInput())
    facts.Set(TextFact("workload.mode", JobFile::ModeOf(*input),
                       where(input->file, input->mode_line > 0 ? input->mode_line : input->line)));
  for (const auto& input : job.inputs) {
    if (input.type != "literal" || input.name != "epochs") continue;
    Fact f;
    std::string error;
    if (ParseFactValue("workload.epochs", input.literal, &f, &error)) {
      f.provenance = where(input.file, input.line);
      facts.Set(std::move(f));
    }
  }
  const std::string& dist = job.distribution_file.empty() ? job.path : job.distribution_file;
  if (job.distribution_line > 0) {
    facts.Set(TextFact("workload.distribution",
                       job.distribution.empty() ? "none" : job.distribution,
                       where(dist, job.distribution_line)));
  } else {
    facts.Set(TextFact("workload.distribution", "none", where(job.path, 0)));
  }
  // PyTorch defaults to one process per node; MPI requires the field.
  int ppn = job.processes_per_node;
  if (ppn == 0 && (job.distribution == "pytorch" || job.distribution.empty())) ppn = 1;
  if (ppn > 0)
    facts.Set(NumberFact("workload.processes_per_node", ppn, Unit::kCount,
                         where(dist, job.distribution_line)));
  for (const auto& e : job.env)
    facts.Set(TextFact("runtime.setting." + e.name, e.value, where(e.file, e.line)));
  return facts;
}

}  // namespace feedcheck::rules
