// The command-line binding of app/probe_session: TARGET, credentials (from environment or files
// only), TLS, and the budget every probe states and keeps. Parsing and set-up live in app/.
#pragma once

#include <CLI/CLI.hpp>

#include "app/probe_session.h"

namespace feedcheck::cli {

using ProbeOptions = app::ProbeSessionRequest;

/// Adds TARGET (positional), --auth, --account, --key-file, --sas-file, --token-file,
/// --managed-identity-client-id, --ca-file, --insecure, and refuses secret-looking flags
/// (--key, --sas, --token, ...) with a message that says where secrets go instead.
void AddProbeTargetOptions(CLI::App* app, ProbeOptions* options);
/// Adds --duration, --max-requests, --max-bytes with the given defaults.
void AddProbeBudgetOptions(CLI::App* app, ProbeOptions* options);

}  // namespace feedcheck::cli
