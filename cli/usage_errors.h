// The message of every usage error (exit 2), to the standard of the did-you-mean ones: it names
// the command, the bad value (unless it may be a secret), the nearest valid one and an example.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace feedcheck::cli {

/// The message for a parse error CLI11 threw while parsing `args` (argv without the program
/// name) on `root`: "COMMAND: what was wrong. Did you mean 'NEAREST'?", then "Example: ..." (one
/// of the command's --help examples, with the nearest value in it) and where to read more.
std::string UsageErrorMessage(const CLI::App& root, const std::vector<std::string>& args,
                              const CLI::ParseError& error);

/// `feedcheck help [COMMAND...]` as `feedcheck COMMAND... --help`; other arguments unchanged.
std::vector<std::string> HelpCommandArgs(const std::vector<std::string>& args);

/// The command path the arguments name under the root ("probe throughput"; "" for the root).
std::string ChosenCommandPath(const CLI::App& root, const std::vector<std::string>& args);

/// An example command line for `command_path` that uses `flag` (when given) with `value`: one of
/// its --help examples with the flag's value replaced, or the flag added; "feedcheck PATH --help"
/// when the command has no example.
std::string ExampleWith(const std::string& command_path, const std::string& flag,
                        const std::string& value);

}  // namespace feedcheck::cli
