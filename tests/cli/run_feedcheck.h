// Runs the built feedcheck binary with arguments and captures stdout, stderr and the exit code.
#pragma once

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
  /// stdout parsed as JSON (null when it is not JSON).
  nlohmann::json Json() const;
};

RunResult RunFeedcheck(const std::vector<std::string>& args);
/// The same, with `dir` as the working directory (a CI step runs in its checkout).
RunResult RunFeedcheckIn(const std::string& dir, const std::vector<std::string>& args);

/// Writes `text` to a fresh temporary file and returns its path (removed at exit).
std::string WriteTempFile(const std::string& name, const std::string& text);

/// Whether `part` occurs in `text` (a command's output).
inline bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

/// The whole file at `path`; "" when it cannot be read.
inline std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// The finding of rule `rule` in a JSON report; nullptr when it has none.
inline const nlohmann::json* FindingOf(const nlohmann::json& j, const std::string& rule) {
  if (!j.contains("findings")) return nullptr;
  for (const auto& f : j["findings"])
    if (f["rule_id"] == rule) return &f;
  return nullptr;
}
