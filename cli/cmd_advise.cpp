// `feedcheck advise [FACTS.json...] [--profile P.yaml] [--env-format yaml|shell|python|json]`:
// flags for app::RunAdvise (findings, rules not evaluated, the env vars to paste and BlobFuse2
// fragments), rendered like every report.
#include <memory>

#include "app/advise_workflow.h"
#include "cli/command.h"
#include "cli/report_output.h"

namespace feedcheck::cli {

void SetupAdvise(CLI::App& root, CommandTable& table) {
  auto request = std::make_shared<app::AdviseRequest>();
  auto output = std::make_shared<OutputFlags>();
  CLI::App* sub = root.add_subcommand(
      "advise", "Findings, env vars and config to paste, from facts files and/or a profile");
  sub->add_option("FACTS", request->facts_files, "facts.json files from probe/analyze")
      ->check(CLI::ExistingFile);
  sub->add_option("--profile", request->profile, "Workload profile YAML (examples/*.yaml)")
      ->check(CLI::ExistingFile);
  sub->add_option("--env-format", request->env_format, "yaml | shell | python | json")
      ->check(CLI::IsMember({"yaml", "shell", "python", "json"}));
  AddOutputFlags(sub, output.get());
  table.Add(sub, [request, output, &table] {
    request->knowledge = table.globals().knowledge;
    request->fail_on = table.globals().fail_on;
    return Render(app::RunAdvise(*request), *output, table.globals(), "advise");
  });
}

}  // namespace feedcheck::cli
