#include "rules/job_file.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <cmath>

#include "core/fact_registry.h"
#include "core/redact.h"
#include "rules/profile.h"
#include "rules/rule_messages.h"
#include "rules/yaml_input.h"

namespace feedcheck::rules {
namespace {

int Line(const YAML::Node& node) { return node.Mark().line + 1; }

Diagnostic JobDiagnostic(const std::string& file, int line, std::string message,
                         DiagnosticSeverity severity = DiagnosticSeverity::kError) {
  return Diagnostic{kCodeJobFile, severity, std::move(message), {file, line, 0}, "", ""};
}

}  // namespace

const JobInput* JobFile::FirstDataInput() const {
  for (const auto& input : inputs)
    if (input.type != "literal") return &input;
  return nullptr;
}

bool ReadJobText(const std::string& name, const std::string& content, JobFile* out,
                 DiagnosticList* diagnostics) {
  out->path = name;
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
    const std::string type_text = type && type.IsScalar() ? type.as<std::string>() : "";
    if (!type_text.empty() && type_text != "command") {
      diagnostics->Add(JobDiagnostic(
          name, Line(type),
          fmt::format("job type '{}': lint checks Azure ML command jobs (type: command)",
                      type_text)));
      return false;
    }
    if (!root["command"]) {
      diagnostics->Add(JobDiagnostic(
          name, Line(root),
          "not an Azure ML command job: no 'command:' (lint reads a job YAML with command, "
          "inputs, environment_variables, resources; a profile goes to --profile)"));
      return false;
    }
    if (const YAML::Node inputs = root["inputs"]) {
      if (!inputs.IsMap()) {
        diagnostics->Add(JobDiagnostic(name, Line(inputs), "'inputs' must be a mapping",
                                       DiagnosticSeverity::kWarning));
      } else {
        for (const auto& kv : inputs) {
          JobInput input;
          input.name = kv.first.as<std::string>();
          input.line = Line(kv.first);
          const YAML::Node& v = kv.second;
          if (v.IsMap()) {
            input.type =
                v["type"] && v["type"].IsScalar() ? v["type"].as<std::string>() : "uri_folder";
            if (v["path"] && v["path"].IsScalar()) input.path = v["path"].as<std::string>();
            if (v["mode"] && v["mode"].IsScalar()) {
              input.mode = v["mode"].as<std::string>();
              input.mode_line = Line(v["mode"]);
            }
            if (input.type != "uri_folder" && input.type != "uri_file" && input.type != "mltable") {
              if (v["value"] && v["value"].IsScalar()) {
                input.literal = v["value"].as<std::string>();
                input.type = "literal";
              }
            }
          } else if (v.IsScalar()) {
            input.type = "literal";
            input.literal = v.as<std::string>();
          }
          out->inputs.push_back(std::move(input));
        }
      }
    }
    // Lines of the keys themselves (a block mapping's own mark is its first entry).
    for (const auto& kv : root) {
      std::string key = kv.first.as<std::string>();
      if (key == "environment_variables") out->env_line = Line(kv.first);
      if (key == "resources") out->resources_line = Line(kv.first);
      if (key == "distribution") out->distribution_line = Line(kv.first);
    }
    if (const YAML::Node env = root["environment_variables"]) {
      if (env.IsMap()) {
        for (const auto& kv : env) {
          if (!kv.second.IsScalar()) continue;
          JobEnv e{kv.first.as<std::string>(), kv.second.as<std::string>(), Line(kv.first)};
          // A credential is never kept: not in a fact, a lint message or a report.
          if (LooksLikeSecretName(e.name) || RedactText(e.value) != e.value) {
            e.secret = true;
            e.value = std::string(kRedacted);
          }
          out->env.push_back(std::move(e));
        }
      } else if (!env.IsNull()) {
        diagnostics->Add(JobDiagnostic(name, Line(env), "'environment_variables' must be a mapping",
                                       DiagnosticSeverity::kWarning));
      }
    }
    if (const YAML::Node resources = root["resources"]; resources && resources.IsMap()) {
      if (const YAML::Node n = resources["instance_count"]; n && n.IsScalar()) {
        std::string text = n.as<std::string>();
        auto q = ParseQuantity(text);
        if (q && q->unit == Unit::kCount && q->value >= 1 && q->value < 1e6 &&
            q->value == std::floor(q->value)) {
          out->instance_count = static_cast<int>(q->value);
          out->instance_count_line = Line(n);
        } else {
          diagnostics->Add(JobDiagnostic(
              name, Line(n),
              fmt::format("resources.instance_count '{}' is not a node count (a whole number "
                          "from 1 to 999999)",
                          text)));
        }
      }
      if (const YAML::Node t = resources["instance_type"]; t && t.IsScalar()) {
        out->instance_type = t.as<std::string>();
        out->instance_type_line = Line(t);
      }
    }
    if (const YAML::Node c = root["compute"]; c && c.IsScalar()) out->compute = c.as<std::string>();
    if (const YAML::Node d = root["distribution"]; d && d.IsMap()) {
      if (d["type"] && d["type"].IsScalar()) out->distribution = d["type"].as<std::string>();
      if (const YAML::Node p = d["process_count_per_instance"]; p && p.IsScalar()) {
        auto q = ParseQuantity(p.as<std::string>());
        if (q && q->unit == Unit::kCount && q->value >= 1 && q->value < 1e4 &&
            q->value == static_cast<int>(q->value))
          out->processes_per_node = static_cast<int>(q->value);
        else
          diagnostics->Add(JobDiagnostic(name, Line(p),
                                         fmt::format("distribution.process_count_per_instance "
                                                     "'{}' is not a process count",
                                                     p.as<std::string>())));
      }
    }
  } catch (const YAML::Exception& e) {
    diagnostics->Add(JobDiagnostic(name, e.mark.line + 1, YamlErrorMessage(e)));
    return false;
  }
  return true;
}

