// `feedcheck lint JOB.yml [--profile P.yaml] [--sku S] [--region R | --account-kind K |
// --account-egress-gbps G] [-f term|json|md|html|sarif] [-o FILE]`: flags for app::RunLint,
// which checks an Azure ML command job against the advice of the rules for it. A CI gate: exit 1
// at or above --fail-on, 3 for a file that is not a job.
#include <fmt/format.h>

#include <filesystem>
#include <memory>

#include "app/lint_sarif.h"
#include "app/lint_workflow.h"
#include "cli/command.h"
#include "cli/report_output.h"

namespace feedcheck::cli {
namespace {

// SARIF is lint's own format (code-scanning UIs); every other one is the Report's.
int RenderSarif(const app::LintOutcome& lint, const OutputFlags& output,
                const GlobalOptions& globals) {
  if (globals.json) {
    fmt::print(stderr, "feedcheck lint: --json and --format sarif ask for two formats; give one\n");
    return ToInt(ExitStatus::kUsage);
  }
  PrintDiagnostics(lint.outcome.diagnostics, "lint");
  // A log on every run lint made, even one that could not read its input (exit 3): an upload
  // step after it gets a valid file with the error, never an empty one. A usage error (exit 2)
  // is not a run.
  if (!lint.outcome.has_report && lint.outcome.status != ExitStatus::kInputError)
    return ToInt(lint.outcome.status);
  std::error_code ec;
  const std::string base = std::filesystem::current_path(ec).string();
  if (int rc = WriteText(
          app::LintSarif(lint.problems, lint.outcome.diagnostics, lint.outcome.has_report, base),
          output.output, "lint", "sarif"))
    return rc;
  return ToInt(lint.outcome.status);
}

}  // namespace

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
  output->extension_formats = {"sarif"};
  AddOutputFlags(sub, output.get(), {"sarif"});
  table.Add(sub, [request, output, &table] {
    request->knowledge = table.globals().knowledge;
    request->fail_on = table.globals().fail_on;
    app::LintOutcome lint = app::RunLint(*request);
    // SARIF by -f sarif or by -o's extension (results.sarif).
    if (output->format == "sarif" ||
        (output->format.empty() && !table.globals().json &&
         ChosenFormat(*output, table.globals(), "lint").value_or("") == "sarif"))
      return RenderSarif(lint, *output, table.globals());
    return Render(lint.outcome, *output, table.globals(), "lint");
  });
}

}  // namespace feedcheck::cli
