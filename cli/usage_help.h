// What the command line says when it was not given a command it knows: usage for a bare
// `feedcheck`, "did you mean" for a misspelt subcommand (`egres`, `probe thruput`) or flag
// (`--concurency`), and the global flags in every subcommand's --help.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

namespace feedcheck::cli {

/// When `args` (argv without the program name) names no runnable command, the message to print
/// instead of CLI11's ("A subcommand is required"): the nearest subcommands and how to list
/// them, or the usage when nothing was named. nullopt when the command path is fine (or asks
/// for --help / --version, which CLI11 answers).
std::optional<std::string> CommandPathProblem(const CLI::App& root,
                                              const std::vector<std::string>& args);

/// For flags CLI11 rejected as unexpected: one line per flag with the nearest flags of the
/// command that was chosen (and the global ones).
std::string UnknownFlagsMessage(const CLI::App& root, const std::vector<std::string>& args);

/// The deepest subcommand the arguments name (the root when they name none).
const CLI::App* ChosenCommand(const CLI::App& root, const std::vector<std::string>& args);

/// "feedcheck probe throughput": the app's name after its parents'.
std::string CommandLineOf(const CLI::App& app);

/// Adds a footer to every subcommand's help naming the flags that work everywhere.
void AddGlobalFlagsToHelp(CLI::App& root);

}  // namespace feedcheck::cli
