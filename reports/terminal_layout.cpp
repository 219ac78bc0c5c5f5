#include "reports/terminal_layout.h"

#include <fmt/format.h>

#include <vector>

#include "core/plural.h"
#include "reports/text_wrap.h"

namespace feedcheck {

std::string TerminalLayout::operator()(const char* sgr, std::string_view text) const {
  if (!color_ || sgr == nullptr) return std::string(text);
  return fmt::format("\x1b[{}m{}\x1b[0m", sgr, text);
}

size_t TerminalLayout::FindingsShown() const {
  if (verbose_) return static_cast<size_t>(-1);
  return fold_ >= 4 ? 1 : fold_ >= 2 ? 2 : 3;
}

size_t TerminalLayout::RowsShown() const {
  if (verbose_ || fold_ < 2) return static_cast<size_t>(-1);
  return fold_ >= 5 ? 3 : fold_ >= 3 ? 4 : 8;
}

size_t TerminalLayout::NotesShown() const {
  if (verbose_ || fold_ < 2) return static_cast<size_t>(-1);
  return fold_ >= 3 ? 1 : 3;
}

size_t TerminalLayout::DiagnosticsShown() const {
  if (verbose_) return static_cast<size_t>(-1);
  return fold_ >= 8 ? 0 : fold_ >= 2 ? 1 : 3;
}

TextDetail TerminalLayout::MessageDetail() const {
  if (verbose_ || fold_ == 0) return TextDetail::kWhole;
  // The first sentence is the action to take: kept until the last fold level.
  return fold_ <= 4 ? TextDetail::kFirstSentence : TextDetail::kNone;
}

std::string FirstSentence(std::string_view text) {
  for (size_t i = 0; i + 2 < text.size(); ++i) {
    if (text[i] != '.' || text[i + 1] != ' ') continue;
    const char next = text[i + 2];
    if ((next >= 'A' && next <= 'Z') || (next >= '0' && next <= '9'))
      return std::string(text.substr(0, i + 1)) + " ...";
  }
  return std::string(text);
}

std::string WithDetail(std::string_view text, TextDetail detail) {
  switch (detail) {
    case TextDetail::kWhole:
      return std::string(text);
    case TextDetail::kFirstSentence:
      return FirstSentence(text);
    case TextDetail::kNone:
      break;
  }
  return "";
}

void ForEachTextLine(std::string_view text, void (*each)(std::string_view, void*), void* context) {
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    std::string_view line =
        text.substr(start, end == std::string_view::npos ? text.npos : end - start);
    if (end == std::string_view::npos && line.empty()) break;
    each(line, context);
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
}

namespace {

struct WrapContext {
  std::ostream* out;
  std::string_view indent;
  const TerminalLayout* paint;
  const char* sgr;
  std::string more;  ///< the indent of the text's later lines: never column 0
  bool first = true;
};

// A text's later lines are indented (two spaces where the text starts at column 0), so a line
// inside one text (a message or a name with a newline) never starts at column 0, where the
// report's own lines (Verdict:, headings) start.
void WrapOne(std::string_view line, void* context) {
  auto& c = *static_cast<WrapContext*>(context);
  const std::string_view indent = c.first ? c.indent : std::string_view(c.more);
  c.first = false;
  std::vector<std::string> pieces =
      WrapText(line, c.paint->width(), DisplayWidth(indent), std::string(indent));
  for (size_t i = 0; i < pieces.size(); ++i) {
    std::string_view body = pieces[i];
    if (i > 0) body.remove_prefix(indent.size());
    *c.out << indent << (*c.paint)(c.sgr, body) << "\n";
  }
}

struct IndentContext {
  std::ostream* out;
  std::string_view indent;
};

void IndentOne(std::string_view line, void* context) {
  const auto& c = *static_cast<IndentContext*>(context);
  *c.out << c.indent << line << "\n";
}

}  // namespace

void PrintWrapped(std::ostream& out, std::string_view text, std::string_view indent,
                  const TerminalLayout& paint, const char* sgr) {
  WrapContext context{&out, indent, &paint, sgr, indent.empty() ? "  " : std::string(indent)};
  ForEachTextLine(text, WrapOne, &context);
}

void PrintIndented(std::ostream& out, std::string_view text, std::string_view indent) {
  IndentContext context{&out, indent};
  ForEachTextLine(text, IndentOne, &context);
}

void PrintMore(std::ostream& out, size_t more, std::string_view singular, std::string_view plural,
               std::string_view indent, const TerminalLayout& paint) {
  if (more == 0) return;
  PrintWrapped(out,
               fmt::format("... {} more {}; -v lists them", more,
                           NounFor(static_cast<double>(more), singular, plural)),
               indent, paint, kSgrDim);
}

}  // namespace feedcheck
