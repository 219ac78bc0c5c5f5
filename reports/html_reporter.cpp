#include "reports/html_reporter.h"

#include <fmt/format.h>

#include "core/measurement_caveat.h"
#include "core/plural.h"
#include "core/units.h"
#include "reports/html_charts.h"
#include "reports/html_escape.h"
#include "reports/html_sortable.h"
#include "reports/html_style.h"
#include "reports/report_text.h"

namespace feedcheck {

namespace {

std::string E(std::string_view text) { return HtmlEscape(text); }

std::string FactRows(const std::vector<const Fact*>& facts) {
  std::string out;
  for (const Fact* f : facts) {
    out += fmt::format(
        "<tr><td class=\"mono\">{}</td><td class=\"value\">{}</td><td class=\"src\">{}</td></tr>\n",
        E(f->key), E(FormatFactValue(*f)), E(ProvenanceText(f->provenance)));
  }
  return out;
}

std::string EnvBlock(const std::vector<EnvSetting>& env) {
  std::string out = "<pre class=\"env\">";
  for (const auto& e : env) out += E(e.name) + "=" + E(e.value) + "\n";
  return out + "</pre>\n";
}

std::string Banner(const Report& r) {
  const RunContext& c = r.context;
  std::string out = fmt::format(
      "<header class=\"banner {}\">\n<div class=\"kicker\">feedcheck · {}"
      "</div>\n",
      VerdictLevelName(r.verdict_level), E(r.title.empty() ? "report" : r.title));
  out += fmt::format("<h1>{}</h1>\n", E(r.verdict.empty() ? "No verdict" : r.verdict));
  if (!r.headline.empty()) out += fmt::format("<p><b>{}</b></p>\n", E(r.headline));
  if (!r.verdict_detail.empty()) out += fmt::format("<p>{}</p>\n", E(r.verdict_detail));
  MeasurementCaveat caveat = CaveatOf(r.evidence.facts);
  if (caveat.any()) out += fmt::format("<p class=\"caveat\">{}</p>\n", E(caveat.banner));
  out += "<div class=\"meta\">";
  if (!c.target.empty()) out += fmt::format("<span>target <b>{}</b></span>", E(c.target));
  if (!c.host.empty()) out += fmt::format("<span>host {}</span>", E(c.host));
  if (!c.started_at_utc.empty()) out += fmt::format("<span>{}</span>", E(c.started_at_utc));
  return out + "</div>\n</header>\n";
}

std::string FindingCard(const Finding& f, const MeasurementCaveat& caveat) {
  std::string sev(SeverityName(f.severity));
  std::string out = fmt::format(
      "<article class=\"card finding {0}\">\n<header><span class=\"badge {0}\">{0}</span>"
      "<h3>{1}</h3><span class=\"rule-id mono\">{2}</span></header>\n",
      sev, E(f.title), E(f.rule_id));
  if (f.secondary)
    out += fmt::format("<p class=\"note\">Secondary: {}</p>\n", E(f.secondary_note));
  else if (!f.impact.empty())
    out += fmt::format("<p><b>Cost: {}</b></p>\n", E(f.impact));
  if (std::string note = FindingCaveat(f, caveat); !note.empty())
    out += fmt::format("<p class=\"caveat\">{}</p>\n", E(note));
  if (!f.message.empty()) out += fmt::format("<p>{}</p>\n", E(f.message));
  if (!f.evidence.empty()) {
    std::vector<const Fact*> facts;
    for (const auto& e : f.evidence) facts.push_back(&e);
    out += "<table><tr><th>Evidence</th><th>Value</th><th>Source</th></tr>\n" + FactRows(facts) +
           "</table>\n";
  }
  if (!f.env.empty()) out += EnvBlock(f.env);
  for (const auto& c : f.config)
    out += fmt::format("<div class=\"source\">{}</div><pre class=\"env\">{}</pre>\n", E(c.kind),
                       E(c.text));
  std::string where = RuleLocation(f);
  if (!f.source.empty() || !where.empty()) {
    out += "<div class=\"source\">";
    if (!f.source.empty()) out += "Source: " + E(f.source);
    if (!where.empty()) out += fmt::format(" · rule <span class=\"mono\">{}</span>", E(where));
    out += "</div>\n";
  }
  return out + "</article>\n";
}

// The command's headline numbers, as terminal and Markdown show them: what a probe measured.
std::string ResultSection(const Report& r) {
  if (!ShowsResultBlock(r)) return "";
  std::string out = "<section><h2>Result</h2>\n<div class=\"card\"><table>";
  for (const auto& v : r.result)
    out += fmt::format("<tr><td>{}</td><td class=\"value\">{}</td></tr>\n", E(ResultLabel(v)),
                       E(ResultValueText(v)));
  return out + "</table></div></section>\n";
}

// A table's rows under its header (when a column has a label), then its notes.
std::string TableHtml(const ReportTable& t) {
  std::string out = "<table>";
  bool header = false;
  for (const auto& c : t.columns) header = header || !c.label.empty();
  if (header) {
    out += "<tr>";
    for (const auto& c : t.columns) out += fmt::format("<th>{}</th>", E(c.label));
    out += "</tr>\n";
  }
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const auto& row = t.rows[r];
    const std::string level = RowLevelClass(t, r);
    out += level.empty() ? "<tr>" : fmt::format("<tr class=\"{}\">", level.substr(1));
    for (size_t c = 0; c < row.size(); ++c) {
      const bool numeric = c < t.columns.size() && t.columns[c].numeric;
      out += fmt::format("<td{}>{}</td>", numeric ? " class=\"value\"" : "", E(row[c].text));
    }
    out += "</tr>\n";
  }
  out += "</table>";
  for (const auto& n : t.notes) out += fmt::format("<p class=\"note\">{}</p>", E(n));
  return out;
}

// A sortable table as the page sorts it (its place among the page's sortable tables gives
// its radio buttons their ids), any other as a table.
std::string AnyTableHtml(const ReportTable& t, const std::vector<const ReportTable*>& sortable) {
  for (size_t i = 0; i < sortable.size(); ++i)
    if (sortable[i] == &t) return SortableTableHtml(t, i);
  return TableHtml(t);
}

std::string Tables(const Report& r, const std::vector<const ReportTable*>& sortable) {
  std::string out;
  for (const auto& t : r.tables)
    out += fmt::format("<section><h2>{}</h2>\n<div class=\"card\">{}</div></section>\n", E(t.title),
                       AnyTableHtml(t, sortable));
  return out;
}

// A section's table of at most this many rows is shown open; a longer one folded.
constexpr size_t kOpenTableRows = 8;

// Each section: its title, a paragraph per line (its details as a list), its charts, then its
// tables.
std::string Sections(const Report& r, const std::vector<const ReportTable*>& sortable) {
  std::string out;
  for (const auto& s : r.sections) {
    if (s.lines.empty() && s.tables.empty()) continue;
    out += fmt::format("<section><h2>{}</h2>\n", E(s.title));
    for (const auto& line : s.lines) {
      if (line.label.empty())
        out += fmt::format("<p>{}</p>\n", E(line.text));
      else
        out += fmt::format("<p><b>{}:</b> {}</p>\n", E(line.label), E(line.text));
      if (line.details.empty()) continue;
      out += "<ul>";
      for (const auto& d : line.details) out += fmt::format("<li>{}</li>", E(d));
      out += "</ul>\n";
    }
    for (const auto& c : s.charts)
      out += (c.title.empty() ? "" : fmt::format("<h3>{}</h3>\n", E(c.title))) + RenderBarChart(c);
    // A section's tables fold under their titles: open when short, closed when long (a fleet's
    // every job), so the page opens on the answer and is no taller than asked for.
    for (const auto& t : s.tables) {
      if (t.title.empty()) {
        out += AnyTableHtml(t, sortable) + "\n";
        continue;
      }
      const bool open = t.rows.size() <= kOpenTableRows;
      out +=
          fmt::format("<details class=\"table\"{}><summary><h3>{}</h3>{}</summary>\n{}</details>\n",
                      open ? " open" : "", E(t.title),
                      open ? ""
                           : fmt::format(" <span class=\"note\">{} rows: open to list "
                                         "them</span>",
                                         t.rows.size()),
                      AnyTableHtml(t, sortable));
    }
    out += "</section>\n";
  }
  return out;
}

std::string Findings(const Report& r) {
  // A command whose output is its tables (egress, plan) has no rules to report on.
  if (!ShowsFindingsBlock(r)) return "";
  std::string out = "<section><h2>Findings</h2>\n";
  MeasurementCaveat caveat = CaveatOf(r.evidence.facts);
  if (r.findings.empty()) out += "<p class=\"note\">No rule found a problem.</p>\n";
  if (r.findings_ranked) {
    // In the order the command ranked them (a post-mortem's: by the GPU time they cost).
    for (const auto& f : r.findings) out += FindingCard(f, caveat);
    return out + "</section>\n";
  }
  for (Severity s : SeveritiesMostSevereFirst())
    for (const auto& f : r.findings)
      if (f.severity == s) out += FindingCard(f, caveat);
  return out + "</section>\n";
}

std::string Settings(const Report& r) {
  if (r.env.empty() && r.config.empty()) return "";
  std::string out = "<section><h2>Settings to paste</h2>\n<div class=\"card\">\n";
  if (!r.env.empty()) out += EnvBlock(r.env);
  for (const auto& c : r.config)
    out += fmt::format("<div class=\"source\">{}</div><pre class=\"env\">{}</pre>\n", E(c.kind),
                       E(c.text));
  return out + "</div></section>\n";
}

std::string Skipped(const Report& r) {
  if (r.skipped.empty()) return "";
  // Folded: the list is long and rarely what the reader came for.
  std::string out = fmt::format(
      "<section><h2>Not evaluated</h2>\n<details class=\"card\"><summary>{} (the list)</summary>"
      "<table><tr><th>Rule</th><th>Missing facts</th></tr>\n",
      E(SkippedRulesSummary(r.skipped.size())));
  for (const auto& s : r.skipped) {
    std::string missing;
    for (const auto& m : s.missing_facts) missing += (missing.empty() ? "" : ", ") + m;
    out += fmt::format(
        "<tr><td><span class=\"mono\">{}</span> {}</td><td class=\"mono\">{}</td>"
        "</tr>\n",
        E(s.rule_id), E(s.title), E(missing));
  }
  return out + "</table></details></section>\n";
}

std::string Facts(const Report& r) {
  if (r.evidence.facts.empty()) return "";
  std::string out =
      "<section><h2>Facts</h2>\n<div class=\"card\"><table><tr><th>Fact</th><th>Value</th>"
      "<th>Source</th></tr>\n";
  for (const auto& [prefix, facts] : FactsByPrefix(r.evidence.facts))
    out += fmt::format("<tr class=\"group\"><td colspan=\"3\">{}</td></tr>\n", E(prefix)) +
           FactRows(facts);
  return out + "</table></div></section>\n";
}

std::string Diagnostics(const Report& r) {
  const DiagnosticList& d = r.evidence.diagnostics;
  if (d.total() == 0) return "";
  std::string out = fmt::format(
      "<section><h2>Diagnostics</h2>\n<div class=\"card\"><p>{}, {}.</p><pre class=\"env\">",
      Counted(static_cast<double>(d.total()), "diagnostic"),
      Counted(static_cast<double>(d.errors()), "error"));
  for (const auto& diag : d.kept()) out += E(FormatDiagnostic(diag)) + "\n";
  if (d.dropped() > 0) out += fmt::format("... and {} more not kept\n", d.dropped());
  return out + "</pre></div></section>\n";
}

// Right under the banner: what makes the numbers below suspect is read before them.
std::string Warnings(const Report& r) {
  const RunContext& c = r.context;
  if (c.warnings.empty()) return "";
  std::string out = "<div class=\"warnings\"><b>Read these numbers with care:</b><ul>\n";
  for (const auto& w : c.warnings) out += "<li>" + E(w) + "</li>\n";
  return out + "</ul></div>\n";
}

std::string Footer(const Report& r) {
  const RunContext& c = r.context;
  std::string out;
  out += fmt::format(
      "<footer><span>feedcheck {}</span><span>command <code>{}</code></span><span>host {}"
      "</span><span>started {}</span><span>{} build</span>",
      E(c.tool_version), E(c.command), E(c.host), E(c.started_at_utc), E(c.build_type));
  if (!c.target.empty()) out += fmt::format("<span>target <code>{}</code></span>", E(c.target));
  return out + "</footer>\n";
}

// Right after the verdict and its numbers, before the findings: the charts answer the verdict.
// Only the charts the report has; a report with none has no Charts section.
std::string ChartsSection(const HtmlCharts& charts) {
  if (charts.figures == 0) return "";
  return "<section class=\"charts-section\"><h2>Charts</h2>\n" + charts.grid + charts.notes +
         "</section>\n";
}

// The CSS of what only some pages have: bar charts in a section, sortable tables.
std::string ExtraCss(const Report& r, const std::vector<const ReportTable*>& sortable) {
  return (HasSectionCharts(r) ? std::string(kBarChartCss) : std::string()) +
         SortableTablesCss(sortable);
}

}  // namespace

void HtmlReporter::Render(const Report& r, std::ostream& out) const {
  const HtmlCharts charts = RenderHtmlCharts(r);
  const std::vector<const ReportTable*> sortable = SortableTables(r);
  out << "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      << fmt::format("<title>feedcheck {}: {}</title>\n", E(r.title), E(r.verdict)) << "<style>"
      << kHtmlReportCss << ExtraCss(r, sortable) << "</style>\n</head>\n<body>\n<main>\n"
      << Banner(r) << Warnings(r) << Sections(r, sortable) << ResultSection(r)
      << ChartsSection(charts) << Tables(r, sortable) << Findings(r) << Settings(r) << Facts(r)
      << Skipped(r) << Diagnostics(r) << Footer(r) << "</main>\n</body>\n</html>\n";
}

}  // namespace feedcheck
