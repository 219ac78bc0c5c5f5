// The fleet's post-mortem in Markdown: the verdict, every job's row (with its fix and what it
// buys), GPU time lost by cause, the fixes ranked, the storage accounts, the folders not
// diagnosed.
#pragma once

#include <ostream>

#include "reports/report.h"

namespace feedcheck {

void RenderFleetMarkdown(const Report& report, std::ostream& out);

}  // namespace feedcheck
