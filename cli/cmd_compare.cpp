// `feedcheck compare A.json B.json [--tolerance 2%] [--floor 50%] [--fail-on-worse] [-f ...] [-o
// FILE]`: flags for app::RunCompare, what changed between two saved results and whether it is
// outside their noise.
#include <memory>

#include "app/compare_workflow.h"
#include "cli/command.h"
#include "cli/report_output.h"

namespace feedcheck::cli {

void SetupCompare(CLI::App& root, CommandTable& table) {
  auto request = std::make_shared<app::CompareRequest>();
  auto output = std::make_shared<OutputFlags>();
  CLI::App* sub = root.add_subcommand(
      "compare", "What changed between two saved results (probe, preflight or postmortem --json)");
  sub->add_option("A", request->a, "The result before (JSON)")->required();
  sub->add_option("B", request->b, "The result after (JSON)")->required();
  sub->add_option("--tolerance", request->tolerance,
                  "Relative change below which a fact with no noise band is the same (2%)");
  sub->add_option("--floor", request->floor,
                  "Judge a result with no noise band beyond this relative change (e.g. 50%); "
                  "default: never, it is 'no noise band'");
  sub->add_flag("--fail-on-worse", request->fail_on_worse,
                "Exit 1 when a result got worse beyond its noise band (a CI gate)");
  AddOutputFlags(sub, output.get());
  table.Add(sub, [request, output, &table] {
    return Render(app::RunCompare(*request), *output, table.globals(), "compare");
  });
}

}  // namespace feedcheck::cli
