#include "reports/terminal_safe.h"

#include <string>
#include <variant>

#include "core/terminal_text.h"

namespace feedcheck {
namespace {

void Clean(std::string* s) { *s = TerminalSafe(*s); }

Fact CleanFact(Fact f) {
  Clean(&f.key);
  if (f.is_text()) f.value = TerminalSafe(f.text());
  Clean(&f.provenance.source);
  Clean(&f.provenance.file);
  Clean(&f.provenance.host);
  return f;
}

}  // namespace

Report TerminalSafeCopy(const Report& report) {
  Report r = report;
  Clean(&r.title);
  Clean(&r.verdict);
  Clean(&r.verdict_detail);
  Clean(&r.context.command);
  Clean(&r.context.host);
  Clean(&r.context.target);
  Clean(&r.context.tool_version);
  Clean(&r.context.build_type);
  Clean(&r.context.started_at_utc);
  for (std::string& w : r.context.warnings) Clean(&w);
  FactSet facts;
  for (const Fact* f : report.evidence.facts.WithPrefix("")) facts.Set(CleanFact(*f));
  r.evidence.facts = std::move(facts);
  r.evidence.diagnostics.ForEachKept([](Diagnostic& d) {
    Clean(&d.code);
    Clean(&d.message);
    Clean(&d.context);
    Clean(&d.snippet);
    Clean(&d.location.file);
  });
  for (Finding& f : r.findings) {
    Clean(&f.rule_id);
    Clean(&f.title);
    Clean(&f.message);
    Clean(&f.source);
    Clean(&f.rule_file);
    for (Fact& e : f.evidence) e = CleanFact(e);
    for (EnvSetting& e : f.env) {
      Clean(&e.name);
      Clean(&e.value);
    }
    for (ConfigFragment& c : f.config) {
      Clean(&c.kind);
      Clean(&c.text);
    }
  }
  for (SkippedRule& s : r.skipped) {
    Clean(&s.rule_id);
    Clean(&s.title);
    for (std::string& m : s.missing_facts) Clean(&m);
  }
  for (EnvSetting& e : r.env) {
    Clean(&e.name);
    Clean(&e.value);
  }
  for (ConfigFragment& c : r.config) {
    Clean(&c.kind);
    Clean(&c.text);
  }
  auto clean_table = [](ReportTable& t) {
    Clean(&t.title);
    for (TableColumn& c : t.columns) Clean(&c.label);
    for (auto& row : t.rows)
      for (TableCell& cell : row) Clean(&cell.text);
    for (std::string& n : t.notes) Clean(&n);
  };
  for (ReportTable& t : r.tables) clean_table(t);
  // Sections quote names from folders and logs (a fleet's jobs, a job's nodes).
  for (ReportSection& s : r.sections) {
    Clean(&s.title);
    for (SectionLine& line : s.lines) {
      Clean(&line.label);
      Clean(&line.text);
      for (std::string& d : line.details) Clean(&d);
    }
    for (ReportTable& t : s.tables) clean_table(t);
  }
  return r;
}

}  // namespace feedcheck
