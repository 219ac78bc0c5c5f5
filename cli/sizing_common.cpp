#include "cli/sizing_common.h"

#include <fmt/format.h>

#include "app/fact_gathering.h"
#include "core/exit_status.h"

namespace feedcheck::cli {

int LoadKnowledgeBase(const GlobalOptions& globals, KnowledgeBase* kb) {
  DiagnosticList diagnostics;
  const bool ok = app::LoadKnowledgeBase(globals.knowledge, kb, &diagnostics);
  for (const auto& d : diagnostics.kept()) fmt::print(stderr, "{}\n", FormatDiagnostic(d));
  if (diagnostics.dropped() > 0)
    fmt::print(stderr, "... and {} more knowledge-base diagnostics\n", diagnostics.dropped());
  return ok ? ToInt(ExitStatus::kOk) : ToInt(ExitStatus::kInputError);
}

}  // namespace feedcheck::cli
