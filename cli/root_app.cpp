#include "cli/root_app.h"

#include <cstdio>

#include "cli/finite_flags.h"
#include "cli/usage_help.h"

namespace feedcheck::cli {

void BuildRootApp(CLI::App& app, GlobalOptions& globals, CommandTable& table) {
  app.description(
      "feedcheck: measures whether storage can feed GPU training nodes, reads what a "
      "job left behind, and says what to change.");
  app.name("feedcheck");  // CLI11 takes it from argv[0] only while parsing; messages need it before
  app.set_version_flag("--version", FEEDCHECK_VERSION);
  app.require_subcommand(1);
  app.fallthrough();

  app.add_flag("--json", globals.json, "Machine-readable output (JSON with schema_version)");
  app.add_option("--kb", globals.knowledge.kb_files,
                 "Extra knowledge-base YAML file overriding built-in rows")
      ->check(CLI::ExistingFile);
  app.add_option("--rules", globals.knowledge.rules_dirs, "Directory of extra rules (*.yaml)");
  app.add_option("--fail-on", globals.fail_on, "Exit 1 when a finding is at or above this severity")
      ->check(CLI::IsMember({"info", "warning", "critical", "never"}));
  app.add_flag("--no-color", globals.no_color, "No colour in terminal output (NO_COLOR works too)");
  app.add_flag("-v,--verbose", globals.verbose, "List every rule not evaluated and what it lacked");

  SetupEgress(app, table);
  SetupPlan(app, table);
  SetupProbe(app, table);
  SetupAnalyze(app, table);
  SetupAdvise(app, table);
  SetupPreflight(app, table);
  SetupPostmortem(app, table);
  SetupFetch(app, table);
  SetupLint(app, table);
  SetupReport(app, table);
  SetupRules(app, table);
  SetupFacts(app, table);
  SetupCompare(app, table);
  SetupCleanup(app, table);
  CLI::App* version = app.add_subcommand("version", "Print feedcheck's version");
  table.Add(version, [] {
    std::printf("feedcheck %s\n", FEEDCHECK_VERSION);
    return 0;
  });
  AddGlobalFlagsToHelp(app);
  RefuseNonFiniteNumbers(app);
}

}  // namespace feedcheck::cli
