// The `probe` parent command and the hooks its subcommand files register through.
#pragma once

#include "cli/command.h"

namespace feedcheck::cli {

/// Adds list and smallfiles (the HTTP or local-path reads) under `probe`
/// (cli/cmd_probe_storage.cpp).
void SetupProbeStorage(CLI::App& probe, CommandTable& table);
/// Adds disk and nic (this node's cache disk and interface) under `probe`
/// (cli/cmd_probe_host.cpp).
void SetupProbeHost(CLI::App& probe, CommandTable& table);

}  // namespace feedcheck::cli
