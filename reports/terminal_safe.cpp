#include "reports/terminal_safe.h"

#include <string>
#include <variant>

#include "core/terminal_text.h"

namespace feedcheck {
namespace {

// A value (a name, a cell, a label): one line, nothing of it obeyed, no newline kept.
void Line(std::string* s) { *s = TerminalSafeLine(*s); }
// Prose that may run over lines (a message, a note): newlines kept; the terminal layout
// indents a text's later lines deeper than its first (reports/terminal_layout).
void Prose(std::string* s) { *s = TerminalSafe(*s); }
// A block shown as it is (a config fragment): newlines kept, controls visible.
void Block(std::string* s) { *s = VisibleControls(*s, true); }

Fact CleanFact(Fact f) {
  Line(&f.key);
  if (f.is_text()) f.value = TerminalSafeLine(f.text());
  Line(&f.provenance.source);
  Line(&f.provenance.file);
  Line(&f.provenance.host);
  return f;
}

void CleanTable(ReportTable& t) {
  Line(&t.title);
  for (TableColumn& c : t.columns) Line(&c.label);
  for (auto& row : t.rows)
    for (TableCell& cell : row) Line(&cell.text);
  for (std::string& n : t.notes) Prose(&n);
  for (std::string& n : t.note_briefs) Prose(&n);
}

}  // namespace

Report TerminalSafeCopy(const Report& report) {
  Report r = report;
  Line(&r.title);
  Line(&r.verdict);
  Prose(&r.verdict_detail);
  Line(&r.headline);
  Line(&r.context.command);
  Line(&r.context.host);
  Line(&r.context.target);
  Line(&r.context.tool_version);
  Line(&r.context.build_type);
  Line(&r.context.started_at_utc);
  for (std::string& w : r.context.warnings) Prose(&w);
  FactSet facts;
  for (const Fact* f : report.evidence.facts.WithPrefix("")) facts.Set(CleanFact(*f));
  r.evidence.facts = std::move(facts);
  for (Series& series : r.evidence.series) {
    Line(&series.key);
    Line(&series.title);
    Line(&series.x_label);
    Line(&series.y_label);
    Line(&series.node);
  }
  for (TimelineInterval& iv : r.evidence.timeline) {
    Line(&iv.lane);
    Line(&iv.label);
    Line(&iv.status);
    Line(&iv.source);
    Line(&iv.node);
  }
  r.evidence.diagnostics.ForEachKept([](Diagnostic& d) {
    Line(&d.code);
    Prose(&d.message);
    Prose(&d.context);
    Line(&d.snippet);
    Line(&d.location.file);
  });
  for (Finding& f : r.findings) {
    Line(&f.rule_id);
    Line(&f.title);
    Prose(&f.message);
    Line(&f.source);
    Line(&f.rule_file);
    Line(&f.impact);
    Prose(&f.secondary_note);
    for (Fact& e : f.evidence) e = CleanFact(e);
    for (EnvSetting& e : f.env) {
      Line(&e.name);
      Line(&e.value);
    }
    for (ConfigFragment& c : f.config) {
      Line(&c.kind);
      Block(&c.text);
    }
  }
  for (SkippedRule& s : r.skipped) {
    Line(&s.rule_id);
    Line(&s.title);
    for (std::string& m : s.missing_facts) Line(&m);
  }
  for (EnvSetting& e : r.env) {
    Line(&e.name);
    Line(&e.value);
  }
  for (ConfigFragment& c : r.config) {
    Line(&c.kind);
    Block(&c.text);
  }
  for (ResultValue& v : r.result) {
    Line(&v.key);
    Line(&v.label);
    Line(&v.unit);
    if (auto* text = std::get_if<std::string>(&v.value)) Line(text);
  }
  for (ReportTable& t : r.tables) CleanTable(t);
  // Sections quote names from folders and logs (a fleet's jobs, a job's nodes).
  for (ReportSection& s : r.sections) {
    Line(&s.title);
    for (SectionLine& line : s.lines) {
      Line(&line.label);
      Prose(&line.text);
      for (std::string& d : line.details) Prose(&d);
    }
    for (ReportBarChart& c : s.charts) {
      Line(&c.title);
      Prose(&c.caption);
      for (ReportBar& b : c.bars) {
        Line(&b.label);
        Line(&b.text);
      }
    }
    for (ReportTable& t : s.tables) CleanTable(t);
  }
  Line(&r.codes.uri);
  for (ReportCode& c : r.codes.codes) {
    Line(&c.code);
    Line(&c.name);
    Prose(&c.summary);
    Prose(&c.help);
    Line(&c.level);
  }
  return r;
}

}  // namespace feedcheck
