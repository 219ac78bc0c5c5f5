// A rich Report built in code for the reporter tests: every chart's series present, findings of
// each severity, a skipped rule, settings, config, diagnostics and a fixed context.
#pragma once

#include <cstddef>

#include "reports/report.h"

namespace feedcheck::testing {

/// `points` sets the length of the long series (CDFs, GPU samples): small for golden files,
/// about 100 for the rendered HTML.
Report MakeSampleReport(size_t points = 100);

}  // namespace feedcheck::testing
