// `feedcheck probe list | smallfiles TARGET`: listing cost and the dataset's shape, and the
// per-request overhead of small reads, over HTTP or on a local path. The workflows run in app/
// (app/probe_listing, app/probe_smallfiles); anything --create-test-data writes is removed before
// the command returns, also after SIGINT/SIGTERM (SignalGuard + the cleanup registry).
#include <memory>

#include "app/probe_listing.h"
#include "app/probe_smallfiles.h"
#include "cli/cmd_probe.h"
#include "cli/probe_options.h"
#include "cli/probe_output.h"
#include "cli/signal_guard.h"

namespace feedcheck::cli {
namespace {

struct ListFlags {
  app::ListRequest request;
  OutputFlags report;
};

struct SmallFileFlags {
  app::SmallFilesRequest request;
  OutputFlags report;
};

int RunList(ListFlags& flags, const GlobalOptions& globals) {
  app::CleanupRegistry registry;
  SignalGuard guard(&registry);
  flags.request.cleanup = &registry;
  app::Outcome outcome =
      app::RunProbeList(flags.request, TerminalCallbacks(flags.request.session.duration));
  return FinishProbeCommand("probe list", outcome, flags.report, globals);
}

int RunSmallFiles(SmallFileFlags& flags, const GlobalOptions& globals) {
  app::CleanupRegistry registry;
  SignalGuard guard(&registry);
  flags.request.cleanup = &registry;
  app::Outcome outcome =
      app::RunProbeSmallFiles(flags.request, TerminalCallbacks(flags.request.session.duration));
  return FinishProbeCommand("probe smallfiles", outcome, flags.report, globals);
}

}  // namespace

void SetupProbeStorage(CLI::App& probe, CommandTable& table) {
  GlobalOptions* globals = &table.globals();

  auto lf = std::make_shared<ListFlags>();
  app::ListRequest& l = lf->request;
  CLI::App* list = probe.add_subcommand(
      "list", "List Blobs / List Paths cost and the dataset's shape (or readdir+stat on a path)");
  AddProbeTargetOptions(list, &l.session);
  AddProbeBudgetOptions(list, &l.session);
  list->add_option("--max-pages", l.max_pages, "Pages (requests) at most")->capture_default_str();
  list->add_option("--page-size", l.page_size, "maxresults per page (1-5000)")
      ->capture_default_str();
  list->add_option("--delimiter", l.delimiter,
                   "List one level with this delimiter (usually /) instead of everything");
  list->add_flag("--create-test-data", l.create_test_data,
                 "Seed a new unique prefix first and remove it at the end (needs write access)");
  AddOutputFlags(list, &lf->report);
  table.Add(list, [lf, globals] { return RunList(*lf, *globals); });

  auto sf = std::make_shared<SmallFileFlags>();
  app::SmallFilesRequest& s = sf->request;
  CLI::App* small = probe.add_subcommand(
      "smallfiles", "Per-request overhead and bandwidth from reads of 4 KiB ... 64 MiB objects");
  AddProbeTargetOptions(small, &s.session);
  AddProbeBudgetOptions(small, &s.session);
  small->add_option("--sizes", s.sizes, "Object sizes, e.g. 4KiB,64KiB,1MiB")->delimiter(',');
  small->add_option("--concurrency", s.concurrency, "Parallel reads")->capture_default_str();
  small
      ->add_option("--requests-per-size", s.requests_per_size,
                   "Reads per size (fewer for big sizes when --max-bytes is tight)")
      ->capture_default_str();
  small->add_flag("--create-test-data", s.create_test_data,
                  "Seed objects of these sizes under a new unique prefix and remove them at the "
                  "end");
  AddOutputFlags(small, &sf->report);
  table.Add(small, [sf, globals] { return RunSmallFiles(*sf, *globals); });
}

}  // namespace feedcheck::cli
