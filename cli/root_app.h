// The whole command line of `feedcheck`: the root app with its global flags and every
// subcommand registered, as main parses it and as the command pages' flag tables are generated.
#pragma once

#include <CLI/CLI.hpp>

#include "cli/command.h"

namespace feedcheck::cli {

/// Names `app` "feedcheck" and adds the version flag, the global flags (bound to `globals`), every
/// subcommand (each adding its action to `table`) and the global flags' help footer.
void BuildRootApp(CLI::App& app, GlobalOptions& globals, CommandTable& table);

}  // namespace feedcheck::cli
