// feedcheck: can this storage feed these GPUs, and if not, what should change?
#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/root_app.h"
#include "cli/usage_help.h"
#include "core/exit_cleanup.h"
#include "core/exit_status.h"

int main(int argc, char** argv) {
  using namespace feedcheck;
  // Temporary files and child processes go with the process whatever stops it; a closed stdout
  // ends the command quietly (core/exit_cleanup).
  InstallExitCleanupHandlers();
  IgnoreSigpipe();
  CLI::App app;
  cli::GlobalOptions globals;
  cli::CommandTable table(&globals);
  cli::BuildRootApp(app, globals, table);

  const std::vector<std::string> args(argv + 1, argv + argc);
  if (auto problem = cli::CommandPathProblem(app, args)) {
    std::fputs(problem->c_str(), stderr);
    return ToInt(ExitStatus::kUsage);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ExtrasError& e) {
    // CLI11 would list the unexpected arguments with their values: a secret given to a
    // misspelled flag (--sas-tokn SECRET) would be printed. Name the flags only, with the
    // nearest known flag where there is one.
    std::string message = cli::UnknownFlagsMessage(app, args);
    if (message.empty()) {
      std::string flags;
      for (const std::string& arg : args) {
        if (arg.size() < 2 || arg[0] != '-') continue;
        flags += (flags.empty() ? "" : ", ") + arg.substr(0, arg.find('='));
      }
      message = "feedcheck: unexpected arguments (values not shown; flags given: " + flags +
                ")\nRun with --help for more information.\n";
    }
    std::fputs(message.c_str(), stderr);
    (void)e;
    return ToInt(ExitStatus::kUsage);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return ToInt(ExitStatus::kUsage);
  }
  int code = 0;
  try {
    code = table.RunParsed();
  } catch (const std::exception& e) {
    if (!IsClosedOutputError(e)) throw;
    RunExitCleanup();
    return kClosedOutputExitCode;
  }
  if (std::fflush(stdout) != 0 && errno == EPIPE) return kClosedOutputExitCode;
  return code < 0 ? ToInt(ExitStatus::kUsage) : code;
}
