#include "reports/text_table.h"

#include <algorithm>
#include <cmath>

#include "core/units.h"

namespace feedcheck {
namespace {

// Display width in code points, so "µs" and "×" do not skew the columns.
size_t Width(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

// The widest space-separated word of `text`: how narrow its column can wrap.
size_t LongestWord(const std::string& text) {
  size_t longest = 0, start = 0;
  while (start <= text.size()) {
    size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    longest = std::max(longest, Width(text.substr(start, end - start)));
    start = end + 1;
  }
  return longest;
}

// A path wider than `limit` cut after its slashes into pieces that fit (a piece with no slash
// to cut at stays whole).
std::vector<std::string> SplitPath(const std::string& word, size_t limit) {
  std::vector<std::string> pieces;
  std::string piece;
  size_t start = 0;
  while (start < word.size()) {
    size_t slash = word.find('/', start);
    size_t end = slash == std::string::npos ? word.size() : slash + 1;
    std::string part = word.substr(start, end - start);
    if (!piece.empty() && Width(piece) + Width(part) > limit) {
      pieces.push_back(piece);
      piece.clear();
    }
    piece += part;
    start = end;
  }
  if (!piece.empty()) pieces.push_back(piece);
  return pieces;
}

// `text` cut at spaces into lines of at most `limit` code points; a word longer than the limit
// stays whole on its own line (a URL is better long than broken), unless `cut_paths` lets a
// path be cut after its slashes (a table fitted to the terminal).
std::vector<std::string> WrapCell(const std::string& text, size_t limit, bool cut_paths) {
  if (limit == 0 || Width(text) <= limit) return {text};
  std::vector<std::string> lines;
  std::string line;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    std::string word = text.substr(start, end - start);
    if (cut_paths && Width(word) > limit && word.find('/') != std::string::npos &&
        word.find("://") == std::string::npos) {
      std::vector<std::string> pieces = SplitPath(word, limit);
      for (size_t i = 0; i + 1 < pieces.size(); ++i) {
        if (!line.empty()) lines.push_back(line);
        line = pieces[i];
      }
      word = pieces.back();
      if (!line.empty()) {
        lines.push_back(line);
        line.clear();
      }
    }
    if (!line.empty() && Width(line) + 1 + Width(word) > limit) {
      lines.push_back(line);
      line.clear();
    }
    if (!word.empty()) line += (line.empty() ? "" : " ") + word;
    start = end + 1;
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
}

}  // namespace

std::string TextTable::Render(int indent, size_t* tallest_row) const {
  std::vector<size_t> widths;
  auto measure = [&](const std::vector<std::string>& row) {
    if (widths.size() < row.size()) widths.resize(row.size(), 0);
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], Width(row[i]));
  };
  // Each column's limit: the common one, then narrowed (widest first) until a row fits.
  size_t columns = headers_.size();
  for (const auto& row : rows_) columns = std::max(columns, row.size());
  std::vector<size_t> limit(columns, 0);
  for (const auto& row : rows_)
    for (size_t i = 0; i < row.size(); ++i) limit[i] = std::max(limit[i], Width(row[i]));
  for (size_t i = 0; i < headers_.size(); ++i) limit[i] = std::max(limit[i], Width(headers_[i]));
  if (wrap_ > 0)
    for (size_t& l : limit) l = std::min(l, std::max(wrap_, size_t{1}));
  if (fit_ > 0 && columns > 0) {
    constexpr size_t kNarrowest = 12;
    auto total = [&] {
      size_t sum = static_cast<size_t>(indent) + 2 * (columns - 1);
      for (size_t l : limit) sum += l;
      return sum;
    };
    // First the columns a long header makes wide ("Full-rate nodes" over "8"): their header
    // wraps onto a second line, down to its longest word and the widest cell.
    std::vector<size_t> cell_width(columns, 0), header_floor(columns, 0);
    for (const auto& row : rows_)
      for (size_t i = 0; i < row.size(); ++i)
        cell_width[i] = std::max(cell_width[i], Width(row[i]));
    for (size_t i = 0; i < headers_.size(); ++i)
      header_floor[i] = std::max(cell_width[i], LongestWord(headers_[i]));
    while (total() > fit_) {
      size_t pick = columns;
      for (size_t i = 0; i < columns; ++i)
        if (limit[i] > header_floor[i] && (pick == columns || limit[i] > limit[pick])) pick = i;
      if (pick == columns) break;
      --limit[pick];
    }
    // Then the widest columns whose cells can wrap (a word is never cut: a column narrower than
    // its longest word would not get narrower on screen).
    std::vector<size_t> word_floor(columns, 0);
    for (const auto& row : rows_)
      for (size_t i = 0; i < row.size(); ++i)
        word_floor[i] = std::max(word_floor[i], LongestWord(row[i]));
    for (size_t i = 0; i < headers_.size(); ++i)
      word_floor[i] = std::max(word_floor[i], LongestWord(headers_[i]));
    while (total() > fit_) {
      size_t pick = columns;
      for (size_t i = 1; i < columns; ++i)
        if (limit[i] > std::max(kNarrowest, word_floor[i]) &&
            (pick == columns || limit[i] > limit[pick]))
          pick = i;
      if (pick == columns) break;
      --limit[pick];
    }
  }
  // Each row as one or more physical lines, cells wrapped to their column's limit.
  std::vector<std::vector<std::string>> lines;
  if (tallest_row != nullptr) *tallest_row = 0;
  for (const auto& row : rows_) {
    std::vector<std::vector<std::string>> cells;
    size_t height = 1;
    for (size_t i = 0; i < row.size(); ++i) {
      cells.push_back(WrapCell(row[i], fit_ > 0 || wrap_ > 0 ? limit[i] : 0, fit_ > 0));
      height = std::max(height, cells.back().size());
    }
    if (tallest_row != nullptr) *tallest_row = std::max(*tallest_row, height);
    for (size_t h = 0; h < height; ++h) {
      std::vector<std::string> line;
      for (const auto& c : cells) line.push_back(h < c.size() ? c[h] : std::string());
      lines.push_back(std::move(line));
    }
  }
  for (size_t i = 0; i < headers_.size(); ++i) {
    std::vector<std::string> head(i + 1);
    for (const auto& piece : WrapCell(headers_[i], fit_ > 0 ? limit[i] : 0, false)) {
      head[i] = piece;
      measure(head);
    }
  }
  for (const auto& line : lines) measure(line);

