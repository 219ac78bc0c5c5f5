// Which charts a report has, decided with the report and never by a reporter: a chart with
// nothing to draw is left out, and so is a comparison whose bars say nothing (a demand equal to
// its limit, a bar chart of one bar or of equal bars). What would have drawn more is one line.
#pragma once

#include "core/finding.h"
#include "reports/report.h"

namespace feedcheck {

/// The evidence charts `report` has, from its series, timeline and findings, with the line that
/// names the missing inputs of a chart drawn in part (the timeline without GPU samples).
ReportCharts DecideCharts(const Report& report);

/// Sets `report->charts` when not decided yet.
void DecideCharts(Report* report);

/// Whether a demand-against-limit chart tells the reader anything: both finite and not equal as
/// people read them (200 Gbit/s against 200 Gbit/s says "at the limit", which the text says).
bool GaugeSaysSomething(const FindingGauge& gauge);

/// Whether a section's bar chart compares anything: at least two bars, not all of one length.
bool BarsSaySomething(const ReportBarChart& chart);

}  // namespace feedcheck
