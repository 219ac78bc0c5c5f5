// `feedcheck report RESULT.json [-f term|json|md|html] [-o FILE]`: flags for app::RunReport,
// which reads a saved result (or a facts.json) back to be rendered in another format.
#include <memory>

#include "app/report_workflow.h"
#include "cli/command.h"
#include "cli/report_output.h"

namespace feedcheck::cli {

void SetupReport(CLI::App& root, CommandTable& table) {
  auto request = std::make_shared<app::ReportRequest>();
  auto output = std::make_shared<OutputFlags>();
  CLI::App* sub = root.add_subcommand(
      "report", "Re-render a saved result (RESULT.json from --json, or a facts.json)");
  sub->add_option("RESULT", request->input, "Saved result or facts file (JSON)")->required();
  AddOutputFlags(sub, output.get());
  table.Add(sub, [request, output, &table] {
    return Render(app::RunReport(*request), *output, table.globals(), "report");
  });
}

}  // namespace feedcheck::cli
