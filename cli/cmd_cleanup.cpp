// `feedcheck cleanup URL [--dry-run]`: removes test data that --create-test-data left behind
// when a run could not clean up (kill -9, a lost node). The library finds only this tool's own
// feedcheck-test-* prefixes (probes/leftover_test_data.h); this file parses flags and prints.
#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/probe_options.h"
#include "cli/signal_guard.h"
#include "core/exit_status.h"
#include "core/json_text.h"
#include "core/terminal_text.h"
#include "core/units.h"
#include "probes/leftover_test_data.h"
#include "probes/redact.h"

namespace feedcheck::cli {
namespace {

struct CleanupFlags {
  ProbeOptions common;
  bool dry_run = false;
  int max_pages = 1000;
};

int ExitFor(const LeftoverCleanupResult& r, bool dry_run) {
  if (StopRequested()) return 128 + StopSignal();
  if (r.result.status == ProbeStatus::kUnreachable) return ToInt(ExitStatus::kInputError);
  if (r.result.status == ProbeStatus::kFailed) return ToInt(ExitStatus::kProbeFailed);
  // Something found was not removed (or the listing was not read to its end): not done.
  bool left = !dry_run && r.blobs_deleted < r.blobs_found;
  return left || !r.listing_complete ? ToInt(ExitStatus::kProbeFailed) : ToInt(ExitStatus::kOk);
}

int RunCleanup(const CleanupFlags& flags, const GlobalOptions& globals) {
  if (flags.max_pages < 1) {
    fmt::print(stderr, "feedcheck cleanup: --max-pages must be >= 1\n");
    return ToInt(ExitStatus::kUsage);
  }
  HttpProbeEnv env;
  std::string error;
  if (int rc = BuildHttpProbeEnv(flags.common, &env, &error)) {
    fmt::print(stderr, "feedcheck cleanup: {}\n", TerminalSafe(error));
    return rc;
  }
  SignalGuard guard(nullptr, 5);
  StateBudget("cleanup", env,
              flags.dry_run ? "dry run: lists feedcheck-test-* prefixes, deletes nothing"
                            : "deletes blobs under feedcheck-test-* prefixes only");
  LeftoverCleanupOptions options;
  options.dry_run = flags.dry_run;
  options.max_pages = flags.max_pages;
  LeftoverCleanupResult r = CleanUpLeftoverTestData(env, options);
  if (globals.json) {
    nlohmann::json prefixes = nlohmann::json::array();
    for (const LeftoverPrefix& p : r.prefixes)
      prefixes.push_back({{"prefix", p.prefix}, {"blobs", p.blobs}, {"bytes", p.bytes}});
    nlohmann::json j = {{"schema_version", 1},
                        {"cleanup",
                         {{"target", RedactUrl(env.target.Display())},
                          {"dry_run", flags.dry_run},
                          {"status", ProbeStatusName(r.result.status)},
                          {"message", RedactText(r.result.message)},
                          {"listing_complete", r.listing_complete},
                          {"prefixes", prefixes},
                          {"blobs_found", r.blobs_found},
                          {"blobs_deleted", r.blobs_deleted},
                          {"delete_failures", r.delete_failures},
                          {"requests", r.result.requests_sent}}}};
    fmt::print("{}\n", JsonText(j));
  } else {
    for (const LeftoverPrefix& p : r.prefixes)
      fmt::print("{} {}  ({} blobs, {})\n", flags.dry_run ? "would remove" : "removing",
                 TerminalSafe(p.prefix), p.blobs, FormatBytes(static_cast<double>(p.bytes)));
    fmt::print("cleanup: {} test prefix{}, {} blobs found, {} {}\n", r.prefixes.size(),
               r.prefixes.size() == 1 ? "" : "es", r.blobs_found,
               flags.dry_run ? 0 : r.blobs_deleted,
               flags.dry_run ? "deleted (dry run)" : "deleted");
  }
  if (!r.result.message.empty())
    fmt::print(stderr, "feedcheck cleanup: {}\n", TerminalSafe(RedactText(r.result.message)));
  return ExitFor(r, flags.dry_run);
}

}  // namespace

void SetupCleanup(CLI::App& root, CommandTable& table) {
  auto flags = std::make_shared<CleanupFlags>();
  flags->common.duration = "10min";
  CLI::App* app = root.add_subcommand(
      "cleanup",
      "Remove test data a killed --create-test-data run left behind: only blobs under this "
      "tool's own feedcheck-test-<time>-<pid>-<hex>/ prefixes, after listing them all");
  AddProbeTargetOptions(app, &flags->common);
  AddProbeBudgetOptions(app, &flags->common);
  app->add_flag("--dry-run", flags->dry_run, "List what would be removed; delete nothing");
  app->add_option("--max-pages", flags->max_pages, "Listing pages of up to 5,000 blobs at most")
      ->capture_default_str();
  table.Add(app, [flags, &table] { return RunCleanup(*flags, table.globals()); });
}

}  // namespace feedcheck::cli
