#include "reports/html_sortable.h"

#include <fmt/format.h>

#include "reports/html_escape.h"

namespace feedcheck {
namespace {

constexpr const char* kSortableCss = R"css(
.sort-key{position:absolute;opacity:0;pointer-events:none}
.sort-scroll{overflow-x:auto}
.stable{display:flex;flex-direction:column;font-size:14px}
.shead,.srow{display:grid;gap:0 10px;padding:6px 4px;border-bottom:1px solid #e2e8f0;
grid-template-columns:var(--cols)}
.shead{order:-1000000;font-weight:600;color:#334155;border-bottom:2px solid #94a3b8}
.shead label{cursor:pointer;color:#94a3b8;padding:0 2px}
.srow .num{text-align:right;font-variant-numeric:tabular-nums}
.srow.lv-bad{border-left:4px solid #dc2626}.srow.lv-warning{border-left:4px solid #d97706}
.srow.lv-good{border-left:4px solid #16a34a}.srow.lv-unknown{border-left:4px solid #94a3b8}
)css";

}  // namespace

std::string RowLevelClass(const ReportTable& t, size_t row) {
  if (row >= t.row_levels.size()) return "";
  return " lv-" + std::string(VerdictLevelName(t.row_levels[row]));
}

namespace {

bool Sortable(const ReportTable& t, size_t column) {
  return column < t.sort_ranks.size() && t.sort_ranks[column].size() == t.rows.size() &&
         !t.rows.empty();
}

// The radio buttons' ids: the table's place on the page and the column's key (or place).
std::string Id(const ReportTable& t, size_t index, size_t column, char way) {
  const std::string& key = t.columns[column].key;
  return fmt::format("s{}-{}-{}", index, key.empty() ? std::to_string(column) : key, way);
}

}  // namespace

std::vector<const ReportTable*> SortableTables(const Report& report) {
  std::vector<const ReportTable*> out;
  for (const auto& s : report.sections)
    for (const auto& t : s.tables)
      if (t.sortable) out.push_back(&t);
  for (const auto& t : report.tables)
    if (t.sortable) out.push_back(&t);
  return out;
}

std::string SortableTablesCss(const std::vector<const ReportTable*>& tables) {
  if (tables.empty()) return "";
  std::string css = kSortableCss;
  for (size_t i = 0; i < tables.size(); ++i) {
    const ReportTable& t = *tables[i];
    for (size_t c = 0; c < t.columns.size(); ++c) {
      if (!Sortable(t, c)) continue;
      const std::string a = Id(t, i, c, 'a'), d = Id(t, i, c, 'd');
      css += fmt::format(
          "#{0}:checked~.sort-scroll .srow{{order:var(--r{2})}}"
          "#{1}:checked~.sort-scroll .srow{{order:calc(var(--r{2}) * -1)}}"
          "#{0}:checked~.sort-scroll label[for={0}],"
          "#{1}:checked~.sort-scroll label[for={1}]{{color:#1d4ed8}}\n",
          HtmlEscape(a), HtmlEscape(d), c);
    }
  }
  return css;
}

std::string SortableTableHtml(const ReportTable& t, size_t index) {
  std::string out =
      "<div class=\"sortable\"><p class=\"note\">The arrows in a heading sort the rows by that "
      "column.</p>\n";
  for (size_t c = 0; c < t.columns.size(); ++c)
    if (Sortable(t, c))
      out += fmt::format(
          "<input class=\"sort-key\" type=\"radio\" name=\"sort-{0}\" id=\"{1}\" "
          "aria-label=\"sort by {3}, ascending\"><input class=\"sort-key\" type=\"radio\" "
          "name=\"sort-{0}\" id=\"{2}\" aria-label=\"sort by {3}, descending\">\n",
          index, HtmlEscape(Id(t, index, c, 'a')), HtmlEscape(Id(t, index, c, 'd')),
          HtmlEscape(t.columns[c].label.empty() ? t.columns[c].key : t.columns[c].label));
  // Numbers narrow, text wider, prose (a fix, what it buys) widest so it is not squeezed into
  // a sliver; the table scrolls sideways when the window is narrower than that.
  std::string cols;
  double min_em = 0;
  for (const auto& c : t.columns) {
    cols += c.numeric ? " 6.5em" : c.detail ? " minmax(18em,4fr)" : " minmax(8em,2fr)";
    min_em += c.numeric ? 7 : c.detail ? 18 : 8;
  }
  out += fmt::format(
      "<div class=\"sort-scroll\"><div class=\"stable\" style=\"--cols:{};min-width:{}em\">\n"
      "<div class=\"shead\">",
      cols.substr(1), static_cast<int>(min_em));
  for (size_t c = 0; c < t.columns.size(); ++c) {
    out += "<span>" + HtmlEscape(t.columns[c].label);
    if (Sortable(t, c))
      out += fmt::format(
          " <label for=\"{}\" title=\"smallest first\">▲</label>"
          "<label for=\"{}\" title=\"largest first\">▼</label>",
          HtmlEscape(Id(t, index, c, 'a')), HtmlEscape(Id(t, index, c, 'd')));
    out += "</span>";
  }
  out += "</div>\n";
  for (size_t r = 0; r < t.rows.size(); ++r) {
    std::string ranks;
    for (size_t c = 0; c < t.columns.size(); ++c)
      if (Sortable(t, c)) ranks += fmt::format("--r{}:{};", c, t.sort_ranks[c][r]);
    out += fmt::format("<div class=\"srow{}\" style=\"{}\">", RowLevelClass(t, r), ranks);
    for (size_t c = 0; c < t.rows[r].size(); ++c) {
      const bool numeric = c < t.columns.size() && t.columns[c].numeric;
      out += fmt::format("<span{}>{}</span>", numeric ? " class=\"num\"" : "",
                         HtmlEscape(t.rows[r][c].text));
    }
    out += "</div>\n";
  }
  out += "</div></div>\n";
  for (const auto& n : t.notes) out += fmt::format("<p class=\"note\">{}</p>", HtmlEscape(n));
  return out + "</div>";
}

}  // namespace feedcheck
