// The `probe` parent command and the hooks its subcommand files register through.
#pragma once

#include "cli/command.h"

namespace feedcheck::cli {

/// Adds list, smallfiles, disk and nic under `probe` (cli/cmd_probe_fs.cpp).
void SetupProbeFs(CLI::App& probe, CommandTable& table);

}  // namespace feedcheck::cli
