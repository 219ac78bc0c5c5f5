// `feedcheck plan` (not yet built: see the issue tracker).
#include <fmt/format.h>

#include "cli/command.h"
#include "core/exit_status.h"

namespace feedcheck::cli {

void SetupPlan(CLI::App& root, CommandTable& table) {
  CLI::App* sub = root.add_subcommand("plan", "(not yet available)");
  sub->allow_extras();
  table.Add(sub, [] {
    fmt::print(stderr, "feedcheck plan: not available in this build yet\n");
    return ToInt(ExitStatus::kUsage);
  });
}

}  // namespace feedcheck::cli
