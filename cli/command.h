// The command table: every subcommand registers itself with Setup<Name>(root, table), binding
// its flags to its own options object, and adds the action to run when it was chosen.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

#include "app/knowledge_inputs.h"

namespace feedcheck::cli {

/// Flags every subcommand understands (set on the root app, usable before or after the
/// subcommand name).
struct GlobalOptions {
  bool json = false;                 ///< machine output with "schema_version"
  app::KnowledgeInputs knowledge;    ///< --kb FILE overrides, --rules DIR extra rules
  std::string fail_on = "critical";  ///< --fail-on info|warning|critical|never
  bool no_color = false;
  bool verbose = false;  ///< -v: list every rule not evaluated (one line counts them otherwise)
};

using CommandAction = std::function<int()>;

class CommandTable {
 public:
  explicit CommandTable(GlobalOptions* globals) : globals_(globals) {}
  void Add(CLI::App* subcommand, CommandAction action) {
    entries_.push_back({subcommand, std::move(action)});
  }
  GlobalOptions& globals() { return *globals_; }
  /// Runs the action of the subcommand that was parsed; -1 when none was.
  int RunParsed() const {
    for (const auto& e : entries_)
      if (e.app->parsed()) return e.action();
    return -1;
  }

 private:
  struct Entry {
    CLI::App* app;
    CommandAction action;
  };
  GlobalOptions* globals_;
  std::vector<Entry> entries_;
};

void SetupEgress(CLI::App& root, CommandTable& table);
void SetupPlan(CLI::App& root, CommandTable& table);
void SetupProbe(CLI::App& root, CommandTable& table);
void SetupAnalyze(CLI::App& root, CommandTable& table);
void SetupAdvise(CLI::App& root, CommandTable& table);
void SetupPreflight(CLI::App& root, CommandTable& table);
void SetupPostmortem(CLI::App& root, CommandTable& table);
void SetupFetch(CLI::App& root, CommandTable& table);
void SetupLint(CLI::App& root, CommandTable& table);
void SetupReport(CLI::App& root, CommandTable& table);
void SetupRules(CLI::App& root, CommandTable& table);
void SetupFacts(CLI::App& root, CommandTable& table);
void SetupCompare(CLI::App& root, CommandTable& table);
void SetupCleanup(CLI::App& root, CommandTable& table);

}  // namespace feedcheck::cli
