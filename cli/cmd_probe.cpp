// `feedcheck probe throughput | latency TARGET`: measure one node against the storage target.
// The probe runs in probes/; this file parses flags, states the budget, prints the result.
#include "cli/cmd_probe.h"

#include <fmt/format.h>

#include <memory>

#include "cli/probe_options.h"
#include "core/exit_status.h"

namespace feedcheck::cli {

void SetupProbe(CLI::App& root, CommandTable& table) {
  CLI::App* probe = root.add_subcommand(
      "probe", "Measure storage from this node: throughput, latency, list, smallfiles, disk, nic");
  probe->require_subcommand(1);
  SetupProbeFs(*probe, table);
}

}  // namespace feedcheck::cli
