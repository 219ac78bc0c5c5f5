// The generated flag tables of the command pages: one row per flag in --help's order, and the
// blocks between the markers rewritten, with errors for a marker that names no command.
#include "cli/flag_tables.h"

#include <catch2/catch.hpp>
#include <string>

using namespace feedcheck::cli;

namespace {

struct Tool {
  CLI::App root{"a tool"};
  std::string target, mode = "auto";
  int tries = 3;
  bool quiet = false;
  Tool() {
    root.name("tool");
    CLI::App* run = root.add_subcommand("run", "Run it");
    run->add_option("TARGET", target, "What | to run")->required();
    run->add_option("--mode", mode, "How")
        ->check(CLI::IsMember({"auto", "fast"}))
        ->capture_default_str();
    run->add_option("-t,--tries", tries, "Attempts")->capture_default_str();
    run->add_flag("-q,--quiet", quiet, "Say <less>");
    root.add_subcommand("empty", "Nothing to set");
  }
};

}  // namespace

TEST_CASE("flag table: every flag with its value, default and meaning", "[cli][docs]") {
  Tool tool;
  const CLI::App* run = tool.root.get_subcommand("run");
  CHECK(CommandPath(*run) == "tool run");
  const std::string table = FlagTableMarkdown(*run);
  CHECK(table.find("| `TARGET` | `TEXT` | `required` | What \\| to run |") != std::string::npos);
  CHECK(table.find("| `--mode` | `TEXT:{auto,fast}` | `auto` | How |") != std::string::npos);
  CHECK(table.find("| `-t`, `--tries` | `INT` | `3` | Attempts |") != std::string::npos);
  CHECK(table.find("| `-q`, `--quiet` |  |  | Say &lt;less> |") != std::string::npos);
  CHECK(table.find("--help") == std::string::npos);
  // Commands without flags of their own have no table to keep.
  const auto documented = DocumentedCommands(tool.root);
  REQUIRE(documented.size() == 1);
  CHECK(documented[0] == run);
}

TEST_CASE("flag table: marked blocks are rewritten, the rest kept", "[cli][docs]") {
  Tool tool;
  const std::string page = "# Run\n\nprose\n\n" + FlagTableMarker("tool run") + "\nstale table\n" +
                           std::string(kFlagTableEnd) + "\n\nmore prose\n";
  FlagTablePage fresh = RegenerateFlagTables(tool.root, page);
  CHECK(fresh.errors.empty());
  REQUIRE(fresh.commands == std::vector<std::string>{"tool run"});
  CHECK(fresh.text.find("stale table") == std::string::npos);
  CHECK(fresh.text.find("| `--mode` |") != std::string::npos);
  CHECK(fresh.text.rfind("# Run\n\nprose\n\n", 0) == 0);
  CHECK(fresh.text.find("\n\nmore prose\n") != std::string::npos);
  // Current: the same text again.
  CHECK(RegenerateFlagTables(tool.root, fresh.text).text == fresh.text);

  FlagTablePage unknown = RegenerateFlagTables(
      tool.root, "x\n" + FlagTableMarker("tool walk") + "\n" + std::string(kFlagTableEnd) + "\n");
  REQUIRE(unknown.errors.size() == 1);
  CHECK(unknown.errors[0] == "line 2: no command 'tool walk'");
  FlagTablePage unclosed = RegenerateFlagTables(tool.root, FlagTableMarker("tool run") + "\n");
  REQUIRE(unclosed.errors.size() == 1);
  CHECK(unclosed.errors[0].find("without '<!-- end flags -->'") != std::string::npos);
}
