// The fleet's post-mortem on a terminal: the verdict, the jobs that lost most GPU time (all of
// them with -v), GPU time lost by cause, the fixes ranked, the accounts several jobs shared, the
// folders not diagnosed; every line within the terminal's width.
#pragma once

#include <ostream>

#include "reports/report.h"

namespace feedcheck {

/// How many jobs the default output lists (most GPU time lost first); -v lists every one.
inline constexpr size_t kFleetJobsShown = 20;
/// How many fixes the default output ranks; -v lists every one with its advice.
inline constexpr size_t kFleetFixesShown = 8;

void RenderFleetTerminal(const Report& report, std::ostream& out, bool color, bool verbose,
                         size_t width);

}  // namespace feedcheck
