// `feedcheck cleanup URL [--dry-run] [--max-pages N]`: flags for app::RunCleanup, which removes
// the test data a killed --create-test-data run left behind (only this tool's own
// feedcheck-test-* prefixes, after listing them all).
#include <memory>

#include "app/cleanup_workflow.h"
#include "cli/command.h"
#include "cli/probe_options.h"
#include "cli/probe_output.h"
#include "cli/signal_guard.h"

namespace feedcheck::cli {
namespace {

struct CleanupFlags {
  app::CleanupRequest request;
  OutputFlags output;
};

int RunCleanup(const CleanupFlags& flags, const GlobalOptions& globals) {
  app::Outcome outcome;
  {
    // Deletes stop between requests on a signal; nothing is created here, so nothing to undo.
    SignalGuard guard(nullptr, 5);
    outcome = app::RunCleanup(flags.request, TerminalCallbacks(flags.request.session.duration));
  }
  return FinishProbeCommand("cleanup", outcome, flags.output, globals);
}

}  // namespace

void SetupCleanup(CLI::App& root, CommandTable& table) {
  auto flags = std::make_shared<CleanupFlags>();
  flags->request.session.duration = "10min";
  CLI::App* sub = root.add_subcommand(
      "cleanup",
      "Remove test data a killed --create-test-data run left behind: only blobs under this "
      "tool's own feedcheck-test-<time>-<pid>-<hex>/ prefixes, after listing them all");
  AddProbeTargetOptions(sub, &flags->request.session);
  AddProbeBudgetOptions(sub, &flags->request.session);
  sub->add_flag("--dry-run", flags->request.dry_run, "List what would be removed; delete nothing");
  sub->add_option("--max-pages", flags->request.max_pages,
                  "Listing pages of up to 5,000 blobs at most")
      ->capture_default_str();
  sub->add_flag("--force", flags->request.force,
                "Also remove prefixes from the last 24 hours (a run may still be using them)");
  AddOutputFlags(sub, &flags->output);
  table.Add(sub, [flags, &table] { return RunCleanup(*flags, table.globals()); });
}

}  // namespace feedcheck::cli
