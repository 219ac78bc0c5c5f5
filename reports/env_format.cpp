#include "reports/env_format.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "core/json_text.h"

namespace feedcheck {

std::optional<EnvFormat> EnvFormatFromName(std::string_view name) {
  if (name == "yaml") return EnvFormat::kYaml;
  if (name == "shell") return EnvFormat::kShell;
  if (name == "python") return EnvFormat::kPython;
  if (name == "json") return EnvFormat::kJson;
  return std::nullopt;
}

std::string_view EnvFormatName(EnvFormat format) {
  switch (format) {
    case EnvFormat::kYaml:
      return "yaml";
    case EnvFormat::kShell:
      return "shell";
    case EnvFormat::kPython:
      return "python";
    case EnvFormat::kJson:
      return "json";
  }
  return "yaml";
}

namespace {

// A double-quoted string valid in YAML, Python and JSON alike.
std::string DoubleQuoted(const std::string& value) {
  std::string out = "\"";
  for (char c : value) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20)
          out += fmt::format("\\u{:04x}", static_cast<unsigned char>(c));
        else
          out += c;
    }
  }
  return out + "\"";
}

// POSIX shell: single quotes keep everything literal; a quote is closed, escaped, reopened.
std::string ShellQuoted(const std::string& value) {
  std::string out = "'";
  for (char c : value) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

}  // namespace

std::string FormatEnv(const std::vector<EnvSetting>& env, EnvFormat format) {
  std::string out;
  switch (format) {
    case EnvFormat::kYaml:
      if (env.empty()) return "environment_variables: {}\n";
      out = "environment_variables:\n";
      for (const auto& e : env) out += fmt::format("  {}: {}\n", e.name, DoubleQuoted(e.value));
      return out;
    case EnvFormat::kShell:
      if (env.empty()) return "# no environment variables to set\n";
      for (const auto& e : env) out += fmt::format("export {}={}\n", e.name, ShellQuoted(e.value));
      return out;
    case EnvFormat::kPython:
      if (env.empty()) return "env_var = {}\n";
      out = "env_var = {\n";
      for (const auto& e : env)
        out += fmt::format("    {}: {},\n", DoubleQuoted(e.name), DoubleQuoted(e.value));
      return out + "}\n";
    case EnvFormat::kJson: {
      nlohmann::ordered_json j = nlohmann::ordered_json::object();
      for (const auto& e : env) j[e.name] = e.value;
      return JsonText(j, 2) + "\n";
    }
  }
  return out;
}

}  // namespace feedcheck
