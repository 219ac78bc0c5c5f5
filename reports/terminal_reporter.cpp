#include "reports/terminal_reporter.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/units.h"
#include "reports/measurement_caveat.h"
#include "reports/report_text.h"
#include "reports/terminal_safe.h"
#include "reports/text_table.h"
#include "reports/text_wrap.h"

namespace feedcheck {

namespace {

// SGR codes; Paint returns the text unchanged without colour.
constexpr const char* kBold = "1";
constexpr const char* kDim = "2";
constexpr const char* kRed = "1;31";
constexpr const char* kYellow = "1;33";
constexpr const char* kGreen = "1;32";
constexpr const char* kCyan = "36";

// How many of a long list the default output shows before "N more; -v lists them".
constexpr size_t kFindingsShown = 3;
constexpr size_t kNodesShown = 8;
constexpr size_t kDiagnosticsShown = 3;

// Colour, the width lines wrap to, and whether everything is listed (-v).
class Painter {
 public:
  Painter(bool color, size_t width, bool verbose)
      : color_(color), width_(width), verbose_(verbose) {}
  std::string operator()(const char* sgr, std::string_view text) const {
    if (!color_ || sgr == nullptr) return std::string(text);
    return fmt::format("\x1b[{}m{}\x1b[0m", sgr, text);
  }
  size_t width() const { return width_; }
  bool verbose() const { return verbose_; }

