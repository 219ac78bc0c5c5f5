// The one result model every reporter renders. Reporters format; they never compute: every
// number a report shows is in here already.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "core/evidence.h"
#include "core/finding.h"
#include "core/run_context.h"
#include "core/verdict_level.h"

namespace feedcheck {

inline constexpr int kReportSchemaVersion = 1;

/// One headline number of a command's result: the "result" object of its JSON (where fio and
/// elbencho users look first), the "Result" block of the terminal and Markdown reports. The key
/// carries the unit ("peak_gbps", "p99_ms"); `unit` is the display unit, "" for counts and text.
struct ResultValue {
  std::string key;
  std::variant<double, std::string, bool> value;
  std::string unit;
  std::string label;  ///< "Peak throughput"; the key when empty
};

/// One column of a ReportTable: `key` names it in the JSON rows, `label` heads it for people
/// ("" everywhere: the table has no header line); numeric columns are right-aligned.
struct TableColumn {
  std::string key;
  std::string label;
  bool numeric = false;
  /// Long text the terminal shows only with -v (a job's fix and what it buys); every other
  /// format always shows it.
  bool detail = false;
  /// Names the terminal may shorten in the middle ("nvidia-smi-loc…small-files") so the row
  /// fits its width rather than wrapping the other columns.
  bool shortenable = false;
};

/// One cell: the text every reporter shows, and the number behind it when there is one (the
/// JSON row carries the number, so a script need not parse "24 Gbit/s").
struct TableCell {
  std::string text;
  std::optional<double> value;
};

/// A cell of text with no number behind it.
inline TableCell TextCell(std::string text) { return {std::move(text), std::nullopt}; }
/// A count: its digits, and the count.
inline TableCell CountCell(uint64_t n) { return {std::to_string(n), static_cast<double>(n)}; }

/// A titled table of a command's output (egress by VM size, plan's costs, the rules and facts
/// lists, lint's problems), formatted by the command; reporters lay it out.
struct ReportTable {
  std::string title;
  std::vector<TableColumn> columns;
  std::vector<std::vector<TableCell>> rows;
  std::vector<std::string> notes;  ///< lines shown under the table ("Note: assumed ...")
  /// A shorter form of notes[i] for a terminal that must say less (a price's source by its
  /// title, ending in what -v adds); "" or past the end: notes[i] has none. Set by the command;
  /// every other format, and -v, shows the notes whole.
  std::vector<std::string> note_briefs;
  /// Detail people rarely need on a terminal (each rule's source, the facts that did not
  /// change): the terminal shows one line counting its rows unless -v; other formats show it.
  bool folded = false;
  /// People may sort it by a column (the HTML page's arrows in the headings, without script):
  /// `sort_ranks[c][r]` is row r's place when sorted by column c, smallest first, unknown last;
  /// empty for a column not sortable. Set by the command, so no reporter sorts.
  bool sortable = false;
  std::vector<std::vector<int>> sort_ranks;
  /// Each row's standing (a fleet job's verdict), which HTML marks with a coloured left edge;
  /// empty for a table whose rows have none. Set by the command, like the ranks.
  std::vector<VerdictLevel> row_levels;
};

/// One bar of a ReportBarChart: what it stands for, its length (one unit for every bar of the
/// chart) and the figures shown beside it ("13.4 GPU-h · 1 job").
struct ReportBar {
  std::string label;
  double value = 0;
  std::string text;
};

/// A bar chart of a command's own figures (the fleet's GPU-hours lost by cause), for the formats
/// that draw (HTML); the others show the same figures in a table of the same section.
struct ReportBarChart {
  std::string title;
  std::string caption;  ///< what the bars measure, under the chart
  std::vector<ReportBar> bars;
};

/// A chart of the evidence the HTML page draws: the GPU timeline, a finding's demand against its
/// limit, a probe's curve.
enum class EvidenceChart { kTimeline, kGauge, kThroughput, kLatency, kSmallFiles, kRamp, kListing };

struct ReportChart {
  EvidenceChart kind = EvidenceChart::kTimeline;
  size_t finding = 0;  ///< kGauge: the index in `Report::findings` of the finding it weighs
};

/// Which evidence charts a report has, decided with the report (reports/report_charts.h), never by
/// a reporter: only charts with something to draw, no comparison whose bars say nothing (a demand
/// equal to its limit), and one line naming the inputs that would have drawn more.
struct ReportCharts {
  bool decided = false;             ///< false: not decided yet (the app decides before rendering)
  std::vector<ReportChart> charts;  ///< in the order the page shows them
  /// "No GPU utilisation panel: no GPU samples were read (...)", or "" when nothing helps to say.
  std::string missing;
};

/// One line of a ReportSection: "Fix: ..." (label, then text), or a sentence of its own when
/// the label is "". `details` go under it (the assumptions behind an estimate): the terminal
/// folds them unless -v; other formats always show them.
struct SectionLine {
  std::string label;
  std::string text;
  std::vector<std::string> details;
};

/// A titled part of a command's result beside its tables: lines of label and text, then
/// tables with their notes (the post-mortem's "GPU time and cause": what the cause cost, the
/// fix, what it buys, the nodes). `json` is the same part for scripts, a JSON object's text:
/// the JSON report writes it under `key` ("diagnosis") and a saved report reads it back there.
/// Reporters lay out the lines, charts and tables; none reads `json`. A section without `json`
/// is not saved: its command lays it out again from another's (the fleet's "How it was read").
struct ReportSection {
  std::string key;
  std::string title;
  std::vector<SectionLine> lines;
  std::vector<ReportBarChart> charts;  ///< drawn between the lines and the tables
  std::vector<ReportTable> tables;
  std::string json;
};

/// One code a report's problems can carry, described for formats that list the codes before the
/// problems (SARIF's rules): its stable name, a one-line summary, what to do and the usual level
/// ("error", "warning" or "note").
struct ReportCode {
  std::string code;
  std::string name;
  std::string summary;
  std::string help;
  std::string level;
};

/// The codes a command can report with the public page their advice rests on; filled by the
/// command (lint, from the diagnostic code registry), empty for most.
struct ReportCodes {
  std::string uri;
  std::vector<ReportCode> codes;
};

struct Report {
  RunContext context;
  std::string title;    ///< "Pre-flight check", "Post-mortem", "Advice"
  std::string verdict;  ///< "ready" | "at risk" | "will starve the GPUs" | bottleneck; "" for none
  VerdictLevel verdict_level = VerdictLevel::kUnknown;
  std::string verdict_detail;  ///< one or two sentences with the deciding evidence
  /// What the verdict cost, in one sentence every format shows in bold right under the verdict
  /// ("GPUs idle 13 min 32 s of 61 min (22%), 108 GPU-minutes: ..."); "" for none.
  std::string headline;
  Evidence evidence;
  std::vector<Finding> findings;  ///< ordered by severity, most severe first
  /// The findings come in the order to show them (the post-mortem's: by the GPU time each cost,
  /// secondary ones last), not grouped by severity; the Findings block shows even when empty.
  bool findings_ranked = false;
  std::vector<SkippedRule> skipped;     ///< rules not evaluated for missing facts
  std::vector<EnvSetting> env;          ///< merged settings to paste
  std::vector<ConfigFragment> config;   ///< merged config fragments (BlobFuse2)
  std::vector<ReportSection> sections;  ///< shown after the verdict, before the result
  std::vector<ResultValue> result;      ///< the command's headline numbers, in display order
  /// the command's tables, in display order. A table whose columns include `file`, `line`,
  /// `severity`, `code` and `message` lists problems located in files (lint's): SARIF makes each
  /// row a result (with `change` and `rule_id` when the table has them).
  std::vector<ReportTable> tables;
  ReportCodes codes;  ///< the codes the located problems can carry, described
  /// The evidence charts the HTML page draws; decided from the evidence and the findings before
  /// rendering (`DecideCharts`), not saved: a saved report read back decides them again.
  ReportCharts charts;
  /// False for the report of a run that stopped before its result: only the diagnostics that
  /// stopped it (SARIF says the run did not succeed; JSON has `result.error`).
  bool complete = true;
  /// How many of the last kept `evidence.diagnostics` are the run's own (a bad flag, a file not
  /// read): printed on stderr by the run's terminal output, saved with the other formats, and
  /// printed on stderr again when `feedcheck report` renders the saved result.
  size_t run_diagnostics = 0;
};

}  // namespace feedcheck
