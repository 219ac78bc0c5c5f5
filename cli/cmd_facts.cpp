// `feedcheck facts list [PREFIX]`: flags for app::RunFactsList, every fact key with its unit,
// origin and meaning (the registry).
#include <memory>

#include "app/facts_workflow.h"
#include "cli/command.h"
#include "cli/report_output.h"

namespace feedcheck::cli {

void SetupFacts(CLI::App& root, CommandTable& table) {
  CLI::App* sub = root.add_subcommand("facts", "The fact vocabulary: keys, units, origins");
  sub->require_subcommand(1);
  auto request = std::make_shared<app::FactsListRequest>();
  auto output = std::make_shared<OutputFlags>();
  CLI::App* list = sub->add_subcommand("list", "Every fact key with unit, origin and meaning");
  list->add_option("PREFIX", request->prefix, "Only keys starting with PREFIX (probe.throughput)");
  output->whole = true;  // a listing: every key
  AddOutputFlags(list, output.get());
  table.Add(list, [request, output, &table] {
    return Render(app::RunFactsList(*request), *output, table.globals(), "facts list");
  });
}

}  // namespace feedcheck::cli