bool ReadJobFile(const std::string& path, JobFile* out, DiagnosticList* diagnostics) {
  std::string content;
  return ReadInputFile(path, "job file", kCodeJobFile, &content, diagnostics) &&
         ReadJobText(path, content, out, diagnostics);
}

FactSet JobFacts(const JobFile& job) {
  FactSet facts;
  auto where = [&](int line) {
    Provenance p;
    p.origin = FactOrigin::kDeclared;
    p.source = "job " + job.path;
    p.file = job.path;
    p.line = line;
    return p;
  };
  if (job.instance_count_line > 0)
    facts.Set(
        NumberFact("node.count", job.instance_count, Unit::kCount, where(job.instance_count_line)));
  else
    facts.Set(NumberFact("node.count", 1, Unit::kCount, where(job.resources_line)));
  if (!job.instance_type.empty())
    facts.Set(TextFact("node.sku", job.instance_type, where(job.instance_type_line)));
  if (const JobInput* input = job.FirstDataInput())
    facts.Set(TextFact("workload.mode", input->mode.empty() ? "ro_mount" : input->mode,
                       where(input->mode_line > 0 ? input->mode_line : input->line)));
  for (const auto& input : job.inputs) {
    if (input.type != "literal" || input.name != "epochs") continue;
    Fact f;
    std::string error;
    if (ParseFactValue("workload.epochs", input.literal, &f, &error)) {
      f.provenance = where(input.line);
      facts.Set(std::move(f));
    }
  }
  if (job.distribution_line > 0) {
    facts.Set(TextFact("workload.distribution",
                       job.distribution.empty() ? "none" : job.distribution,
                       where(job.distribution_line)));
  } else {
    facts.Set(TextFact("workload.distribution", "none", where(0)));
  }
  // PyTorch defaults to one process per node; MPI requires the field.
  int ppn = job.processes_per_node;
  if (ppn == 0 && (job.distribution == "pytorch" || job.distribution.empty())) ppn = 1;
  if (ppn > 0)
    facts.Set(
        NumberFact("workload.processes_per_node", ppn, Unit::kCount, where(job.distribution_line)));
  for (const auto& e : job.env)
    facts.Set(TextFact("runtime.setting." + e.name, e.value, where(e.line)));
  return facts;
}

}  // namespace feedcheck::rules
