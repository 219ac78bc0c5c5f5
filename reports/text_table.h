// A plain aligned text table for human output: columns padded to their widest cell.
#pragma once

#include <string>
#include <vector>

namespace feedcheck {

class TextTable {
 public:
  /// Column headers; an empty header row prints no header line.
  explicit TextTable(std::vector<std::string> headers = {}) : headers_(std::move(headers)) {}
  void AddRow(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }
  /// Right-aligns column `column` (numbers read better that way).
  void AlignRight(size_t column) {
    if (right_.size() <= column) right_.resize(column + 1, false);
    right_[column] = true;
  }
  /// Wraps cells wider than `chars` at spaces onto continuation lines within their column, so
  /// a long message does not push the next column off the screen; 0 (the default) never wraps.
  void WrapCellsAt(size_t chars) { wrap_ = chars; }
  /// Wraps the widest columns' cells further, down to 12 code points each, until a row fits in
  /// `columns` (the indent included); 0 (the default) never narrows.
  void FitTo(size_t columns) { fit_ = columns; }
  /// Rows indented by `indent` spaces, columns separated by two spaces, no trailing blanks.
  /// `tallest_row`, when given, gets the most physical lines one row took (its cells wrapped).
  std::string Render(int indent = 2, size_t* tallest_row = nullptr) const;

 private:
  std::vector<std::string> headers_;
  std::vector<std::vector<std::string>> rows_;
  std::vector<bool> right_;
  size_t wrap_ = 0;
  size_t fit_ = 0;
};

/// 2000000 -> "2,000,000"; non-integers keep three significant digits ("16.7").
std::string Grouped(double value);

}  // namespace feedcheck
