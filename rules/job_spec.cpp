#include "rules/job_spec.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/diagnostic_codes.h"
#include "core/input_file.h"
#include "core/json_input.h"
#include "core/redact.h"
#include "core/utf8_cut.h"
#include "rules/yaml_input.h"

namespace feedcheck::rules {
namespace {

// Nothing in a job's definition nests deeper than a few levels: deeper JSON is not one.
constexpr int kMaxJsonDepth = 64;

Diagnostic SpecDiagnostic(const std::string& file, int line, std::string message) {
  return Diagnostic{
      codes::kJobFile, DiagnosticSeverity::kError, std::move(message), {file, line, 0}, "", ""};
}

bool EndsWith(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

int LineAt(const std::string& text, size_t offset) {
  offset = std::min(offset, text.size());
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + offset, '\n'));
}

// The line of `"name":` inside the environment_variables object, 0 when not found (the key
// names the place then).
int JsonKeyLine(const std::string& text, size_t from, const std::string& name) {
  const std::string quoted = nlohmann::json(name).dump();
  for (size_t at = text.find(quoted, from); at != std::string::npos;
       at = text.find(quoted, at + 1)) {
    size_t next = text.find_first_not_of(" \t\r\n", at + quoted.size());
    if (next != std::string::npos && text[next] == ':') return LineAt(text, at);
  }
  return 0;
}

// Keeps one variable: a credential's value is never kept, a long one is cut.
void Keep(JobEnv e, std::string key, JobSpec* out) {
  if (LooksLikeSecretName(e.name) || RedactText(e.value) != e.value) {
    e.secret = true;
    e.value = std::string(kRedacted);
  }
  e.value = std::string(Utf8Prefix(e.value, kMaxJobSpecValueBytes));
  out->env.push_back(std::move(e));
  out->keys.push_back(std::move(key));
}

bool ReadJson(const std::string& name, const std::string& content, JobSpec* out,
              DiagnosticList* diagnostics) {
  // Read the checked way (core/json_input). Only environment_variables is kept: the rest of
  // `az ml job show` (inputs, services, the status) is dropped while parsing, so a large file
  // costs no memory; it is still checked (nesting, numbers out of range).
  JsonParseOptions options;
  options.max_depth = kMaxJsonDepth;
  options.keep_top_level = {"environment_variables"};
  const JsonSource source{name, codes::kJobFile, diagnostics};
  const std::optional<nlohmann::json> doc = ParseJsonInput(content, source, options);
  if (!doc) return false;
  if (!doc->is_object()) {
    diagnostics->Add(SpecDiagnostic(
        name, 1, "a job's definition is a JSON object (az ml job show -o json writes one)"));
    return false;
  }
  const JsonField env = JsonField::Root(*doc, source)["environment_variables"];
  if (!env.present()) return true;
  const size_t env_at = content.find("\"environment_variables\"");
  if (!env.is_object()) {
    diagnostics->Add(SpecDiagnostic(name, env_at == std::string::npos ? 0 : LineAt(content, env_at),
                                    "'environment_variables' must be an object of NAME: value"));
    return false;
  }
  for (const auto& [var, value] : env.Members()) {
    if (out->env.size() >= kMaxJobSpecSettings) break;
    std::string text;
    if (value.is_string())
      text = *value.String();
    else if (value.is_number() || value.is_bool())
      text = value.raw()->dump();
    else
      continue;  // the service writes strings; anything else is not a setting
    JobEnv e{var, std::move(text), name,
             env_at == std::string::npos ? 0 : JsonKeyLine(content, env_at, var)};
    Keep(std::move(e), "environment_variables." + var, out);
  }
  return true;
}
bool ReadYaml(const std::string& name, const std::string& content, JobSpec* out,
              DiagnosticList* diagnostics) {
  JobFile job;
  if (!ReadJobText(name, content, &job, diagnostics)) return false;
  for (auto& e : job.env) {
    if (out->env.size() >= kMaxJobSpecSettings) break;
    std::string key = "environment_variables." + e.name;
    Keep(std::move(e), std::move(key), out);
  }
  for (const auto& o : job.outputs)
    if (o.mode.empty() || o.mode == "rw_mount" || o.mode == "upload") {
      out->writing_outputs.push_back({o.name, o.line});
      if (o.mode != "upload") out->rw_mount_outputs.push_back({o.name, o.line});
    }
  return true;
}

}  // namespace

bool ReadJobSpecText(const std::string& name, const std::string& content, JobSpec* out,
                     DiagnosticList* diagnostics) {
  out->path = name;
  out->env.clear();
  out->keys.clear();
  out->writing_outputs.clear();
  out->rw_mount_outputs.clear();
  if (content.size() > kMaxConfigFileBytes) {
    diagnostics->Add(SpecDiagnostic(
        name, 0,
        fmt::format("larger than {} MiB: not a job's definition", kMaxConfigFileBytes >> 20)));
    return false;
  }
  return EndsWith(name, ".json") ? ReadJson(name, content, out, diagnostics)
                                 : ReadYaml(name, content, out, diagnostics);
}

bool ReadJobSpecFile(const std::string& path, JobSpec* out, DiagnosticList* diagnostics) {
  *out = JobSpec{};
  out->path = path;
  std::string content;
  return ReadInputFile(path, "job's definition", codes::kJobFile, &content, diagnostics) &&
         ReadJobSpecText(path, content, out, diagnostics);
}

FactSet JobSpecFacts(const JobSpec& spec) {
  FactSet facts;
  for (size_t i = 0; i < spec.env.size(); ++i) {
    const JobEnv& e = spec.env[i];
    Provenance p;
    p.origin = FactOrigin::kDeclared;
    p.file = e.file;
    p.line = e.line;
    const std::string where = e.line > 0 ? fmt::format("{}:{}", e.file, e.line) : e.file;
    const bool json = EndsWith(e.file, ".json");
    p.source = json ? fmt::format("{} ({})", where, spec.keys[i]) : where;
    facts.Set(TextFact("runtime.setting." + e.name, e.value, std::move(p)));
  }
  // A count of outputs, named by the first of them with its line.
  auto outputs_fact = [&](const char* key, const std::vector<std::pair<std::string, int>>& outputs,
                          const char* how) {
    if (outputs.empty()) return;
    const auto& [name, line] = outputs.front();
    Provenance p{FactOrigin::kDeclared,
                 fmt::format("{}:{} (outputs.{}: {})", spec.path, line, name, how), spec.path,
                 line};
    facts.Set(NumberFact(key, static_cast<double>(outputs.size()), Unit::kCount, std::move(p)));
  };
  outputs_fact("runtime.writing_outputs", spec.writing_outputs,
               "written through storage while the job runs");
  outputs_fact("runtime.rw_mount_outputs", spec.rw_mount_outputs,
               "rw_mount, written while the job runs");
  return facts;
}

}  // namespace feedcheck::rules
