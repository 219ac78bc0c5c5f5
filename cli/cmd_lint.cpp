// `feedcheck lint JOB.yml [--profile P.yaml] [--sku S] [--region R | --account-kind K |
// --account-egress-gbps G] [-f term|json|md|html|sarif] [-o FILE]`: flags for app::RunLint,
// which checks an Azure ML command job against the advice of the rules for it. A CI gate: exit 1
// at or above --fail-on, 3 for a file that is not a job.
#include <memory>

#include "app/lint_workflow.h"
#include "cli/command.h"
#include "cli/report_output.h"

namespace feedcheck::cli {

void SetupLint(CLI::App& root, CommandTable& table) {
  auto request = std::make_shared<app::LintRequest>();
  auto output = std::make_shared<OutputFlags>();
  CLI::App* sub = root.add_subcommand(
      "lint", "Check an AzureML job YAML against the advice: mode, env vars, nodes per account");
  sub->add_option("JOB", request->job, "AzureML command job YAML")
      ->required()
      ->check(CLI::ExistingFile);
  sub->add_option("--profile", request->profile, "Workload profile YAML")->check(CLI::ExistingFile);
  sub->add_option("--sku", request->sku,
                  "VM size of the compute when the job does not name resources.instance_type");
  sub->add_option("--region", request->region, "Storage account region (its limits)");
  sub->add_option(
      "--account-kind", request->account_kind,
      "Storage target from the knowledge base (standard_gpv2, premium_block_blob, ...)");
  sub->add_option("--account-egress-gbps", request->account_egress,
                  "Account egress limit, overriding the knowledge base");
  AddOutputFlags(sub, output.get());
  table.Add(sub, [request, output, &table] {
    request->knowledge = table.globals().knowledge;
    request->fail_on = table.globals().fail_on;
    // SARIF (-f sarif, -o FILE.sarif) is a reporter like the others: the Report carries the
    // located problems and the codes' descriptions.
    return Render(app::RunLint(*request).outcome, *output, table.globals(), "lint");
  });
}

}  // namespace feedcheck::cli
