// `feedcheck probe list | smallfiles | disk | nic` (added by the filesystem-probes work).
#include "cli/cmd_probe.h"

namespace feedcheck::cli {

void SetupProbeFs(CLI::App& /*probe*/, CommandTable& /*table*/) {}

}  // namespace feedcheck::cli
