// The terminal report's layout helpers: colour, the width lines wrap to, and how much a section
// may say. The default report has a budget of lines (kTerminalLineBudget); when its full default
// form runs past it, it is rendered again at a higher `fold` level, each saying less, until it
// fits: 1 cuts finding messages, section lines ("Fix: ...": the action, its first sentence, stays)
// and long table cells to their first sentence, shows a note's short form (a price's source by
// its title) and drops a fix estimate's assumptions; 2 shows 2 findings, 8 rows of a table and 3 of
// its notes; 3 shows 4 rows, 4 nodes and 1 note; 4 shows 1 finding; 5 leaves the messages out (a
// finding's first sentence, the action to take, stays until then) and shows 3 rows; 6 counts the
// findings left out and the secondary ones in one line; 7 folds the tables after the findings
// (the figures that back them: reads, prices) but the last to one line each, as a folded table
// is; 8 quotes no warning about the inputs (they stay counted); 9 folds the last table too. -v
// says everything.
#pragma once

#include <ostream>
#include <string>
#include <string_view>

namespace feedcheck {

/// The lines a default terminal report aims to stay within: one screen.
inline constexpr size_t kTerminalLineBudget = 40;
/// The highest fold level (TerminalLayout::fold()).
inline constexpr int kMaxFold = 9;

/// How much of a long text a section shows.
enum class TextDetail { kWhole, kFirstSentence, kNone };

class TerminalLayout {
 public:
  TerminalLayout(bool color, size_t width, bool verbose, int fold = 0)
      : color_(color), width_(width), verbose_(verbose), fold_(verbose ? 0 : fold) {}
  /// `text` in the SGR colour `sgr` (nullptr: none); unchanged without colour.
  std::string operator()(const char* sgr, std::string_view text) const;
  size_t width() const { return width_; }
  bool verbose() const { return verbose_; }
  int fold() const { return fold_; }

  /// How many findings are shown in full (the rest counted in one line).
  size_t FindingsShown() const;
  /// How many rows of a table and notes under a table are shown.
  size_t RowsShown() const;
  size_t NotesShown() const;
  /// How many warnings about the inputs are quoted.
  size_t DiagnosticsShown() const;
  /// A finding's message, a long table cell: whole, first sentence, or none.
  TextDetail MessageDetail() const;
  /// A section's line ("Fix: ..."): whole, or its first sentence; never none (it may be the
  /// action to take).
  TextDetail SectionLineDetail() const {
    return verbose_ || fold_ == 0 ? TextDetail::kWhole : TextDetail::kFirstSentence;
  }
  /// Whether a table's note is shown in its short form when it has one.
  bool ShowsNoteBriefs() const { return !verbose_ && fold_ >= 1; }
  /// Whether the findings left out and the secondary ones are counted in one line.
  bool CountsLeftOutTogether() const { return !verbose_ && fold_ >= 6; }
  /// How many of the report's own tables (after the findings), from the first, show as one
  /// line counting their rows.
  size_t ReportTablesFolded(size_t tables) const {
    if (verbose_ || fold_ < 7) return 0;
    return fold_ >= 9 || tables == 0 ? tables : tables - 1;
  }
  /// Whether a fix estimate lists its assumptions.
  bool ShowsAssumptions() const { return verbose_ || fold_ == 0; }

 private:
  bool color_;
  size_t width_;
  bool verbose_;
  int fold_;
};

/// SGR codes the terminal report uses.
inline constexpr const char* kSgrBold = "1";
inline constexpr const char* kSgrDim = "2";

/// The first sentence of `text` (up to a full stop followed by a space and a capital letter
/// or a digit), with " ..." after it when more followed; the whole text when it is one sentence.
std::string FirstSentence(std::string_view text);
/// `text` as `detail` asks: whole, its first sentence, or "".
std::string WithDetail(std::string_view text, TextDetail detail);

/// Calls `each` with every line of a multi-line text (no newlines; a final newline ends the
/// last line rather than starting an empty one).
void ForEachTextLine(std::string_view text, void (*each)(std::string_view, void*), void* context);

/// Prose: each line of `text` after `indent`, wrapped to the width at spaces, continuation
/// lines indented alike; `sgr` paints each physical line.
void PrintWrapped(std::ostream& out, std::string_view text, std::string_view indent,
                  const TerminalLayout& paint, const char* sgr = nullptr);
/// Every line of a multi-line text as it is, after `indent` (config fragments: never re-flowed).
void PrintIndented(std::ostream& out, std::string_view text, std::string_view indent);
/// "... 12 more nodes; -v lists them": what a folded list leaves out (nothing when `more` is 0).
void PrintMore(std::ostream& out, size_t more, std::string_view singular, std::string_view plural,
               std::string_view indent, const TerminalLayout& paint);

}  // namespace feedcheck
