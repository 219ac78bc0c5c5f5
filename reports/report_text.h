// Small text helpers the reporters share, so a fact or a finding reads the same in every format.
// Formatting only: nothing here derives a number.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/fact.h"
#include "core/fact_set.h"
#include "core/finding.h"
#include "core/gpu_time_text.h"
#include "reports/report.h"

namespace feedcheck {

/// "measured: probe throughput (concurrency=8) [node1 rank 2]", "observed: rslex.log:12".
std::string ProvenanceText(const Provenance& provenance);

/// "rules/builtin/egress.yaml:12", or "" when the finding names no rule file.
std::string RuleLocation(const Finding& finding);

/// Facts grouped by the first segment of their key ("probe", "gpu", ...), keys sorted.
std::map<std::string, std::vector<const Fact*>> FactsByPrefix(const FactSet& facts);

/// "30 rules need facts this run did not have": the one line that stands for the rules not
/// evaluated unless the reader asks for the list.
std::string SkippedRulesSummary(size_t skipped_count);

/// A headline value as people read it, in the unit its size calls for and three significant
/// digits: "23.1 Gbit/s", "55 µs" (0.055 ms), "1.57 GiB" (bytes), "549,316", "yes", or the text.
std::string ResultValueText(const ResultValue& value);
/// The label, or the key when the workflow gave none.
std::string ResultLabel(const ResultValue& value);
/// Whether a report shows its Result block: not when its tables or sections already carry
/// the same numbers (egress, plan, lint; the post-mortem), so nothing is said twice.
bool ShowsResultBlock(const Report& report);
/// Whether a report shows its Findings block: not for a command whose output is its tables
/// (egress, plan, a fleet's post-mortem) and that found nothing, since it has no rules to report
/// on; always when its findings are ranked (a post-mortem: "none" is an answer).
bool ShowsFindingsBlock(const Report& report);
/// Whether a section draws a bar chart of the command's own figures (a fleet's).
bool HasSectionCharts(const Report& report);
/// Whether the HTML page has anything to draw: a chart the report has (reports/report_charts.h)
/// or a section's bars. The terminal points at the charts only then.
bool HasDrawableParts(const Report& report);

/// The severities from most to least severe, for printing findings grouped by severity.
const std::vector<Severity>& SeveritiesMostSevereFirst();

}  // namespace feedcheck
