#include "reports/fleet_html.h"

#include <fmt/format.h>

#include <algorithm>

#include "reports/fleet_text.h"
#include "reports/html_escape.h"
#include "reports/html_style.h"

namespace feedcheck {
namespace {

std::string E(std::string_view text) { return HtmlEscape(text); }

constexpr const char* kBarColor = "#b45309";

// The sortable table's own rules: rows are grid lines in a flex column, so CSS `order` can
// move them; each column's radio pair (ascending, descending) sets every row's order from the
// row's rank for that column (a custom property written on the row).
constexpr const char* kFleetCss = R"css(
.fleet-sort{position:absolute;opacity:0;pointer-events:none}
.fleet-scroll{overflow-x:auto}
.ftable{display:flex;flex-direction:column;min-width:880px;font-size:14px}
.fhead,.frow{display:grid;gap:0 10px;padding:6px 4px;border-bottom:1px solid #e2e8f0;
grid-template-columns:minmax(9em,2fr) 6em 6em 6em minmax(8em,1.6fr) 6.5em minmax(10em,2.6fr) 6em}
.ftable.priced .fhead,.ftable.priced .frow{
grid-template-columns:minmax(9em,2fr) 6em 6em 6em minmax(8em,1.6fr) 6.5em minmax(10em,2.6fr) 6em 6em}
.fhead{order:-1000000;font-weight:600;color:#334155;border-bottom:2px solid #94a3b8}
.fhead label{cursor:pointer;color:#94a3b8;padding:0 2px}
.frow .num{text-align:right;font-variant-numeric:tabular-nums}
.frow .fixbuys{display:block;color:#475569;font-size:13px}
.frow.bad{border-left:4px solid #dc2626}.frow.warning{border-left:4px solid #d97706}
.frow.good{border-left:4px solid #16a34a}.frow.unknown{border-left:4px solid #94a3b8}
.fbar{display:grid;grid-template-columns:17em 1fr 16em;gap:4px 12px;
align-items:center;margin:4px 0;font-size:14px}
.flabel{text-align:right;color:#1e293b}.fval{color:#334155;font-variant-numeric:tabular-nums}
.ftrack{background:#f1f5f9;border-radius:4px;height:18px}
.ffill{display:block;height:18px;border-radius:4px}
@media (max-width:640px){.fbar{grid-template-columns:1fr;margin:10px 0}.flabel{text-align:left}}
)css";

struct Column {
  const char* key;    ///< FleetSortColumn key
  const char* label;  ///< header
  bool numeric;
};

const Column kColumns[] = {{"job", "Job", false},
                           {"gpus", "Nodes x GPUs", true},
                           {"duration_s", "Duration", true},
                           {"gpu_lost_gpu_s", "GPU-h lost", true},
                           {"cause", "Cause", false},
                           {"confidence", "Confidence", false},
                           {"", "Fix, and what it buys", false},
                           {"won_back_gpu_s", "Fix wins back (GPU-h)", true}};

std::string SortCss(const FleetSummary& f) {
  std::string css;
  for (size_t c = 0; c < f.sort_columns.size(); ++c) {
    const std::string& key = f.sort_columns[c].key;
    css += fmt::format(
        "#fs-{0}-a:checked~.fleet-scroll .frow{{order:var(--r{1})}}"
        "#fs-{0}-d:checked~.fleet-scroll .frow{{order:calc(var(--r{1}) * -1)}}"
        "#fs-{0}-a:checked~.fleet-scroll label[for=fs-{0}-a],"
        "#fs-{0}-d:checked~.fleet-scroll label[for=fs-{0}-d]{{color:#1d4ed8}}\n",
        key, c);
  }
  return css;
}

// Bars of HTML, not SVG: the text stays readable at phone width, where the rows stack (label,
// bar, figure). Each bar's length is its share of the longest, the only mapping done here.
std::string BarChart(const FleetSummary& f) {
  if (f.causes.empty()) return "";
  double most = 0;
  for (const auto& c : f.causes) most = std::max(most, c.gpu_lost_gpu_s);
  std::string out =
      "<section><h2>GPU time lost by cause</h2>\n<div class=\"card\"><div class=\"fbars\" "
      "role=\"img\" aria-label=\"GPU-hours lost by cause\">\n";
  for (const auto& c : f.causes) {
    const double percent = most > 0 ? c.gpu_lost_gpu_s / most * 100 : 0;
    out += fmt::format(
        "<div class=\"fbar\"><span class=\"flabel\">{}</span><span class=\"ftrack\">"
        "<span class=\"ffill\" style=\"width:{:.1f}%;background:{}\"></span></span>"
        "<span class=\"fval\">{} GPU-h · {}{}</span></div>\n",
        E(c.cause), std::max(percent, 0.5), kBarColor, FleetGpuHoursText(c.gpu_lost_gpu_s),
        FleetJobsText(c.jobs),
        c.lost_usd >= 0 ? fmt::format(" · {} est.", FleetUsdText(c.lost_usd)) : "");
  }
  return out +
         "</div><p class=\"note\">GPU-hours lost, summed over the jobs' GPUs.</p></div>"
         "</section>\n";
}

std::string JobsTable(const FleetSummary& f) {
  const bool priced = f.priced();
  std::string out = fmt::format(
      "<section><h2>Jobs ({})</h2>\n<div class=\"card\"><p class=\"note\">Sorted by GPU time "
      "lost; the arrows in each heading sort by that column.</p>\n",
      f.jobs.size());
  for (const auto& col : f.sort_columns)
    out += fmt::format(
        "<input class=\"fleet-sort\" type=\"radio\" name=\"fleet-sort\" id=\"fs-{0}-a\" "
        "aria-label=\"sort by {0}, ascending\"><input class=\"fleet-sort\" type=\"radio\" "
        "name=\"fleet-sort\" id=\"fs-{0}-d\" aria-label=\"sort by {0}, descending\">\n",
        E(col.key));
  out += fmt::format("<div class=\"fleet-scroll\"><div class=\"ftable{}\">\n<div class=\"fhead\">",
                     priced ? " priced" : "");
  for (const auto& col : kColumns) {
    out += "<span>" + E(col.label);
    if (col.key[0] != '\0')
      out += fmt::format(
          " <label for=\"fs-{0}-a\" title=\"smallest first\">▲</label>"
          "<label for=\"fs-{0}-d\" title=\"largest first\">▼</label>",
          col.key);
    out += "</span>";
  }
  if (priced) out += "<span>Lost (USD, est.)</span>";
  out += "</div>\n";
  for (size_t i : f.by_gpu_lost) {
    const FleetJob& j = f.jobs[i];
    std::string ranks;
    for (size_t c = 0; c < f.sort_columns.size(); ++c)
      if (i < f.sort_columns[c].rank.size())
        ranks += fmt::format("--r{}:{};", c, f.sort_columns[c].rank[i]);
    std::string fix = j.diagnosed ? E(j.fix_title.empty() ? "-" : j.fix_title) : E(j.problem);
    if (!j.fix_buys.empty()) fix += "<span class=\"fixbuys\">" + E(j.fix_buys) + "</span>";
    out += fmt::format(
        "<div class=\"frow {}\" style=\"{}\"><span>{}</span><span class=\"num\">{}</span>"
        "<span class=\"num\">{}</span><span class=\"num\">{}</span><span>{}</span><span>{}</span>"
        "<span>{}</span><span class=\"num\">{}</span>",
        E(j.verdict_level.empty() ? "unknown" : j.verdict_level), ranks, E(j.job),
        E(FleetNodesGpusText(j)), E(FleetDurationText(j.duration_s)),
        E(FleetGpuHoursText(j.gpu_lost_gpu_s)), E(FleetCauseText(j)),
        E(j.confidence.empty() ? "-" : j.confidence), fix, E(FleetWonBackText(j)));
    if (priced) out += fmt::format("<span class=\"num\">{}</span>", E(FleetUsdText(j.lost_usd)));
    out += "</div>\n";
  }
  out +=
      "</div></div>\n<p class=\"note\">Fix wins back: GPU-hours, the supply model's "
      "estimate; ≤: the time lost to the cause, the most its fix can win back.</p>"
      "</div></section>\n";
  return out;
}

std::string Fixes(const FleetSummary& f) {
  if (f.fixes.empty()) return "";
  std::string out = "<section><h2>Fixes, ranked by the GPU time they win back</h2>\n";
  for (const auto& x : f.fixes) {
    out += fmt::format(
        "<article class=\"card\"><h3>{} <span class=\"note\">({}): {} GPU-hours{}{}</span></h3>"
        "\n<p>{}</p><p class=\"note\">Jobs: {}</p></article>\n",
        E(x.title), FleetJobsText(x.jobs.size()), FleetGpuHoursText(x.won_back_gpu_s),
        FleetFixCountText(x).empty() ? "" : " (" + E(FleetFixCountText(x)) + ")",
        x.won_back_usd >= 0 ? fmt::format(", {} (estimate)", FleetUsdText(x.won_back_usd)) : "",
        E(x.fix), E(fmt::format("{}", fmt::join(x.jobs, ", "))));
  }
  return out + "</section>\n";
}

std::string Accounts(const FleetSummary& f) {
  if (f.accounts.empty()) return "";
  std::string out =
      "<section><h2>Storage accounts</h2>\n<div class=\"card\"><table><tr><th>Account</th>"
      "<th>Jobs</th><th>Throttled</th><th>Finding</th></tr>\n";
  for (const auto& a : f.accounts)
    out += fmt::format(
        "<tr><td class=\"mono\">{}</td><td class=\"value\">{}</td><td class=\"value\">{}</td>"
        "<td>{}{}</td></tr>\n",
        E(a.account), a.jobs.size(), a.throttled_jobs.size(), E(a.finding),
        a.lost_usd >= 0 ? E(fmt::format(" ({} est.)", FleetUsdText(a.lost_usd))) : "");
  return out + "</table></div></section>\n";
}

std::string Notes(const Report& r) {
  const FleetSummary& f = r.fleet;
  std::string out = "<section><h2>How it was read</h2>\n<div class=\"card\"><ul>";
  out += fmt::format("<li>{}: {}; {} worker{}.</li>", E(f.root), E(f.layout), f.workers,
                     f.workers == 1 ? "" : "s");
  for (const auto& j : f.jobs)
    if (!j.diagnosed) out += "<li>Not diagnosed: " + E(j.problem) + "</li>";
  for (const auto& s : f.skipped) out += "<li>Not a job: " + E(s) + "</li>";
  if (!f.price_note.empty()) out += "<li>Money: " + E(f.price_note) + ".</li>";
  return out + "</ul></div></section>\n";
}

}  // namespace

void RenderFleetHtml(const Report& r, std::ostream& out) {
  const FleetSummary& f = r.fleet;
  const RunContext& c = r.context;
  out << "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      << fmt::format("<title>feedcheck {}: {}</title>\n", E(r.title), E(r.verdict)) << "<style>"
      << kHtmlReportCss << kFleetCss << SortCss(f) << "</style>\n</head>\n<body>\n<main>\n";
  out << fmt::format(
      "<header class=\"banner {}\">\n<div class=\"kicker\">feedcheck · {}</div>\n<h1>{}</h1>\n",
      VerdictLevelName(r.verdict_level), E(r.title), E(r.verdict));
  if (!r.verdict_detail.empty()) out << "<p>" << E(r.verdict_detail) << "</p>\n";
  if (!f.price_note.empty()) out << "<p class=\"caveat\">" << E(f.price_note) << ".</p>\n";
  out << fmt::format("<div class=\"meta\"><span>folder <b>{}</b></span><span>{}</span></div>\n",
                     E(f.root), E(c.started_at_utc))
      << "</header>\n";
  out << BarChart(f) << JobsTable(f) << Fixes(f) << Accounts(f) << Notes(r);
  out << fmt::format(
      "<footer><span>feedcheck {}</span><span>command <code>{}</code></span><span>host {}"
      "</span><span>started {}</span></footer>\n",
      E(c.tool_version), E(c.command), E(c.host), E(c.started_at_utc));
  out << "</main>\n</body>\n</html>\n";
}

}  // namespace feedcheck
