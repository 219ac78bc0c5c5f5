// `feedcheck rules list` and `feedcheck rules validate FILE...`: flags for app::RunRulesList and
// app::RunRulesValidate (each file Ok, Ok with warnings, or Invalid with coded diagnostics on
// stderr; exit 3 when one is invalid).
#include <memory>

#include "app/rules_workflow.h"
#include "cli/command.h"
#include "cli/report_output.h"

namespace feedcheck::cli {

void SetupRules(CLI::App& root, CommandTable& table) {
  CLI::App* sub = root.add_subcommand("rules", "List the rules, or validate a rules file");
  sub->require_subcommand(1);

  auto list_output = std::make_shared<OutputFlags>();
  CLI::App* list = sub->add_subcommand("list", "List built-in rules and those of --rules DIR");
  list_output->whole = true;  // a listing: every rule
  AddOutputFlags(list, list_output.get());
  table.Add(list, [list_output, &table] {
    app::RulesListRequest request;
    request.knowledge = table.globals().knowledge;
    return Render(app::RunRulesList(request), *list_output, table.globals(), "rules list");
  });

  auto request = std::make_shared<app::RulesValidateRequest>();
  auto validate_output = std::make_shared<OutputFlags>();
  CLI::App* validate = sub->add_subcommand(
      "validate", "Read and compile rules files: each Ok, Ok with warnings, or Invalid");
  validate->add_option("FILE", request->files, "Rules YAML file(s)")->required();
  validate_output->whole = true;
  AddOutputFlags(validate, validate_output.get());
  table.Add(validate, [request, validate_output, &table] {
    return Render(app::RunRulesValidate(*request), *validate_output, table.globals(),
                  "rules validate");
  });
}

}  // namespace feedcheck::cli
