// feedcheck: can this storage feed these GPUs, and if not, what should change?
#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>

#include "cli/command.h"
#include "core/exit_status.h"

int main(int argc, char** argv) {
  using namespace feedcheck;
  CLI::App app{
      "feedcheck: measures whether storage can feed GPU training nodes, reads what a "
      "job left behind, and says what to change."};
  app.set_version_flag("--version", FEEDCHECK_VERSION);
  app.require_subcommand(1);
  app.fallthrough();

  cli::GlobalOptions globals;
  app.add_flag("--json", globals.json, "Machine-readable output (JSON with schema_version)");
  app.add_option("--kb", globals.kb_files,
                 "Extra knowledge-base YAML file overriding built-in rows")
      ->check(CLI::ExistingFile);
  app.add_option("--rules", globals.rules_dirs, "Directory of extra rules (*.yaml)");
  app.add_option("--fail-on", globals.fail_on, "Exit 1 when a finding is at or above this severity")
      ->check(CLI::IsMember({"info", "warning", "critical", "never"}));
  app.add_flag("--no-color", globals.no_color, "No colour in terminal output (NO_COLOR works too)");

  cli::CommandTable table(&globals);
  cli::SetupEgress(app, table);
  cli::SetupPlan(app, table);
  cli::SetupProbe(app, table);
  cli::SetupAnalyze(app, table);
  cli::SetupAdvise(app, table);
  cli::SetupPreflight(app, table);
  cli::SetupPostmortem(app, table);
  cli::SetupLint(app, table);
  cli::SetupReport(app, table);
  cli::SetupRules(app, table);
  cli::SetupFacts(app, table);
  cli::SetupCleanup(app, table);

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ExtrasError& e) {
    // CLI11 would list the unexpected arguments with their values: a secret given to a
    // misspelled flag (--sas-tokn SECRET) would be printed. Name the flags only.
    std::string flags;
    for (int i = 1; i < argc; ++i) {
      std::string arg = argv[i];
      if (arg.size() < 2 || arg[0] != '-') continue;
      arg = arg.substr(0, arg.find('='));
      flags += (flags.empty() ? "" : ", ") + arg;
    }
    std::fprintf(stderr,
                 "feedcheck: unexpected arguments (values not shown; flags given: %s)\n"
                 "Run with --help for more information.\n",
                 flags.c_str());
    (void)e;
    return ToInt(ExitStatus::kUsage);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return ToInt(ExitStatus::kUsage);
  }
  int code = table.RunParsed();
  return code < 0 ? ToInt(ExitStatus::kUsage) : code;
}
