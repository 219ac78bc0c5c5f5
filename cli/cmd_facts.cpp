// `feedcheck facts list`: every fact key with its unit, origin and meaning (the registry).
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "core/evidence.h"
#include "core/exit_status.h"
#include "core/fact_registry.h"
#include "core/json_text.h"
#include "reports/text_table.h"

namespace feedcheck::cli {
namespace {

int RunList(const GlobalOptions& globals) {
  const auto& specs = FactRegistry::Builtin().all();
  if (globals.json) {
    nlohmann::json facts = nlohmann::json::array();
    for (const auto& s : specs)
      facts.push_back({{"key", s.key},
                       {"unit", UnitName(s.unit)},
                       {"origin", OriginName(s.origin)},
                       {"description", s.description}});
    nlohmann::json out = {{"schema_version", kEvidenceSchemaVersion}, {"facts", facts}};
    fmt::print("{}\n", JsonText(out, 2));
    return ToInt(ExitStatus::kOk);
  }
  TextTable table({"Key", "Unit", "Origin", "Description"});
  for (const auto& s : specs)
    table.AddRow({std::string(s.key), std::string(UnitName(s.unit)),
                  std::string(OriginName(s.origin)), std::string(s.description)});
  fmt::print("{}", table.Render(0));
  fmt::print("\n{} keys. Keys ending in .<name> are families (runtime.http_errors.503).\n",
             specs.size());
  return ToInt(ExitStatus::kOk);
}

}  // namespace

void SetupFacts(CLI::App& root, CommandTable& table) {
  CLI::App* sub = root.add_subcommand("facts", "The fact vocabulary: keys, units, origins");
  sub->require_subcommand(1);
  CLI::App* list = sub->add_subcommand("list", "Every fact key with unit, origin and meaning");
  table.Add(list, [&table] { return RunList(table.globals()); });
}

}  // namespace feedcheck::cli
