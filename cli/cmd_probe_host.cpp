// `feedcheck probe disk PATH | nic [TARGET]`: this node's cache disk and the interface that
// routes to the storage. The workflows run in app/probe_host; the disk's test file is removed
// before the command returns, also after SIGINT/SIGTERM (SignalGuard + the cleanup registry).
#include <memory>

#include "app/probe_host.h"
#include "cli/cmd_probe.h"
#include "cli/probe_options.h"
#include "cli/probe_output.h"
#include "cli/signal_guard.h"

namespace feedcheck::cli {
namespace {

struct DiskFlags {
  app::DiskRequest request;
  OutputFlags report;
};

struct NicFlags {
  app::NicRequest request;
  OutputFlags report;
};

int RunDisk(DiskFlags& flags, const GlobalOptions& globals) {
  app::CleanupRegistry registry;
  SignalGuard guard(&registry);
  flags.request.cleanup = &registry;
  app::Outcome outcome =
      app::RunProbeDisk(flags.request, TerminalCallbacks(flags.request.session.duration));
  return FinishProbeCommand("probe disk", outcome, flags.report, globals);
}

int RunNic(NicFlags& flags, const GlobalOptions& globals) {
  flags.request.knowledge = globals.knowledge;
  app::Outcome outcome = app::RunProbeNic(flags.request, TerminalCallbacks());
  return FinishProbeCommand("probe nic", outcome, flags.report, globals);
}

}  // namespace

void SetupProbeHost(CLI::App& probe, CommandTable& table) {
  GlobalOptions* globals = &table.globals();

  auto df = std::make_shared<DiskFlags>();
  app::DiskRequest& d = df->request;
  CLI::App* disk = probe.add_subcommand(
      "disk", "Sequential write/read (MB/s) and 4 KiB random-read IOPS of a cache directory");
  disk->add_option("path", d.path, "Directory to test (the intended cache path)")->required();
  AddProbeBudgetOptions(disk, &d.session);
  disk->add_option("--file-size", d.file_size, "Size of the test file")->capture_default_str();
  disk->add_option("--block-size", d.block_size, "Sequential I/O size")->capture_default_str();
  disk->add_option("--random-threads", d.random_threads, "Random-read queue depth")
      ->capture_default_str();
  disk->add_option("--random-duration", d.random_duration, "Random-read phase length")
      ->capture_default_str();
  disk->add_flag("--no-direct", d.no_direct, "Do not try O_DIRECT");
  AddOutputFlags(disk, &df->report);
  table.Add(disk, [df, globals] { return RunDisk(*df, *globals); });

  auto nf = std::make_shared<NicFlags>();
  app::NicRequest& n = nf->request;
  CLI::App* nic = probe.add_subcommand(
      "nic", "The interface that routes to TARGET: speed, driver, MTU, accelerated networking");
  nic->add_option("target", n.target, "Storage URL (default: the default route)");
  nic->add_option("--sku", n.sku, "VM size, for its expected bandwidth");
  nic->add_option("--nic-gbps", n.nic_gbps, "Expected bandwidth, overrides --sku's");
  nic->add_option("--interface", n.interface, "Describe this interface instead");
  AddOutputFlags(nic, &nf->report);
  table.Add(nic, [nf, globals] { return RunNic(*nf, *globals); });
}

}  // namespace feedcheck::cli
