// The HTML report's charts: which Evidence series and timeline lanes go into which chart (the
// series keys agreed in the helpers' contract). Charts whose series are absent are not drawn;
// a short note says what would have drawn them.
#pragma once

#include <string>

#include "reports/report.h"

namespace feedcheck {

/// One <figure> (or note) per chart, as HTML.
std::string RenderHtmlCharts(const Report& report);

}  // namespace feedcheck
