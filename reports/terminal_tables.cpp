#include "reports/terminal_tables.h"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "core/ascii_text.h"
#include "core/plural.h"
#include "reports/text_table.h"
#include "reports/text_wrap.h"

namespace feedcheck {
namespace {

// Long cells (lint's problem and change texts) wrap inside their column at this width, so a
// grid stays readable; the widest columns narrow further until a row fits the terminal.
constexpr size_t kTableCellChars = 48;
// A grid whose rows wrap past this many lines reads worse than records.
constexpr size_t kTallestGridRow = 4;
// A column whose cells are all at most this wide goes on a record's first line.
constexpr size_t kShortCellChars = 32;

size_t WidestLine(const std::string& text) {
  size_t widest = 0, start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    widest = std::max(widest, DisplayWidth(std::string_view(text).substr(start, end - start)));
    start = end + 1;
  }
  return widest;
}

// A name shortened to `chars` keeping its start and end ("nvidia-smi-loc…small-files"): names
// are hyphenated and cannot wrap at spaces. Only plain one-word names: others wrap.
std::string Shortened(const std::string& name, size_t chars) {
  if (DisplayWidth(name) <= chars || chars < 8 || name.size() != DisplayWidth(name) ||
      name.find(' ') != std::string::npos)
    return name;
  const size_t head = (chars - 1) / 2, tail = chars - 1 - head;
  return name.substr(0, head) + "…" + name.substr(name.size() - tail);
}

// The table as the terminal shows it: without its detail columns unless -v, and, when its rows
// are wider than the terminal, its names shortened (down to kShortestName, never with -v) before
// any other column wraps.
constexpr size_t kShortestName = 16;
ReportTable Shown(const ReportTable& t, const TerminalLayout& paint) {
  ReportTable out;
  out.title = t.title;
  out.notes = t.notes;
  // A note's short form when the screen must say less (the price's source by its title).
  for (size_t i = 0; i < out.notes.size() && i < t.note_briefs.size(); ++i)
    if (paint.ShowsNoteBriefs() && !t.note_briefs[i].empty()) out.notes[i] = t.note_briefs[i];
  std::vector<size_t> keep;
  for (size_t c = 0; c < t.columns.size(); ++c)
    if (!t.columns[c].detail || paint.verbose()) keep.push_back(c);
  for (size_t c : keep) out.columns.push_back(t.columns[c]);
  for (const auto& row : t.rows) {
    std::vector<TableCell> cells;
    for (size_t c : keep)
      if (c < row.size()) cells.push_back(row[c]);
    out.rows.push_back(std::move(cells));
  }
  std::vector<size_t> widths(out.columns.size(), 0);
  for (size_t c = 0; c < out.columns.size(); ++c) widths[c] = DisplayWidth(out.columns[c].label);
  for (const auto& row : out.rows)
    for (size_t c = 0; c < row.size() && c < widths.size(); ++c)
      widths[c] = std::max(widths[c], DisplayWidth(row[c].text));
  size_t total = 2 + (widths.empty() ? 0 : 2 * (widths.size() - 1));
  for (size_t w : widths) total += w;
  // -v says everything: whole names (a table too wide for them is laid out as records).
  for (size_t c = 0; c < out.columns.size() && total > paint.width() && !paint.verbose(); ++c) {
    if (!out.columns[c].shortenable || widths[c] <= kShortestName) continue;
    const size_t chars =
        std::max(kShortestName, widths[c] - std::min(widths[c], total - paint.width()));
    for (auto& row : out.rows)
      if (c < row.size()) row[c].text = Shortened(row[c].text, chars);
    total -= widths[c] - chars;
  }
  return out;
}

// The table as an aligned grid; "" when it does not fit the width or a row wraps too tall.
std::string Grid(const ReportTable& t, size_t rows, const TerminalLayout& paint) {
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
  for (size_t r = 0; r < rows; ++r) {
    std::vector<std::string> cells;
    for (const auto& cell : t.rows[r]) cells.push_back(cell.text);
    table.AddRow(std::move(cells));
  }
  size_t tallest = 0;
  std::string text = table.Render(2, &tallest);
  if (WidestLine(text) > paint.width() || tallest > kTallestGridRow) return "";
  return text;
}

// One record per row: the first column and the short ones on a line ("line 14" for a numeric
// cell, which alone would not say what it counts; every cell labelled when none is long), each
// long cell under it, labelled.
void Records(const ReportTable& t, size_t rows, std::ostream& out, const TerminalLayout& paint) {
  std::vector<bool> is_short(t.columns.size(), true);
  for (size_t r = 0; r < t.rows.size(); ++r)
    for (size_t c = 0; c < t.rows[r].size() && c < is_short.size(); ++c)
      if (c > 0 && DisplayWidth(t.rows[r][c].text) > kShortCellChars) is_short[c] = false;
  // Without long cells to explain it, every short cell says which column it is.
  const bool all_short = std::find(is_short.begin(), is_short.end(), false) == is_short.end();
  for (size_t r = 0; r < rows; ++r) {
    const auto& row = t.rows[r];
    std::string head;
    for (size_t c = 0; c < row.size() && c < is_short.size(); ++c) {
      if (!is_short[c] || row[c].text.empty()) continue;
      std::string cell = row[c].text;
      if (c > 0 && (t.columns[c].numeric || all_short) && !t.columns[c].label.empty())
        cell = ToLower(t.columns[c].label) + " " + cell;
      head += (head.empty() ? "" : "  ") + cell;
    }
    PrintWrapped(out, head, "  ", paint, kSgrBold);
    for (size_t c = 0; c < row.size() && c < is_short.size(); ++c) {
      if (is_short[c] || row[c].text.empty()) continue;
      std::string text = WithDetail(row[c].text, paint.MessageDetail());
      if (text.empty()) continue;
      const std::string& label = t.columns[c].label;
      PrintWrapped(out, label.empty() ? text : label + ": " + text, "    ", paint);
    }
  }
}

}  // namespace

void PrintTerminalTables(const std::vector<ReportTable>& tables, std::ostream& out,
                         const TerminalLayout& paint, size_t fold_first) {
  for (size_t i = 0; i < tables.size(); ++i) {
    const ReportTable& whole = tables[i];
    const ReportTable t = Shown(whole, paint);
    if ((whole.folded || i < fold_first) && !paint.verbose()) {
      out << "\n";
      PrintWrapped(out,
                   fmt::format("{}: {}; -v lists them", t.title.empty() ? "Table" : t.title,
                               Counted(static_cast<double>(t.rows.size()), "row")),
                   "", paint, kSgrDim);
      continue;
    }
    if (!t.title.empty()) {
      out << "\n";
      PrintWrapped(out, t.title, "", paint, kSgrBold);
    }
    const size_t rows = std::min(t.rows.size(), paint.RowsShown());
    std::string grid = Grid(t, rows, paint);
    if (!grid.empty())
      out << grid;
    else
      Records(t, rows, out, paint);
    PrintMore(out, t.rows.size() - rows, "row", "rows", "  ", paint);
    const size_t notes = std::min(t.notes.size(), paint.NotesShown());
    for (size_t n = 0; n < notes; ++n) PrintWrapped(out, t.notes[n], "  ", paint);
    PrintMore(out, t.notes.size() - notes, "note", "notes", "  ", paint);
  }
}

}  // namespace feedcheck