 private:
  bool color_;
  size_t width_;
  bool verbose_;
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

// Calls `each` with every line of a multi-line text (no newlines; a final newline ends the
// last line rather than starting an empty one).
template <typename Each>
void ForEachLine(std::string_view text, Each each) {
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    std::string_view line =
        text.substr(start, end == std::string_view::npos ? text.npos : end - start);
    if (end == std::string_view::npos && line.empty()) break;
    each(line);
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
}

// Indents every line of a multi-line text as it is (config fragments: never re-flowed).
void PrintIndented(std::ostream& out, std::string_view text, std::string_view indent) {
  ForEachLine(text, [&](std::string_view line) { out << indent << line << "\n"; });
}

// Prose: each line of `text` after `indent`, wrapped to the width at spaces, continuation
// lines indented alike; `sgr` paints each physical line.
void PrintWrapped(std::ostream& out, std::string_view text, std::string_view indent,
                  const Painter& paint, const char* sgr = nullptr) {
  ForEachLine(text, [&](std::string_view line) {
    std::vector<std::string> pieces =
        WrapText(line, paint.width(), DisplayWidth(indent), std::string(indent));
    for (size_t i = 0; i < pieces.size(); ++i) {
      std::string_view body = pieces[i];
      if (i > 0) body.remove_prefix(indent.size());
      out << indent << paint(sgr, body) << "\n";
    }
  });
}

// Key, value and provenance aligned; a provenance that does not fit goes on under its column
// (or, when the key and value leave it too little room, on the next lines, indented).
void PrintFactRows(std::ostream& out, const std::vector<const Fact*>& facts, const Painter& paint,
                   std::string_view indent) {
  size_t key_width = 0, value_width = 0;
  for (const Fact* f : facts) {
    key_width = std::max(key_width, DisplayWidth(f->key));
    value_width = std::max(value_width, DisplayWidth(FormatFactValue(*f)));
  }
  const size_t column = DisplayWidth(indent) + key_width + 2 + value_width + 2;
  const bool beside = column + 30 <= paint.width();
  const std::string under(beside ? column : DisplayWidth(indent) + 4, ' ');
  for (const Fact* f : facts) {
    const std::string value = FormatFactValue(*f);
    std::string head = fmt::format("{}{}{}  {}{}", indent, f->key,
                                   std::string(key_width - DisplayWidth(f->key), ' '), value,
                                   std::string(value_width - DisplayWidth(value), ' '));
    const std::string source = ProvenanceText(f->provenance);
    if (!beside) {
      while (!head.empty() && head.back() == ' ') head.pop_back();
      out << head << "\n";
      PrintWrapped(out, source, under, paint, kDim);
      continue;
    }
    std::vector<std::string> pieces = WrapText(source, paint.width(), column, under);
    out << head << "  " << paint(kDim, pieces.front()) << "\n";
    for (size_t i = 1; i < pieces.size(); ++i)
      out << under << paint(kDim, std::string_view(pieces[i]).substr(under.size())) << "\n";
  }
}

void PrintVerdictLine(const Report& r, std::ostream& out, const Painter& paint) {
  out << "Verdict: " << paint(VerdictColor(r.verdict_level), Upper(r.verdict)) << "\n";
}

void PrintVerdict(const Report& r, std::ostream& out, const Painter& paint) {
  const std::string title = fmt::format("feedcheck {}", r.title.empty() ? "Report" : r.title);
  out << paint(kBold, title);
  if (!r.context.target.empty()) {
    const std::string target = fmt::format("({})", r.context.target);
    // The target on the title's line when both fit, else on its own.
    const bool beside = DisplayWidth(title) + 2 + DisplayWidth(target) <= paint.width();
    out << (beside ? "  " : "\n  ") << paint(kDim, target);
  }
  out << "\n";
  if (!r.verdict.empty()) PrintVerdictLine(r, out, paint);
  // A post-mortem leads with the GPU time lost, then why.
  if (!r.diagnosis.gpu.headline.empty())
    PrintWrapped(out, r.diagnosis.gpu.headline, "  ", paint, kBold);
  if (!r.verdict_detail.empty()) PrintWrapped(out, r.verdict_detail, "  ", paint);
  MeasurementCaveat caveat = CaveatOf(r.evidence.facts);
  if (caveat.any()) PrintWrapped(out, "warning: " + caveat.banner, "  ", paint, kYellow);
}

// "... 12 more nodes; -v lists them": what a folded list leaves out.
void PrintMore(std::ostream& out, size_t more, std::string_view what, std::string_view indent,
               const Painter& paint) {
  if (more == 0) return;
  PrintWrapped(out, fmt::format("... {} more {}; -v lists them", more, what), indent, paint, kDim);
}

void PrintDiagnosis(const Report& r, std::ostream& out, const Painter& paint) {
  const DiagnosisSummary& d = r.diagnosis;
  if (!d.present) return;
  if (d.attributed_gpu_s >= 0 && d.gpu.known)
    PrintWrapped(
        out, fmt::format("GPU time attributed to the cause: {}", GpuTimeText(d.attributed_gpu_s)),
        "  ", paint);
  if (!d.fix.empty()) PrintWrapped(out, "Fix: " + d.fix, "  ", paint);
  if (d.estimate.available) {
    PrintWrapped(out, "What the fix buys (estimate): " + d.estimate.text, "  ", paint);
    for (const auto& a : d.estimate.assumptions)
      PrintWrapped(out, "assumes: " + a, "    ", paint, kDim);
  } else if (!d.estimate.text.empty()) {
    // Why no figure: said plainly rather than left out.
    PrintWrapped(out, "What the fix buys: " + d.estimate.text, "  ", paint);
  }
  if (!d.nodes.empty()) {
    out << "\n" << paint(kBold, fmt::format("Nodes ({})", d.nodes.size())) << "\n";
    TextTable table({"node", "download", "GPU busy", "GPU time lost", "throttled", ""});
    for (size_t c = 1; c <= 4; ++c) table.AlignRight(c);
    table.FitTo(paint.width());
    // The straggler is always shown; the others up to the limit.
    size_t shown = 0;
    for (const auto& n : d.nodes) {
      if (!paint.verbose() && shown >= kNodesShown && !n.straggler) continue;
      ++shown;
      table.AddRow({n.node, n.download_s >= 0 ? FormatSeconds(n.download_s) : "-",
                    n.gpu_util_mean >= 0 ? fmt::format("{:.0f}%", n.gpu_util_mean) : "-",
                    n.gpu_lost_gpu_s >= 0 ? GpuTimeText(n.gpu_lost_gpu_s) : "-",
                    n.throttled >= 0 ? fmt::format("{:.0f}", n.throttled) : "-",
                    n.straggler ? "<- straggler" : ""});
    }
    out << table.Render();
    PrintMore(out, d.nodes.size() - shown, "nodes", "  ", paint);
    if (!d.straggler.empty()) PrintWrapped(out, "straggler: " + d.straggler, "  ", paint);
    for (const auto& n : d.not_storage_nodes) PrintWrapped(out, "not storage: " + n, "  ", paint);
  }
}

// One finding: by default its title, cost, message and settings (the message left out when the
// post-mortem's fix above already says it); with -v its evidence, source and rule too.
void PrintFinding(const Finding& f, std::ostream& out, const Painter& paint,
                  const MeasurementCaveat& caveat, std::string_view said_above) {
  constexpr std::string_view kIn = "           ";
  out << "\n  "
      << paint(SeverityColor(f.severity), fmt::format("{:<8}", Upper(SeverityName(f.severity))))
      << " ";
  // The title wraps under itself; the rule id follows it.
  std::vector<std::string> title =
      WrapText(f.title + "  [" + f.rule_id + "]", paint.width(), kIn.size(), std::string(kIn));
  for (size_t i = 0; i < title.size(); ++i) {
    std::string_view line = title[i];
    if (i > 0) {
      line.remove_prefix(kIn.size());
      out << kIn;
    }
    out << paint(kBold, line) << "\n";
  }
  if (f.secondary && !f.secondary_note.empty())
    PrintWrapped(out, "secondary: " + f.secondary_note, kIn, paint, kDim);
  else if (!f.impact.empty())
    PrintWrapped(out, "cost: " + f.impact, kIn, paint, kBold);
  if (std::string note = FindingCaveat(f, caveat); !note.empty())
    PrintWrapped(out, note, kIn, paint, kYellow);
  if (!f.message.empty() && (paint.verbose() || f.message != said_above))
    PrintWrapped(out, f.message, kIn, paint);
  if (f.excess)
    PrintWrapped(out,
                 fmt::format("{:.3g}x its limit{}", *f.excess,
                             f.escalated ? ": raised to critical, far over a hard limit" : ""),
                 kIn, paint);
  if (!f.evidence.empty() && paint.verbose()) {
    out << kIn << "evidence:\n";
    std::vector<const Fact*> facts;
    for (const auto& e : f.evidence) facts.push_back(&e);
    PrintFactRows(out, facts, paint, "             ");
  }
  for (const auto& e : f.env) out << kIn << "set: " << e.name << "=" << e.value << "\n";
  for (const auto& c : f.config) {
    out << kIn << c.kind << ":\n";
    PrintIndented(out, c.text, "             ");
  }
  std::string where = RuleLocation(f);
  if (paint.verbose() && (!f.source.empty() || !where.empty())) {
    std::string line = f.source.empty() ? "" : "source: " + f.source;
    if (!where.empty()) line += (line.empty() ? "" : "  ") + std::string("rule: ") + where;
    PrintWrapped(out, line, kIn, paint, kDim);
  }
}

// The command's headline numbers, aligned, right under the verdict: what a probe measured.
void PrintResult(const Report& r, std::ostream& out, const Painter& paint) {
  if (!ShowsResultBlock(r)) return;
  out << "\n" << paint(kBold, "Result") << "\n";
  TextTable table;
  table.FitTo(paint.width());
  for (const auto& v : r.result) table.AddRow({ResultLabel(v), ResultValueText(v)});
  out << table.Render();
}

// Long cells (lint's problem and change texts) wrap inside their column at this width, so a
// table stays readable; the widest columns narrow further until a row fits the terminal.
constexpr size_t kTableCellChars = 48;

void PrintTables(const Report& r, std::ostream& out, const Painter& paint) {
  for (const auto& t : r.tables) {
    if (t.folded && !paint.verbose()) {
      out << "\n"
          << paint(kDim,
                   fmt::format("{}: {} {}; -v lists them", t.title.empty() ? "Table" : t.title,
                               t.rows.size(), t.rows.size() == 1 ? "row" : "rows"))
          << "\n";
      continue;
    }
    if (!t.title.empty()) {
      out << "\n";
      PrintWrapped(out, t.title, "", paint, kBold);
    }
    bool header = false;
    for (const auto& c : t.columns) header = header || !c.label.empty();
    std::vector<std::string> labels;
    if (header)
      for (const auto& c : t.columns) labels.push_back(c.label);
    TextTable table(labels);
    table.WrapCellsAt(kTableCellChars);
    table.FitTo(paint.width());
    for (size_t c = 0; c < t.columns.size(); ++c)
      if (t.columns[c].numeric) table.AlignRight(c);
    for (const auto& row : t.rows) {
      std::vector<std::string> cells;
      for (const auto& cell : row) cells.push_back(cell.text);
      table.AddRow(std::move(cells));
    }
    out << table.Render();
    for (const auto& n : t.notes) PrintWrapped(out, n, "  ", paint);
  }
}

void PrintFindings(const Report& r, std::ostream& out, const Painter& paint) {
  // A command whose output is its tables (egress, plan) has no rules to report on.
  if (r.findings.empty() && !r.tables.empty() && !r.diagnosis.present) return;
  out << "\n" << paint(kBold, "Findings") << "\n";
  MeasurementCaveat caveat = CaveatOf(r.evidence.facts);
  if (r.findings.empty()) {
    out << "  none\n";
    return;
  }
  // A post-mortem ordered them by the GPU time they cost, the secondary ones last; the others
  // go by severity.
  std::vector<const Finding*> order;
  if (r.diagnosis.present) {
    for (const auto& f : r.findings) order.push_back(&f);
  } else {
    for (Severity s : SeveritiesMostSevereFirst())
      for (const auto& f : r.findings)
        if (f.severity == s) order.push_back(&f);
  }
  size_t shown = 0, more = 0, secondary = 0;
  bool secondary_heading = false;
  for (const Finding* f : order) {
    if (f->secondary && !paint.verbose()) {
      ++secondary;
      continue;
    }
    if (!paint.verbose() && shown >= kFindingsShown) {
      ++more;
      continue;
    }
    if (f->secondary && !secondary_heading) {
      out << "\n" << paint(kBold, "Secondary (not what cost this job its GPU time)") << "\n";
      secondary_heading = true;
    }
    PrintFinding(*f, out, paint, caveat, r.diagnosis.fix);
    ++shown;
  }
  PrintMore(out, more, more == 1 ? "finding" : "findings", "  ", paint);
  if (secondary > 0)
    PrintWrapped(out,
                 fmt::format("{} secondary {} (not what cost this job its GPU time); -v lists them",
                             secondary, secondary == 1 ? "finding" : "findings"),
                 "  ", paint, kDim);
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

void PrintSkipped(const Report& r, std::ostream& out, const Painter& paint) {
  if (r.skipped.empty()) return;
  out << "\n" << paint(kBold, "Not evaluated (facts missing)") << "\n";
  for (const auto& s : r.skipped) {
    std::string missing;
    for (const auto& m : s.missing_facts) missing += (missing.empty() ? "" : ", ") + m;
    PrintWrapped(out, s.rule_id + "  missing " + missing, "  ", paint);
  }
}

void PrintFacts(const Report& r, std::ostream& out, const Painter& paint) {
  if (r.evidence.facts.empty()) return;
  out << "\n" << paint(kBold, "Key facts") << "\n";
  for (const auto& [prefix, facts] : FactsByPrefix(r.evidence.facts)) {
    out << "  " << paint(kBold, prefix) << "\n";
    PrintFactRows(out, facts, paint, "    ");
  }
}

// By default one line stands for the lists a reader rarely came for: the facts (also in JSON
// and HTML), the rules not evaluated and the diagnostics about the inputs.
void PrintFolded(const Report& r, std::ostream& out, const Painter& paint) {
  std::vector<std::string> parts;
  if (!r.evidence.facts.empty())
    parts.push_back(fmt::format("{} facts behind {}", r.evidence.facts.size(),
                                !r.tables.empty() ? "these figures" : "this report"));
  if (!r.skipped.empty()) parts.push_back(SkippedRulesSummary(r.skipped.size()));
  const DiagnosticList& d = r.evidence.diagnostics;
  if (d.total() > 0)
    parts.push_back(fmt::format("{} {} about the inputs ({} {})", d.total(),
                                d.total() == 1 ? "diagnostic" : "diagnostics", d.errors(),
                                d.errors() == 1 ? "error" : "errors"));
  if (parts.empty()) return;
  // Warnings and errors about the inputs (metrics of another account, a cut file) change how
  // far the answer can be trusted: the first few are shown.
  size_t shown = 0;
  for (const auto& diag : d.kept()) {
    if (diag.severity == DiagnosticSeverity::kNote || shown == kDiagnosticsShown) continue;
    if (shown++ == 0) out << "\n";
    PrintWrapped(out, FormatDiagnostic(diag), "", paint);
  }
  std::string line;
  for (size_t i = 0; i < parts.size(); ++i)
    line += (i == 0 ? "" : i + 1 == parts.size() ? "; " : "; ") + parts[i];
  out << "\n";
  PrintWrapped(out, line + "; -v lists them", "", paint, kDim);
}

void PrintDiagnostics(const Report& r, std::ostream& out, const Painter& paint) {
  const DiagnosticList& d = r.evidence.diagnostics;
  if (d.total() == 0) return;
  out << "\n"
      << paint(kBold, fmt::format("Diagnostics: {} ({} errors)", d.total(), d.errors())) << "\n";
  for (const auto& diag : d.kept()) PrintWrapped(out, FormatDiagnostic(diag), "  ", paint);
  if (d.dropped() > 0) out << fmt::format("  ... and {} more not kept\n", d.dropped());
}

void PrintContext(const Report& r, std::ostream& out, const Painter& paint) {
  const RunContext& c = r.context;
  out << "\n";
  PrintWrapped(out,
               fmt::format("feedcheck {} {} on {} at {} ({} build)", c.tool_version, c.command,
                           c.host, c.started_at_utc, c.build_type),
               "", paint, kDim);
  if (!c.target.empty() && paint.verbose())
    PrintWrapped(out, "target: " + c.target, "", paint, kDim);
  for (const auto& w : c.warnings) PrintWrapped(out, "warning: " + w, "", paint, kYellow);
}

// The last word: the verdict again, and where the rest is.
void PrintClosing(const Report& r, std::ostream& out, const Painter& paint) {
  if (r.verdict.empty()) return;
  PrintVerdictLine(r, out, paint);
  if (!paint.verbose())
    PrintWrapped(out, "-v: every finding, fact and rule; -f html -o report.html: the charts", "  ",
                 paint, kDim);
}

}  // namespace

void TerminalReporter::Render(const Report& unsafe_report, std::ostream& out) const {
  // Server text (error codes, blob names) and input files can carry escape sequences.
  const Report report = TerminalSafeCopy(unsafe_report);
  Painter paint(color_, width_, verbose_);
  PrintVerdict(report, out, paint);
  PrintDiagnosis(report, out, paint);
  PrintResult(report, out, paint);
  PrintTables(report, out, paint);
  PrintFindings(report, out, paint);
  PrintSettings(report, out, paint);
  if (verbose_) {
    PrintFacts(report, out, paint);
    PrintSkipped(report, out, paint);
    PrintDiagnostics(report, out, paint);
  } else {
    PrintFolded(report, out, paint);
  }
  PrintContext(report, out, paint);
  PrintClosing(report, out, paint);
}

}  // namespace feedcheck
