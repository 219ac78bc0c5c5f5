#include "reports/terminal_reporter.h"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "core/measurement_caveat.h"
#include "core/plural.h"
#include "core/units.h"
#include "reports/report_text.h"
#include "reports/terminal_layout.h"
#include "reports/terminal_safe.h"
#include "reports/terminal_tables.h"
#include "reports/text_table.h"
#include "reports/text_wrap.h"

namespace feedcheck {

namespace {

// SGR codes; TerminalLayout returns the text unchanged without colour.
constexpr const char* kBold = kSgrBold;
constexpr const char* kDim = kSgrDim;
constexpr const char* kRed = "1;31";
constexpr const char* kYellow = "1;33";
constexpr const char* kGreen = "1;32";
constexpr const char* kCyan = "36";

using Painter = TerminalLayout;

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
  // What the verdict cost leads, then why.
  if (!r.headline.empty()) PrintWrapped(out, r.headline, "  ", paint, kBold);
  if (!r.verdict_detail.empty()) PrintWrapped(out, r.verdict_detail, "  ", paint);
  MeasurementCaveat caveat = CaveatOf(r.evidence.facts);
  if (caveat.any()) PrintWrapped(out, "warning: " + caveat.banner, "  ", paint, kYellow);
}

// Each section: its title, its lines ("Fix: ..."), their details with -v, then its tables
// laid out as the command's own tables are.
void PrintSections(const Report& r, std::ostream& out, const Painter& paint) {
  for (const auto& s : r.sections) {
    if (s.lines.empty() && s.tables.empty()) continue;
    if (!s.title.empty()) out << "\n" << paint(kBold, s.title) << "\n";
    for (const auto& line : s.lines) {
      const std::string text = WithDetail(line.text, paint.SectionLineDetail());
      PrintWrapped(out, line.label.empty() ? text : line.label + ": " + text, "  ", paint);
      if (paint.ShowsAssumptions())
        for (const auto& d : line.details) PrintWrapped(out, d, "    ", paint, kDim);
    }
    PrintTerminalTables(s.tables, out, paint);
  }
}

// Whether a section above already says `text` (the post-mortem's fix is its cause's message).
bool SaidInSections(const Report& r, std::string_view text) {
  for (const auto& s : r.sections)
    for (const auto& line : s.lines)
      if (line.text == text) return true;
  return false;
}

// One finding: its title and cost; its message as the layout allows (left out when the
// post-mortem's fix above already says it); its own settings only with -v or when the report
// gathers none (the "Settings to paste" block has them); with -v its evidence, source and rule.
void PrintFinding(const Finding& f, std::ostream& out, const Painter& paint,
                  const MeasurementCaveat& caveat, bool said_above, bool settings_below) {
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
  if (paint.MessageDetail() != TextDetail::kNone)
    if (std::string note = FindingCaveat(f, caveat); !note.empty())
      PrintWrapped(out, note, kIn, paint, kYellow);
  if (!f.message.empty() && (paint.verbose() || !said_above))
    if (std::string text = WithDetail(f.message, paint.MessageDetail()); !text.empty())
      PrintWrapped(out, text, kIn, paint);
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
  if (paint.verbose() || !settings_below) {
    for (const auto& e : f.env) out << kIn << "set: " << e.name << "=" << e.value << "\n";
    for (const auto& c : f.config) {
      out << kIn << c.kind << ":\n";
      PrintIndented(out, c.text, "             ");
    }
  }
  std::string where = RuleLocation(f);
  if (paint.verbose() && (!f.source.empty() || !where.empty())) {
    std::string line = f.source.empty() ? "" : "source: " + f.source;
    if (!where.empty()) line += (line.empty() ? "" : "  ") + std::string("rule: ") + where;
    PrintWrapped(out, line, kIn, paint, kDim);
  }
}

// The command's headline numbers, aligned, right under the verdict: what a probe measured.
// Two pairs to a line when they fit, so a dozen values take six lines.
void PrintResult(const Report& r, std::ostream& out, const Painter& paint) {
  if (!ShowsResultBlock(r)) return;
  out << "\n" << paint(kBold, "Result") << "\n";
  // Each half as wide as its own pairs: the first half of the values on the left, the rest on
  // the right, read down then across.
  const size_t half = (r.result.size() + 1) / 2;
  auto pair_width = [&](size_t from, size_t to) {
    size_t label = 0, value = 0;
    for (size_t i = from; i < to; ++i) {
      label = std::max(label, DisplayWidth(ResultLabel(r.result[i])));
      value = std::max(value, DisplayWidth(ResultValueText(r.result[i])));
    }
    return label + 2 + value;
  };
  const bool two = r.result.size() > 3 &&
                   2 + pair_width(0, half) + 4 + pair_width(half, r.result.size()) <= paint.width();
  TextTable table;
  table.FitTo(paint.width());
  const size_t rows = two ? (r.result.size() + 1) / 2 : r.result.size();
  for (size_t i = 0; i < rows; ++i) {
    std::vector<std::string> row{ResultLabel(r.result[i]), ResultValueText(r.result[i])};
    if (two && i + rows < r.result.size()) {
      row.push_back("");
      row.push_back(ResultLabel(r.result[i + rows]));
      row.push_back(ResultValueText(r.result[i + rows]));
    }
    table.AddRow(std::move(row));
  }
  out << table.Render();
}

void PrintFindings(const Report& r, std::ostream& out, const Painter& paint) {
  if (!ShowsFindingsBlock(r)) return;
  out << "\n" << paint(kBold, "Findings") << "\n";
  MeasurementCaveat caveat = CaveatOf(r.evidence.facts);
  if (r.findings.empty()) {
    out << "  none\n";
    return;
  }
  // Ranked by the command (a post-mortem's by the GPU time they cost, the secondary ones
  // last), else by severity.
  std::vector<const Finding*> order;
  if (r.findings_ranked) {
    for (const auto& f : r.findings) order.push_back(&f);
  } else {
    for (Severity s : SeveritiesMostSevereFirst())
      for (const auto& f : r.findings)
        if (f.severity == s) order.push_back(&f);
  }
  const bool settings_below = !r.env.empty() || !r.config.empty();
  size_t shown = 0, more = 0, secondary = 0;
  bool secondary_heading = false;
  for (const Finding* f : order) {
    if (f->secondary && !paint.verbose()) {
      ++secondary;
      continue;
    }
    if (shown >= paint.FindingsShown()) {
      ++more;
      continue;
    }
    if (f->secondary && !secondary_heading) {
      out << "\n" << paint(kBold, "Secondary (not what cost this job its GPU time)") << "\n";
      secondary_heading = true;
    }
    PrintFinding(*f, out, paint, caveat, SaidInSections(r, f->message), settings_below);
    ++shown;
  }
  if (paint.CountsLeftOutTogether() && more > 0 && secondary > 0) {
    PrintWrapped(
        out,
        fmt::format("... {} more {} and {} secondary (not what cost this job its "
                    "GPU time); -v lists them",
                    more, NounFor(static_cast<double>(more), "finding", "findings"), secondary),
        "  ", paint, kDim);
    return;
  }
  PrintMore(out, more, "finding", "findings", "  ", paint);
  if (secondary > 0)
    PrintWrapped(out,
                 fmt::format("{} (not what cost this job its GPU time); -v lists them",
                             Counted(static_cast<double>(secondary), "secondary finding")),
                 "  ", paint, kDim);
}

void PrintSettings(const Report& r, std::ostream& out, const Painter& paint) {
  if (r.env.empty() && r.config.empty()) return;
  out << "\n" << paint(kBold, "Settings to paste") << "\n";
  // The variables once: as the env block a fragment already formats (--env-format), else as
  // NAME=value lines.
  bool env_block = false;
  for (const auto& c : r.config)
    env_block = env_block || c.kind.rfind("environment variables", 0) == 0;
  if (!env_block || paint.verbose())
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

std::string DiagnosticsCount(const DiagnosticList& d) {
  return fmt::format("{} ({})", d.total(), Counted(static_cast<double>(d.errors()), "error"));
}

// By default one line stands for the lists a reader rarely came for: the facts (also in JSON
// and HTML), the rules not evaluated and the diagnostics about the inputs.
void PrintFolded(const Report& r, std::ostream& out, const Painter& paint) {
  std::vector<std::string> parts;
  if (!r.evidence.facts.empty())
    parts.push_back(fmt::format("{} behind {}",
                                Counted(static_cast<double>(r.evidence.facts.size()), "fact"),
                                !r.tables.empty() ? "these figures" : "this report"));
  if (!r.skipped.empty()) parts.push_back(SkippedRulesSummary(r.skipped.size()));
  const DiagnosticList& d = r.evidence.diagnostics;
  if (d.total() > 0) {
    parts.push_back(fmt::format("{} about the inputs ({})",
                                Counted(static_cast<double>(d.total()), "diagnostic"),
                                Counted(static_cast<double>(d.errors()), "error")));
  }
  if (parts.empty()) return;
  // Warnings and errors about the inputs (metrics of another account, a cut file) change how
  // far the answer can be trusted: the first few are shown.
  size_t shown = 0;
  for (const auto& diag : d.kept()) {
    if (diag.severity == DiagnosticSeverity::kNote || shown == paint.DiagnosticsShown()) continue;
    if (shown++ == 0) out << "\n";
    PrintWrapped(out, FormatDiagnostic(diag), "", paint);
  }
  std::string line;
  for (size_t i = 0; i < parts.size(); ++i) line += (i == 0 ? "" : "; ") + parts[i];
  out << "\n";
  PrintWrapped(out, line + "; -v lists them", "", paint, kDim);
}

void PrintDiagnostics(const Report& r, std::ostream& out, const Painter& paint) {
  const DiagnosticList& d = r.evidence.diagnostics;
  if (d.total() == 0) return;
  out << "\n" << paint(kBold, "Diagnostics: " + DiagnosticsCount(d)) << "\n";
  for (const auto& diag : d.kept()) PrintWrapped(out, FormatDiagnostic(diag), "  ", paint);
  if (d.dropped() > 0)
    out << fmt::format("  ... and {} more not kept\n", Counted(double(d.dropped()), "diagnostic"));
}

// Who ran what, where and when: with -v (JSON, Markdown and HTML always carry it); the run's
// warnings always.
void PrintContext(const Report& r, std::ostream& out, const Painter& paint) {
  const RunContext& c = r.context;
  if (paint.verbose()) {
    out << "\n";
    PrintWrapped(out,
                 fmt::format("feedcheck {} {} on {} at {} ({} build)", c.tool_version, c.command,
                             c.host, c.started_at_utc, c.build_type),
                 "", paint, kDim);
    if (!c.target.empty()) PrintWrapped(out, "target: " + c.target, "", paint, kDim);
  }
  if (!c.warnings.empty() && !paint.verbose()) out << "\n";
  for (const auto& w : c.warnings) PrintWrapped(out, "warning: " + w, "", paint, kYellow);
}

// The body of the report at the layout's fold level: everything but the closing lines.
std::string Body(const Report& report, const Painter& paint) {
  std::ostringstream out;
  PrintVerdict(report, out, paint);
  PrintSections(report, out, paint);
  PrintResult(report, out, paint);
  // The findings (what to change) and the settings to paste before the report's tables of
  // figures and prices, which back them (a command without findings is its tables).
  PrintFindings(report, out, paint);
  PrintSettings(report, out, paint);
  // Only tables that back findings fold whole; a command without findings is its tables.
  PrintTerminalTables(
      report.tables, out, paint,
      ShowsFindingsBlock(report) ? paint.ReportTablesFolded(report.tables.size()) : 0);
  if (paint.verbose()) {
    PrintFacts(report, out, paint);
    PrintSkipped(report, out, paint);
    PrintDiagnostics(report, out, paint);
  } else {
    PrintFolded(report, out, paint);
  }
  PrintContext(report, out, paint);
  return out.str();
}

size_t LineCount(const std::string& text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

// The last word: the verdict again (or, for a command without one, its summary line when the
// report is long enough for the top to have scrolled away), and where the rest is.
std::string Closing(const Report& r, const Painter& paint, size_t body_lines, bool pointer) {
  std::ostringstream out;
  if (!r.verdict.empty()) {
    PrintVerdictLine(r, out, paint);
  } else if (!r.verdict_detail.empty() && body_lines > 20) {
    // A one-line summary ("6 problems", "2 findings") is the verdict of a command without one;
    // a longer description (egress's setup) is not repeated.
    std::string first = r.verdict_detail.substr(0, r.verdict_detail.find('\n'));
    if (DisplayWidth(first) <= paint.width()) PrintWrapped(out, first, "", paint, kBold);
  }
  if (pointer && !paint.verbose()) {
    // fetch's and plan's reports, say, draw nothing: no pointer at charts there.
    PrintWrapped(out,
                 HasDrawableParts(r)
                     ? "-v: every finding, fact and rule; -f html -o report.html: the charts"
                     : "-v: every finding, fact and rule",
                 "  ", paint, kDim);
  }
  return out.str();
}

}  // namespace

void TerminalReporter::Render(const Report& unsafe_report, std::ostream& out) const {
  // Server text (error codes, blob names) and input files can carry escape sequences.
  const Report report = TerminalSafeCopy(unsafe_report);
  // By default, one screen: the report says less at each fold level until it fits (-v: all).
  std::string body, closing;
  for (int fold = 0; fold <= kMaxFold; ++fold) {
    Painter paint(color_, width_, verbose_, fold);
    body = Body(report, paint);
    // A listing asked for whole (no budget) has nothing left out to point at.
    closing = Closing(report, paint, LineCount(body), line_budget_ != 0);
    if (verbose_ || line_budget_ == 0 || LineCount(body) + LineCount(closing) <= line_budget_)
      break;
  }
  out << body << closing;
}

}  // namespace feedcheck
