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

}  // namespace

std::string TextTable::Render(int indent) const {
  std::vector<size_t> widths;
  auto measure = [&](const std::vector<std::string>& row) {
    if (widths.size() < row.size()) widths.resize(row.size(), 0);
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], Width(row[i]));
  };
  measure(headers_);
  for (const auto& row : rows_) measure(row);

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
    emit(headers_);
    std::vector<std::string> rule;
    for (size_t w : widths) rule.emplace_back(w, '-');
    emit(rule);
  }
  for (const auto& row : rows_) emit(row);
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
