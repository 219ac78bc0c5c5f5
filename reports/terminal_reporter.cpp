#include "reports/terminal_reporter.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/units.h"
#include "reports/measurement_caveat.h"
#include "reports/report_text.h"
#include "reports/terminal_safe.h"
#include "reports/text_table.h"

namespace feedcheck {

namespace {

// SGR codes; Paint returns the text unchanged without colour.
constexpr const char* kBold = "1";
constexpr const char* kDim = "2";
constexpr const char* kRed = "1;31";
constexpr const char* kYellow = "1;33";
constexpr const char* kGreen = "1;32";
constexpr const char* kCyan = "36";

class Painter {
 public:
  explicit Painter(bool color) : color_(color) {}
  std::string operator()(const char* sgr, std::string_view text) const {
    if (!color_) return std::string(text);
    return fmt::format("\x1b[{}m{}\x1b[0m", sgr, text);
  }

 private:
  bool color_;
};

const char* SeverityColor(Severity s) {
  switch (s) {
    case Severity::kCritical:
      return kRed;
    case Severity::kWarning:
      return kYellow;
    case Severity::kInfo:
      return kCyan;
  }
  return kCyan;
}

const char* VerdictColor(VerdictLevel level) {
  switch (level) {
    case VerdictLevel::kGood:
      return kGreen;
    case VerdictLevel::kWarning:
      return kYellow;
    case VerdictLevel::kBad:
      return kRed;
    case VerdictLevel::kUnknown:
      return kBold;
  }
  return kBold;
}

std::string Upper(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return out;
}

// Indents every line of a multi-line text (config fragments, long messages).
void PrintIndented(std::ostream& out, std::string_view text, std::string_view indent) {
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    std::string_view line =
        text.substr(start, end == std::string_view::npos ? text.npos : end - start);
    if (end == std::string_view::npos && line.empty()) break;
    out << indent << line << "\n";
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
}

void PrintFactRows(std::ostream& out, const std::vector<const Fact*>& facts, const Painter& paint,
                   std::string_view indent) {
  size_t key_width = 0, value_width = 0;
  for (const Fact* f : facts) {
    key_width = std::max(key_width, f->key.size());
    value_width = std::max(value_width, FormatFactValue(*f).size());
  }
  for (const Fact* f : facts) {
    out << fmt::format("{}{:<{}}  {:<{}}  {}\n", indent, f->key, key_width, FormatFactValue(*f),
                       value_width, paint(kDim, ProvenanceText(f->provenance)));
  }
}

void PrintVerdict(const Report& r, std::ostream& out, const Painter& paint) {
  std::string title = r.title.empty() ? "Report" : r.title;
  out << paint(kBold, fmt::format("feedcheck {}", title));
  if (!r.context.target.empty()) out << paint(kDim, fmt::format("  ({})", r.context.target));
  out << "\n";
  if (!r.verdict.empty()) {
    out << "Verdict: " << paint(VerdictColor(r.verdict_level), Upper(r.verdict)) << "\n";
  }
  // A post-mortem leads with the GPU time lost, then why.
  if (!r.diagnosis.gpu.headline.empty())
    out << "  " << paint(kBold, r.diagnosis.gpu.headline) << "\n";
  if (!r.verdict_detail.empty()) PrintIndented(out, r.verdict_detail, "  ");
  MeasurementCaveat caveat = CaveatOf(r.evidence.facts);
  if (caveat.any()) out << "  " << paint(kYellow, "warning: ") << caveat.banner << "\n";
}

void PrintDiagnosis(const Report& r, std::ostream& out, const Painter& paint) {
  const DiagnosisSummary& d = r.diagnosis;
  if (!d.present) return;
  if (d.attributed_gpu_s >= 0 && d.gpu.known)
    out << "  "
        << fmt::format("GPU time attributed to the cause: {}", GpuTimeText(d.attributed_gpu_s))
        << "\n";
  if (!d.fix.empty()) PrintIndented(out, "Fix: " + d.fix, "  ");
  if (d.estimate.available) {
    out << "  " << paint(kBold, "What the fix buys (estimate): ") << d.estimate.text << "\n";
    for (const auto& a : d.estimate.assumptions)
      out << "    " << paint(kDim, "assumes: " + a) << "\n";
  } else if (!d.estimate.text.empty()) {
    // Why no figure: said plainly rather than left out.
    PrintIndented(out, "What the fix buys: " + d.estimate.text, "  ");
  }
  if (!d.nodes.empty()) {
    out << "\n" << paint(kBold, fmt::format("Nodes ({})", d.nodes.size())) << "\n";
    out << fmt::format("  {:<20} {:>14} {:>10} {:>16} {:>10}\n", "node", "download", "GPU busy",
                       "GPU time lost", "throttled");
    for (const auto& n : d.nodes) {
      out << fmt::format("  {:<20} {:>14} {:>10} {:>16} {:>10}{}\n", n.node,
                         n.download_s >= 0 ? FormatSeconds(n.download_s) : "-",
                         n.gpu_util_mean >= 0 ? fmt::format("{:.0f}%", n.gpu_util_mean) : "-",
                         n.gpu_lost_gpu_s >= 0 ? GpuTimeText(n.gpu_lost_gpu_s) : "-",
                         n.throttled >= 0 ? fmt::format("{:.0f}", n.throttled) : "-",
                         n.straggler ? paint(kYellow, "  <- straggler") : "");
    }
    if (!d.straggler.empty()) out << "  straggler: " << d.straggler << "\n";
    for (const auto& n : d.not_storage_nodes) out << "  not storage: " << n << "\n";
  }
}

void PrintFinding(const Finding& f, std::ostream& out, const Painter& paint,
                  const MeasurementCaveat& caveat) {
  out << "\n  "
      << paint(SeverityColor(f.severity), fmt::format("{:<8}", Upper(SeverityName(f.severity))))
      << " " << paint(kBold, f.title) << paint(kDim, fmt::format("  [{}]", f.rule_id)) << "\n";
  if (f.secondary && !f.secondary_note.empty())
    PrintIndented(out, paint(kDim, "secondary: " + f.secondary_note), "           ");
  else if (!f.impact.empty())
    out << "           " << paint(kBold, "cost: " + f.impact) << "\n";
  if (std::string note = FindingCaveat(f, caveat); !note.empty())
    out << "           " << paint(kYellow, note) << "\n";
  if (!f.message.empty()) PrintIndented(out, f.message, "           ");
  if (f.excess)
    out << "           "
        << fmt::format("{:.3g}x its limit{}\n", *f.excess,
                       f.escalated ? ": raised to critical, far over a hard limit" : "");
  if (!f.evidence.empty()) {
    out << "           evidence:\n";
    std::vector<const Fact*> facts;
    for (const auto& e : f.evidence) facts.push_back(&e);
    PrintFactRows(out, facts, paint, "             ");
  }
  for (const auto& e : f.env) out << "           set: " << e.name << "=" << e.value << "\n";
  for (const auto& c : f.config) {
    out << "           " << c.kind << ":\n";
    PrintIndented(out, c.text, "             ");
  }
  std::string where = RuleLocation(f);
  if (!f.source.empty() || !where.empty()) {
    std::string line = f.source.empty() ? "" : "source: " + f.source;
    if (!where.empty()) line += (line.empty() ? "" : "  ") + std::string("rule: ") + where;
    out << "           " << paint(kDim, line) << "\n";
  }
}

// The command's headline numbers, aligned, right under the verdict: what a probe measured.
void PrintResult(const Report& r, std::ostream& out, const Painter& paint) {
  if (!ShowsResultBlock(r)) return;
  out << "\n" << paint(kBold, "Result") << "\n";
  TextTable table;
  for (const auto& v : r.result) table.AddRow({ResultLabel(v), ResultValueText(v)});
  out << table.Render();
}

// Long cells (lint's problem and change texts) wrap inside their column at this width, so a
// table stays readable on a 120-column terminal.
constexpr size_t kTableCellChars = 48;

void PrintTables(const Report& r, std::ostream& out, const Painter& paint, bool verbose) {
  for (const auto& t : r.tables) {
    if (t.folded && !verbose) {
      out << "\n"
          << paint(kDim,
                   fmt::format("{}: {} {}; -v lists them", t.title.empty() ? "Table" : t.title,
                               t.rows.size(), t.rows.size() == 1 ? "row" : "rows"))
          << "\n";
      continue;
    }
    if (!t.title.empty()) out << "\n" << paint(kBold, t.title) << "\n";
    bool header = false;
    for (const auto& c : t.columns) header = header || !c.label.empty();
    std::vector<std::string> labels;
    if (header)
      for (const auto& c : t.columns) labels.push_back(c.label);
    TextTable table(labels);
    table.WrapCellsAt(kTableCellChars);
    for (size_t c = 0; c < t.columns.size(); ++c)
      if (t.columns[c].numeric) table.AlignRight(c);
    for (const auto& row : t.rows) {
      std::vector<std::string> cells;
      for (const auto& cell : row) cells.push_back(cell.text);
      table.AddRow(std::move(cells));
    }
    out << table.Render();
    for (const auto& n : t.notes) PrintIndented(out, n, "  ");
  }
}

void PrintFindings(const Report& r, std::ostream& out, const Painter& paint) {
  // A command whose output is its tables (egress, plan) has no rules to report on.
  if (r.findings.empty() && !r.tables.empty()) return;
  out << "\n" << paint(kBold, "Findings") << "\n";
  MeasurementCaveat caveat = CaveatOf(r.evidence.facts);
  if (r.findings.empty()) {
    out << "  none\n";
    return;
  }
  if (r.diagnosis.present) {
    // A post-mortem ordered them by the GPU time they cost; the secondary ones come last.
    bool secondary_heading = false;
    for (const auto& f : r.findings) {
      if (f.secondary && !secondary_heading) {
        out << "\n" << paint(kBold, "Secondary (not what cost this job its GPU time)") << "\n";
        secondary_heading = true;
      }
      PrintFinding(f, out, paint, caveat);
    }
    return;
  }
  for (Severity s : SeveritiesMostSevereFirst())
    for (const auto& f : r.findings)
      if (f.severity == s) PrintFinding(f, out, paint, caveat);
}

void PrintSettings(const Report& r, std::ostream& out, const Painter& paint) {
  if (r.env.empty() && r.config.empty()) return;
  out << "\n" << paint(kBold, "Settings to paste") << "\n";
  for (const auto& e : r.env) out << "  " << e.name << "=" << e.value << "\n";
  for (const auto& c : r.config) {
    out << "  " << paint(kDim, "# " + c.kind) << "\n";
    PrintIndented(out, c.text, "  ");
  }
}

void PrintSkipped(const Report& r, std::ostream& out, const Painter& paint, bool verbose) {
  if (r.skipped.empty()) return;
  if (!verbose) {
    // The list is long (one line per rule) and rarely what the reader came for.
    out << "\n" << paint(kDim, SkippedRulesSummary(r.skipped.size()) + "; -v lists them") << "\n";
    return;
  }
  out << "\n" << paint(kBold, "Not evaluated (facts missing)") << "\n";
  for (const auto& s : r.skipped) {
    std::string missing;
    for (const auto& m : s.missing_facts) missing += (missing.empty() ? "" : ", ") + m;
    out << fmt::format("  {}  {}\n", s.rule_id, paint(kDim, "missing " + missing));
  }
}

void PrintFacts(const Report& r, std::ostream& out, const Painter& paint, bool verbose) {
  if (r.evidence.facts.empty()) return;
  // A command whose answer is its tables (egress, plan) already shows each figure with its
  // formula and sources; the facts behind them are one -v away.
  if (!r.tables.empty() && !verbose) {
    out << "\n"
        << paint(kDim, fmt::format("{} facts behind these figures; -v lists them",
                                   r.evidence.facts.size()))
        << "\n";
    return;
  }
  out << "\n" << paint(kBold, "Key facts") << "\n";
  for (const auto& [prefix, facts] : FactsByPrefix(r.evidence.facts)) {
    out << "  " << paint(kBold, prefix) << "\n";
    PrintFactRows(out, facts, paint, "    ");
  }
}

void PrintDiagnostics(const Report& r, std::ostream& out, const Painter& paint) {
  const DiagnosticList& d = r.evidence.diagnostics;
  if (d.total() == 0) return;
  out << "\n"
      << paint(kBold, fmt::format("Diagnostics: {} ({} errors)", d.total(), d.errors())) << "\n";
  for (const auto& diag : d.kept()) PrintIndented(out, FormatDiagnostic(diag), "  ");
  if (d.dropped() > 0) out << fmt::format("  ... and {} more not kept\n", d.dropped());
}

void PrintContext(const Report& r, std::ostream& out, const Painter& paint) {
  const RunContext& c = r.context;
  out << "\n"
      << paint(kDim, fmt::format("feedcheck {} {} on {} at {} ({} build)", c.tool_version,
                                 c.command, c.host, c.started_at_utc, c.build_type))
      << "\n";
  if (!c.target.empty()) out << paint(kDim, "target: " + c.target) << "\n";
  for (const auto& w : c.warnings) out << paint(kYellow, "warning: ") << w << "\n";
}

}  // namespace

void TerminalReporter::Render(const Report& unsafe_report, std::ostream& out) const {
  // Server text (error codes, blob names) and input files can carry escape sequences.
  const Report report = TerminalSafeCopy(unsafe_report);
  Painter paint(color_);
  PrintVerdict(report, out, paint);
  PrintDiagnosis(report, out, paint);
  PrintResult(report, out, paint);
  PrintTables(report, out, paint, verbose_);
  PrintFindings(report, out, paint);
  PrintSettings(report, out, paint);
  PrintFacts(report, out, paint, verbose_);
  PrintSkipped(report, out, paint, verbose_);
  PrintDiagnostics(report, out, paint);
  PrintContext(report, out, paint);
}

}  // namespace feedcheck