  std::string out;
  auto emit = [&](const std::vector<std::string>& row) {
    std::string line(static_cast<size_t>(indent), ' ');
    for (size_t i = 0; i < row.size(); ++i) {
      const size_t pad = widths[i] - Width(row[i]);
      const bool right = i < right_.size() && right_[i];
      if (right) line.append(pad, ' ');
      line += row[i];
      if (!right && i + 1 < row.size()) line.append(pad, ' ');
      if (i + 1 < row.size()) line += "  ";
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line;
    out += '\n';
  };
  if (!headers_.empty()) {
    // A header wider than its column wraps too, onto as many lines as it needs.
    std::vector<std::vector<std::string>> heads;
    size_t height = 1;
    for (size_t i = 0; i < headers_.size(); ++i) {
      heads.push_back(WrapCell(headers_[i], fit_ > 0 ? limit[i] : 0, false));
      height = std::max(height, heads.back().size());
    }
    for (size_t h = 0; h < height; ++h) {
      std::vector<std::string> line;
      for (const auto& c : heads) line.push_back(h < c.size() ? c[h] : std::string());
      emit(line);
    }
    std::vector<std::string> rule;
    for (size_t w : widths) rule.emplace_back(w, '-');
    emit(rule);
  }
  for (const auto& line : lines) emit(line);
  return out;
}

std::string Grouped(double value) {
  if (!std::isfinite(value) || value != std::floor(value) || std::fabs(value) >= 1e15)
    return FormatNumber(value);
  std::string digits = FormatNumber(std::fabs(value));
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return value < 0 ? "-" + out : out;
}

}  // namespace feedcheck
