#include "reports/markdown_reporter.h"

#include <fmt/format.h>

#include "core/measurement_caveat.h"
#include "core/plural.h"
#include "core/terminal_text.h"
#include "core/units.h"
#include "reports/report_text.h"

namespace feedcheck {

std::string MarkdownCell(std::string_view raw) {
  // Controls and bidi characters visible first (core/terminal_text: one rule for every output).
  const std::string text = VisibleControls(raw, true);
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '|':
        out += "\\|";
        break;
      case '\\':
        out += "\\\\";
        break;
      // Server text (error codes, blob names) must not open a code span or raw HTML that
      // swallows the rest of the table.
      case '`':
        out += "\\`";
        break;
      case '<':
        out += "&lt;";
        break;
      // Link and image syntax ([x](y), ![x](y)) from folder, node and input names stays text.
      case '[':
        out += "\\[";
        break;
      case ']':
        out += "\\]";
        break;
      // Emphasis from names (a_b_c stays as written only because GFM ignores intraword '_').
      case '*':
        out += "\\*";
        break;
      case '\t':
        out += ' ';
        break;
      case '\n':
        out += "<br>";
        break;
      case '\r':
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string MarkdownCode(std::string_view raw) {
  const std::string text = VisibleControls(raw, false);
  // CommonMark: a code span is closed only by a backtick run of its opening's length, so open
  // with one longer than any run inside; pad with spaces when the text starts or ends with one.
  // A table cell still needs its '|' escaped, and a newline would end the row.
  size_t run = 0, longest = 0;
  std::string body;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
    if (c == '|') {
      body += "\\|";
    } else if (c == '\n' || c == '\r') {
      body += ' ';
    } else {
      body += c;
    }
  }
  std::string ticks(longest + 1, '`');
  bool pad = !body.empty() && (body.front() == '`' || body.back() == '`');
  return ticks + (pad ? " " : "") + body + (pad ? " " : "") + ticks;
}

namespace {

// One line inside a fence: nothing in it obeyed, no newline that would start another line.
std::string FenceLine(std::string_view text) { return VisibleControls(text, false); }

std::string Fence(std::string_view text) {
  // A fence longer than any backtick run inside, so pasted config cannot close it early.
  size_t run = 0, longest = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return std::string(std::max<size_t>(3, longest + 1), '`');
}

void FactTable(std::ostream& out, const std::vector<const Fact*>& facts) {
  out << "| Fact | Value | Source |\n|---|---|---|\n";
  for (const Fact* f : facts) {
    out << fmt::format("| {} | {} | {} |\n", MarkdownCode(f->key),
                       MarkdownCell(FormatFactValue(*f)),
                       MarkdownCell(ProvenanceText(f->provenance)));
  }
}

void FindingSection(std::ostream& out, const feedcheck::Finding& f,
                    const MeasurementCaveat& caveat) {
  out << fmt::format("\n### {}: {} ({})\n\n", SeverityName(f.severity), MarkdownCell(f.title),
                     MarkdownCode(f.rule_id));
  if (f.secondary)
    out << "*Secondary: " << MarkdownCell(f.secondary_note) << "*\n\n";
  else if (!f.impact.empty())
    out << "**Cost: " << MarkdownCell(f.impact) << "**\n\n";
  if (std::string note = FindingCaveat(f, caveat); !note.empty())
    out << "> **Warning:** " << MarkdownCell(note) << "\n\n";
  if (!f.message.empty()) out << MarkdownCell(f.message) << "\n\n";
  if (!f.evidence.empty()) {
    std::vector<const Fact*> facts;
    for (const auto& e : f.evidence) facts.push_back(&e);
    FactTable(out, facts);
    out << "\n";
  }
  if (!f.env.empty()) {
    out << "```sh\n";
    for (const auto& e : f.env) out << FenceLine(e.name) << "=" << FenceLine(e.value) << "\n";
    out << "```\n\n";
  }
  std::string where = RuleLocation(f);
  if (!f.source.empty()) out << "Source: " << MarkdownCell(f.source) << "  \n";
  if (!where.empty()) out << "Rule: " << MarkdownCode(where) << "\n";
}

// A table under a heading of `level` ("##" for the command's own, "###" in a section), its
// notes under it.
void TableBlock(std::ostream& out, const ReportTable& t, std::string_view level) {
  out << level << " " << (t.title.empty() ? "Table" : MarkdownCell(t.title)) << "\n\n|";
  std::string rule = "|";
  for (const auto& c : t.columns) {
    out << " " << MarkdownCell(c.label) << " |";
    rule += c.numeric ? "---:|" : "---|";
  }
  out << "\n" << rule << "\n";
  for (const auto& row : t.rows) {
    out << "|";
    for (const auto& cell : row) out << " " << MarkdownCell(cell.text) << " |";
    out << "\n";
  }
  for (const auto& n : t.notes) out << "\n" << MarkdownCell(n) << "\n";
  out << "\n";
}

// A section: its title, a paragraph per line (its details as a list), then its tables.
void SectionBlock(std::ostream& out, const ReportSection& s) {
  if (s.lines.empty() && s.tables.empty()) return;
  if (!s.title.empty()) out << "## " << MarkdownCell(s.title) << "\n\n";
  // Lines quote names from folders and logs: escaped as cells are.
  for (const auto& line : s.lines) {
    if (!line.label.empty()) out << MarkdownCell(line.label) << ": ";
    out << MarkdownCell(line.text) << "\n\n";
    for (const auto& d : line.details) out << "- " << MarkdownCell(d) << "\n";
    if (!line.details.empty()) out << "\n";
  }
  for (const auto& t : s.tables) TableBlock(out, t, "###");
}

// The title, the verdict and its headline, its detail, and the caveat of figures measured
// against this machine or an emulator.
void Heading(const Report& r, const MeasurementCaveat& caveat, std::ostream& out) {
  out << "# feedcheck " << (r.title.empty() ? "report" : MarkdownCell(r.title)) << "\n\n";
  if (!r.verdict.empty()) out << "**Verdict: " << MarkdownCell(r.verdict) << "**\n\n";
  if (!r.headline.empty()) out << "**" << MarkdownCell(r.headline) << "**\n\n";
  // The detail and the warnings quote probe messages, which quote servers: one escaped line.
  if (!r.verdict_detail.empty()) out << "> " << MarkdownCell(r.verdict_detail) << "\n\n";
  if (caveat.any()) out << "> **Warning:** " << MarkdownCell(caveat.banner) << "\n\n";
}

// The command's headline numbers, unless its tables or sections carry them.
void ResultBlock(const Report& r, std::ostream& out) {
  if (ShowsResultBlock(r)) {
    out << "## Result\n\n| | |\n|---|---:|\n";
    for (const auto& v : r.result)
      out << "| " << MarkdownCell(ResultLabel(v)) << " | " << MarkdownCell(ResultValueText(v))
          << " |\n";
    out << "\n";
  }
}

// The findings: in the order the command ranked them, else by severity. A command whose
// output is its tables has none to report.
void FindingsBlock(const Report& r, const MeasurementCaveat& caveat, std::ostream& out) {
  // A command whose output is its tables (egress, plan) has no rules to report on.
  const bool tables_only = !ShowsFindingsBlock(r);
  if (!r.findings.empty() || !tables_only) out << "## Findings\n";
  if (r.findings.empty() && !tables_only) out << "\nNone.\n";
  if (r.findings_ranked) {
    // In the order the command ranked them (a post-mortem's: by the GPU time they cost).
    for (const auto& f : r.findings) FindingSection(out, f, caveat);
  } else {
    for (Severity s : SeveritiesMostSevereFirst())
      for (const auto& f : r.findings)
        if (f.severity == s) FindingSection(out, f, caveat);
  }
}

// The primary findings' settings, merged, to paste.
void SettingsBlock(const Report& r, std::ostream& out) {
  if (!r.env.empty() || !r.config.empty()) {
    out << "\n## Settings to paste\n";
    if (!r.env.empty()) {
      out << "\n```sh\n";
      for (const auto& e : r.env) out << FenceLine(e.name) << "=" << FenceLine(e.value) << "\n";
      out << "```\n";
    }
    for (const auto& c : r.config) {
      const std::string text = VisibleControls(c.text, true);
      std::string fence = Fence(text);
      out << "\n" << MarkdownCell(c.kind) << ":\n\n" << fence << "yaml\n" << text;
      if (!text.empty() && text.back() != '\n') out << "\n";
      out << fence << "\n";
    }
  }
}

// Every fact, grouped by the first segment of its key.
void FactsBlock(const Report& r, std::ostream& out) {
  if (!r.evidence.facts.empty()) {
    out << "\n## Facts\n";
    for (const auto& [prefix, facts] : FactsByPrefix(r.evidence.facts)) {
      out << "\n**" << prefix << "**\n\n";
      FactTable(out, facts);
    }
  }
}

// The rules not evaluated and the facts each lacked.
void SkippedBlock(const Report& r, std::ostream& out) {
  if (!r.skipped.empty()) {
    // Below the facts and folded: the list is long and rarely what the reader came for.
    out << "\n## Not evaluated\n\n<details><summary>" << SkippedRulesSummary(r.skipped.size())
        << " (the list)</summary>\n\n| Rule | Missing facts |\n|---|---|\n";
    for (const auto& s : r.skipped) {
      std::string missing;
      for (const auto& m : s.missing_facts)
        missing += (missing.empty() ? "" : ", ") + MarkdownCode(m);
      out << fmt::format("| {} {} | {} |\n", MarkdownCode(s.rule_id), MarkdownCell(s.title),
                         missing);
    }
    out << "\n</details>\n";
  }
}

// The diagnostics kept, in a fence longer than any backtick run they quote.
void DiagnosticsBlock(const Report& r, std::ostream& out) {
  const DiagnosticList& d = r.evidence.diagnostics;
  if (d.total() > 0) {
    std::string text;
    for (const auto& diag : d.kept()) text += FenceLine(FormatDiagnostic(diag)) + "\n";
    if (d.dropped() > 0) text += fmt::format("... and {} more not kept\n", d.dropped());
    // A fence longer than any backtick run in the messages (which quote server text).
    std::string fence = Fence(text);
    out << fmt::format("\n## Diagnostics ({} total, {})\n\n{}text\n{}{}\n", d.total(),
                       Counted(static_cast<double>(d.errors()), "error"), fence, text, fence);
  }
}

// Where and how the report was made.
void ContextBlock(const Report& r, std::ostream& out) {
  const RunContext& c = r.context;
  out << "\n## Context\n\n| | |\n|---|---|\n";
  out << fmt::format("| Tool | feedcheck {} ({} build) |\n", MarkdownCell(c.tool_version),
                     MarkdownCell(c.build_type));
  out << fmt::format("| Command | {} |\n", MarkdownCode(c.command));
  out << fmt::format("| Host | {} |\n", MarkdownCell(c.host));
  out << fmt::format("| Started | {} |\n", MarkdownCell(c.started_at_utc));
  if (!c.target.empty()) out << fmt::format("| Target | {} |\n", MarkdownCode(c.target));
  for (const auto& w : c.warnings) out << "\n> **Warning:** " << MarkdownCell(w) << "\n";
}

}  // namespace

void MarkdownReporter::Render(const Report& r, std::ostream& out) const {
  const MeasurementCaveat caveat = CaveatOf(r.evidence.facts);
  Heading(r, caveat, out);
  for (const auto& section : r.sections) SectionBlock(out, section);
  ResultBlock(r, out);
  for (const auto& t : r.tables) TableBlock(out, t, "##");
  FindingsBlock(r, caveat, out);
  SettingsBlock(r, out);
  FactsBlock(r, out);
  SkippedBlock(r, out);
  DiagnosticsBlock(r, out);
  ContextBlock(r, out);
}

}  // namespace feedcheck
