// `feedcheck rules list` and `feedcheck rules validate FILE...` (Falco's `-V`: "FILE: Ok",
// "Ok, with warnings" or "Invalid" with coded diagnostics; exit 3 when invalid).
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "cli/advice_common.h"
#include "cli/command.h"
#include "core/evidence_json.h"
#include "core/exit_status.h"
#include "core/install_paths.h"
#include "core/json_text.h"
#include "rules/rule_set.h"

namespace feedcheck::cli {
namespace {

struct RulesOptions {
  std::vector<std::string> files;
};

int RunList(const GlobalOptions& globals) {
  rules::RuleSet set;
  DiagnosticList diagnostics;
  bool ok = LoadRules(globals, &set, &diagnostics);
  if (globals.json) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& r : set.rules())
      list.push_back({{"id", r.id},
                      {"severity", SeverityName(r.severity)},
                      {"title", r.title},
                      {"file", r.location.file},
                      {"line", r.location.line},
                      {"source", r.source}});
    nlohmann::json out = {
        {"schema_version", 1}, {"rules", list}, {"diagnostics", DiagnosticsToJson(diagnostics)}};
    fmt::print("{}\n", JsonText(out, 2));
  } else {
    PrintDiagnostics(diagnostics);
    for (const auto& r : set.rules())
      fmt::print("{:<8}  {:<34}  {}\n", SeverityName(r.severity), r.id, r.title);
    fmt::print("{} rules\n", set.rules().size());
  }
  return ToInt(ok ? ExitStatus::kOk : ExitStatus::kInputError);
}

int RunValidate(const GlobalOptions& globals, const RulesOptions& options) {
  bool all_ok = true;
  nlohmann::json files = nlohmann::json::array();
  for (const auto& path : options.files) {
    rules::RuleSet set;
    DiagnosticList diagnostics(1000);
    bool ok = set.LoadFile(path, &diagnostics);
    all_ok = all_ok && ok;
    std::string status = !ok ? "Invalid" : (diagnostics.total() > 0 ? "Ok, with warnings" : "Ok");
    if (globals.json) {
      files.push_back({{"file", path},
                       {"status", status},
                       {"rules", set.rules().size()},
                       {"diagnostics", DiagnosticsToJson(diagnostics)}});
      continue;
    }
    fmt::print("{}: {}\n", path, status);
    for (const auto& d : diagnostics.kept()) fmt::print("{}\n", FormatDiagnostic(d));
    if (diagnostics.dropped() > 0) fmt::print("... and {} more\n", diagnostics.dropped());
  }
  if (globals.json) {
    nlohmann::json out = {{"schema_version", 1}, {"valid", all_ok}, {"files", files}};
    fmt::print("{}\n", JsonText(out, 2));
  }
  return ToInt(all_ok ? ExitStatus::kOk : ExitStatus::kInputError);
}

}  // namespace

void SetupRules(CLI::App& root, CommandTable& table) {
  CLI::App* sub = root.add_subcommand("rules", "List the rules, or validate a rules file");
  sub->require_subcommand(1);
  GlobalOptions& globals = table.globals();

  CLI::App* list = sub->add_subcommand("list", "List built-in rules and those of --rules DIR");
  table.Add(list, [&globals] { return RunList(globals); });

  auto options = std::make_shared<RulesOptions>();
  CLI::App* validate = sub->add_subcommand(
      "validate", "Read and compile rules files; print 'FILE: Ok' or coded diagnostics");
  validate->add_option("FILE", options->files, "Rules YAML file(s)")->required();
  table.Add(validate, [&globals, options] { return RunValidate(globals, *options); });
}

}  // namespace feedcheck::cli
