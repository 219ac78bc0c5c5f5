// Running another program (the Azure CLI) behind one narrow interface: an argv, never a shell
// string, so no argument is ever interpolated into a command line; a time limit after which
// the program is stopped; its exit code and its output, bounded. Tests give a stand-in.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace feedcheck::app {

struct ProcessResult {
  bool started = false;     ///< false: the program was not found or could not be started
  bool timed_out = false;   ///< stopped at the time limit
  int exit_code = -1;       ///< the program's exit status; -1 when killed by a signal
  std::string out;          ///< its standard output (at most kMaxProcessOutputBytes)
  std::string err;          ///< its standard error (bounded likewise)
  std::string start_error;  ///< why it did not start ("No such file or directory")
};

/// A process runner: argv[0] is looked up on PATH; `timeout_s` bounds the whole run.
using ProcessRunner =
    std::function<ProcessResult(const std::vector<std::string>& argv, double timeout_s)>;

/// Output past this is dropped (and said so in `err`): an az command's JSON is far smaller.
inline constexpr size_t kMaxProcessOutputBytes = 64u << 20;

/// The real runner: posix_spawnp with pipes, no shell, in a process group of its own; its
/// output read until it exits, then the group killed (nothing it started outlives it); the
/// whole group SIGKILLed at the time limit, and on a signal that stops feedcheck. Its output and
/// error text come back through RedactText (core/redact): no secret shape survives.
ProcessResult RunProcess(const std::vector<std::string>& argv, double timeout_s);

}  // namespace feedcheck::app
