// Runs a command line for integration tests and captures what it printed. Tests use the real
// CLI (`feedcheck probe ... --json`), possibly inside a namespace (`ip netns exec NS ...`).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace feedcheck::testing {

struct CommandResult {
  int exit_code = -1;  ///< the command's exit status; 128+N when killed by signal N
  std::string out;     ///< stdout
  std::string err;     ///< stderr
  double wall_s = 0;   ///< wall-clock time of the run
};

/// Runs `command` through /bin/sh with stdout and stderr captured to temporary files.
CommandResult RunCommand(const std::string& command);

/// Quotes a string for /bin/sh.
std::string ShellQuote(const std::string& text);

/// The environment variable, or `fallback` when unset or empty.
std::string EnvOr(const char* name, const std::string& fallback);

/// The numeric value of the fact `key` anywhere in a JSON document: an object
/// {"key": key, "value": number} at any depth (facts.json, or a command's wrapper around it).
std::optional<double> FindFactNumber(const nlohmann::json& document, const std::string& key);

/// Same, for a string value.
std::optional<std::string> FindFactText(const nlohmann::json& document, const std::string& key);

/// Parses `text` as JSON; nullopt (not an exception) when it is not.
std::optional<nlohmann::json> ParseJson(const std::string& text);

}  // namespace feedcheck::testing
