// The fleet's post-mortem as one self-contained HTML page (no script, no fetch): the verdict, a
// bar chart of GPU time lost by cause, the jobs in a table sortable by any column (radio
// buttons and CSS `order`, so it sorts without JavaScript), the fixes ranked, the accounts.
#pragma once

#include <ostream>

#include "reports/report.h"

namespace feedcheck {

void RenderFleetHtml(const Report& report, std::ostream& out);

}  // namespace feedcheck
