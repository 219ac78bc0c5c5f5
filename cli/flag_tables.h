// The flag tables of the command pages (docs/commands/*.md), generated from the CLI11
// definitions so they cannot drift from --help: one Markdown table per command, written between
// markers that name the command, and the check that every command has its table somewhere.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace feedcheck::cli {

/// "feedcheck probe throughput" for that subcommand; "feedcheck" for the root.
std::string CommandPath(const CLI::App& app);

/// Every command with flags or arguments of its own (help aside), depth first in the order they
/// were added: "feedcheck", "feedcheck egress", ..., "feedcheck probe throughput", ...
std::vector<const CLI::App*> DocumentedCommands(const CLI::App& root);

/// The Markdown table of the flags and arguments `app` itself defines (not its parents'):
/// | Flag | Value | Default | Meaning |, in --help's order, --help left out.
std::string FlagTableMarkdown(const CLI::App& app);

/// The opening marker of a generated table: `<!-- flags: feedcheck egress ... -->`.
std::string FlagTableMarker(std::string_view command_path);
inline constexpr std::string_view kFlagTableEnd = "<!-- end flags -->";

/// A page with every generated table rewritten from `root`'s definitions.
struct FlagTablePage {
  std::string text;                   ///< the page, tables current
  std::vector<std::string> commands;  ///< the command paths it holds tables for
  std::vector<std::string> errors;    ///< "line N: no command 'feedcheck egres'", unclosed markers
};
FlagTablePage RegenerateFlagTables(const CLI::App& root, std::string_view page);

}  // namespace feedcheck::cli
