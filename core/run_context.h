// What every report states about the run that produced it: tool, host, time, command, target
// (secrets redacted by the caller), and warnings about the validity of the numbers.
#pragma once

#include <string>
#include <vector>

namespace feedcheck {

struct RunContext {
  std::string tool_version;
  std::string command;  ///< "preflight", "postmortem", ...
  std::string host;
  std::string started_at_utc;  ///< ISO 8601
  std::string target;          ///< already redacted: never holds a key, SAS signature or token
  std::string build_type;      ///< "Release", "Debug" (a debug build's numbers are suspect)
  std::vector<std::string> warnings;  ///< "probe ran over loopback", "debug build", ...
};

/// Fills version, host, time and build type for the current process.
RunContext CurrentRunContext(std::string command);

/// ISO 8601 UTC time of `epoch_s`: "2026-11-22T03:06:21Z".
std::string IsoUtc(double epoch_s);
double NowEpochSeconds();

}  // namespace feedcheck
