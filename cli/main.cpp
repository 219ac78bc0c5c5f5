// feedcheck: can this storage feed these GPUs, and if not, what should change?
#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/root_app.h"
#include "cli/usage_errors.h"
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

  // `feedcheck help COMMAND` is `feedcheck COMMAND --help`.
  const std::vector<std::string> args =
      cli::HelpCommandArgs(std::vector<std::string>(argv + 1, argv + argc));
  if (auto problem = cli::CommandPathProblem(app, args)) {
    std::fputs(problem->c_str(), stderr);
    return ToInt(ExitStatus::kUsage);
  }
  try {
    app.parse(std::vector<std::string>(args.rbegin(), args.rend()));  // CLI11 takes them reversed
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // CLI11 would list unexpected arguments with their values: a secret given to a misspelled
    // flag (--sas-tokn SECRET) would be printed. The message names the command, the bad value
    // when it cannot be a secret, the nearest valid one and an example.
    std::fputs(cli::UsageErrorMessage(app, args, e).c_str(), stderr);
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
