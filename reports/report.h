// The one result model every reporter renders. Reporters format; they never compute: every
// number a report shows is in here already.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/diagnosis_summary.h"
#include "core/evidence.h"
#include "core/finding.h"
#include "core/run_context.h"
#include "core/verdict_level.h"
#include "reports/fleet_summary.h"

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
};

/// One cell: the text every reporter shows, and the number behind it when there is one (the
/// JSON row carries the number, so a script need not parse "24 Gbit/s").
struct TableCell {
  std::string text;
  std::optional<double> value;
};

/// A titled table of a command's output (egress by VM size, plan's costs, the rules and facts
/// lists, lint's problems), formatted by the command; reporters lay it out.
struct ReportTable {
  std::string title;
  std::vector<TableColumn> columns;
  std::vector<std::vector<TableCell>> rows;
  std::vector<std::string> notes;  ///< lines shown under the table ("Note: assumed ...")
  /// Detail people rarely need on a terminal (each rule's source, the facts that did not
  /// change): the terminal shows one line counting its rows unless -v; other formats show it.
  bool folded = false;
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
  Evidence evidence;
  std::vector<Finding> findings;       ///< ordered by severity, most severe first
  std::vector<SkippedRule> skipped;    ///< rules not evaluated for missing facts
  std::vector<EnvSetting> env;         ///< merged settings to paste
  std::vector<ConfigFragment> config;  ///< merged config fragments (BlobFuse2)
  DiagnosisSummary diagnosis;          ///< post-mortem only: GPU time lost, cause, confidence
  FleetSummary fleet;                  ///< post-mortem of a folder of jobs only: one row per job
  std::vector<ResultValue> result;     ///< the command's headline numbers, in display order
  /// the command's tables, in display order. A table whose columns include `file`, `line`,
  /// `severity`, `code` and `message` lists problems located in files (lint's): SARIF makes each
  /// row a result (with `change` and `rule_id` when the table has them).
  std::vector<ReportTable> tables;
  ReportCodes codes;  ///< the codes the located problems can carry, described
  /// False for the report of a run that stopped before its result: only the diagnostics that
  /// stopped it (SARIF says the run did not succeed; JSON has `result.error`).
  bool complete = true;
  /// How many of the last kept `evidence.diagnostics` are the run's own (a bad flag, a file not
  /// read): printed on stderr by the run's terminal output, saved with the other formats, and
  /// printed on stderr again when `feedcheck report` renders the saved result.
  size_t run_diagnostics = 0;
};

}  // namespace feedcheck
