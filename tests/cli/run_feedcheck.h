// Runs the built feedcheck binary with arguments and captures stdout, stderr and the exit code.
#pragma once

#include <nlohmann/json.hpp>
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
