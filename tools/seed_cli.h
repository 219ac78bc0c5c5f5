// feedcheck-seed's command line, as careful with secrets as feedcheck's own: the credential
// flags take files or the environment only, a flag that would carry a secret is refused by
// name, and no usage error ever echoes a value (a secret given to a misspelt flag, or pasted
// where a file name belongs). Usage errors exit 2, as feedcheck's do.
#pragma once

#include <CLI/CLI.hpp>

#include "app/probe_session.h"

namespace feedcheck::seed {

/// TARGET and the credential flags (--auth, --account, --key-file, --sas-file, --token-file,
/// --ca-file, --insecure), and the refused secret flags (--key, --sas-token, ...).
void AddTargetOptions(CLI::App* app, app::ProbeSessionRequest* r);

/// Parses argv. Returns -1 to go on, else the exit code to return: 0 after --help, 2 after a
/// usage error (printed without any value the user gave).
int ParseCommandLine(CLI::App& app, int argc, char** argv);

}  // namespace feedcheck::seed
