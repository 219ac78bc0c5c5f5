// feedcheck: can this storage feed these GPUs, and if not, what should change?
#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/usage_help.h"
#include "core/exit_status.h"

int main(int argc, char** argv) {
  using namespace feedcheck;
  CLI::App app{
      "feedcheck: measures whether storage can feed GPU training nodes, reads what a "
      "job left behind, and says what to change."};
  app.name("feedcheck");  // CLI11 takes it from argv[0] only while parsing; messages need it before
  app.set_version_flag("--version", FEEDCHECK_VERSION);
  app.require_subcommand(1);
  app.fallthrough();

  cli::GlobalOptions globals;
  app.add_flag("--json", globals.json, "Machine-readable output (JSON with schema_version)");
  app.add_option("--kb", globals.knowledge.kb_files,
                 "Extra knowledge-base YAML file overriding built-in rows")
      ->check(CLI::ExistingFile);
  app.add_option("--rules", globals.knowledge.rules_dirs, "Directory of extra rules (*.yaml)");
  app.add_option("--fail-on", globals.fail_on, "Exit 1 when a finding is at or above this severity")
      ->check(CLI::IsMember({"info", "warning", "critical", "never"}));
  app.add_flag("--no-color", globals.no_color, "No colour in terminal output (NO_COLOR works too)");
  app.add_flag("-v,--verbose", globals.verbose, "List every rule not evaluated and what it lacked");

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
  cli::SetupCompare(app, table);
  cli::SetupCleanup(app, table);
  CLI::App* version = app.add_subcommand("version", "Print feedcheck's version");
  table.Add(version, [] {
    std::printf("feedcheck %s\n", FEEDCHECK_VERSION);
    return 0;
  });
  cli::AddGlobalFlagsToHelp(app);

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
  int code = table.RunParsed();
  return code < 0 ? ToInt(ExitStatus::kUsage) : code;
}
