// A rich Report built in code for the reporter tests: every chart's series present, findings of
// each severity, a skipped rule, settings, config, diagnostics and a fixed context.
#pragma once

#include <cstddef>

#include "reports/report.h"

namespace feedcheck::testing {

/// `points` sets the length of the long series (CDFs, GPU samples): small for golden files,
/// about 100 for the rendered HTML.
Report MakeSampleReport(size_t points = 100);

/// The sample with what the charts mark besides their series: the sweep's knee, the break-even
/// size and the dataset's median file, the GPU busy threshold, the nodes' NICs, entries listed
/// over time, and findings with a demand against a limit (the request rate of 12 ND96asr_v4
/// nodes reading 64 KiB files: 549,316/s against 40,000/s). Kept apart from MakeSampleReport so
/// the golden Markdown and JSON stay as they are.
Report MakeChartSampleReport(size_t points = 100);

}  // namespace feedcheck::testing
