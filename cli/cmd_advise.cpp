// `feedcheck advise [FACTS.json...] [--profile P.yaml] [--env-format yaml|shell|python|json]`:
// flags for app::RunAdvise (findings, rules not evaluated, the env vars to paste and BlobFuse2
// fragments), rendered like every report; with --env-format on a terminal, only the settings.
#include <fmt/format.h>

#include <memory>
#include <optional>

#include "app/advise_workflow.h"
#include "cli/command.h"
#include "cli/report_output.h"
#include "core/exit_status.h"
#include "core/plural.h"

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
  CLI::Option* env_format =
      sub->add_option("--env-format", request->env_format,
                      "Print only the settings to paste, as yaml | shell | python | json (with "
                      "-f json|md|html: the env block's form in the report)")
          ->check(CLI::IsMember({"yaml", "shell", "python", "json"}));
  AddOutputFlags(sub, output.get());
  table.Add(sub, [request, output, env_format, &table] {
    request->knowledge = table.globals().knowledge;
    request->fail_on = table.globals().fail_on;
    app::Outcome outcome = app::RunAdvise(*request);
    std::optional<std::string> format = ChosenFormat(*output, table.globals(), "advise");
    if (!format) return ToInt(ExitStatus::kUsage);
    if (env_format->count() == 0 || *format != "term" || !outcome.has_report ||
        table.globals().verbose)
      return Render(outcome, *output, table.globals(), "advise");
    // --env-format for a person: the settings alone, pasteable as they are; what they leave
    // out is said on stderr.
    PrintDiagnostics(outcome.diagnostics, "advise");
    const Report& report = outcome.report;
    if (int rc = WriteText(app::AdviceEnvText(report, request->env_format), output->output,
                           "advise", request->env_format))
      return rc;
    const size_t fragments = report.config.empty() ? 0 : report.config.size() - 1;
    fmt::print(stderr,
               "feedcheck advise: {} and {} not printed with --env-format; without it (or with "
               "-v) the whole advice\n",
               Counted(static_cast<double>(report.findings.size()), "finding"),
               Counted(static_cast<double>(report.env.empty() ? report.config.size() : fragments),
                       "config fragment"));
    return ToInt(outcome.status);
  });
}

}  // namespace feedcheck::cli
