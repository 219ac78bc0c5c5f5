#include "reports/text_wrap.h"

#include <cstdlib>

namespace feedcheck {

size_t DisplayWidth(std::string_view text) {
  size_t n = 0;
  for (unsigned char c : text)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

namespace {

// A path too long for a line, cut after its slashes ("tests/", "data/", ...): the pieces are
// glued back together wherever they fit, so only a line break separates them. URLs stay whole
// (a URL cut in two no longer opens).
std::vector<std::string_view> PathPieces(std::string_view word, size_t room) {
  if (DisplayWidth(word) <= room || word.find('/') == std::string_view::npos ||
      word.find("://") != std::string_view::npos)
    return {word};
  std::vector<std::string_view> pieces;
  size_t start = 0;
  while (start < word.size()) {
    size_t slash = word.find('/', start);
    size_t end = slash == std::string_view::npos ? word.size() : slash + 1;
    pieces.push_back(word.substr(start, end - start));
    start = end;
  }
  return pieces;
}

}  // namespace

std::vector<std::string> WrapText(std::string_view text, size_t width, size_t first_indent,
                                  std::string_view next_indent) {
  std::vector<std::string> lines;
  std::string line;
  size_t used = first_indent;  // columns taken on the current line, indent included
  bool first = true;
  size_t start = 0;
  const size_t next_width = DisplayWidth(next_indent);
  const size_t room = width > next_width ? width - next_width : 1;
  while (start <= text.size()) {
    size_t end = text.find(' ', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view word = text.substr(start, end - start);
    start = end + 1;
    if (word.empty()) continue;
    const std::vector<std::string_view> pieces = PathPieces(word, room);
    for (size_t k = 0; k < pieces.size(); ++k) {
      const bool glued = k > 0;  // the rest of a path: no space before it
      const size_t w = DisplayWidth(pieces[k]);
      const bool empty = first ? line.empty() : line.size() == next_indent.size();
      if (!empty && used + (glued ? 0 : 1) + w > width) {
        lines.push_back(line);
        line = std::string(next_indent);
        used = next_width;
        first = false;
      }
      const bool now_empty = first ? line.empty() : line.size() == next_indent.size();
      if (!now_empty && !glued) {
        line += ' ';
        ++used;
      }
      line += pieces[k];
      used += w;
    }
  }
  if (lines.empty() || !line.empty()) lines.push_back(line);
  return lines;
}

size_t ChooseTerminalWidth(const char* columns_env, size_t tty_columns) {
  if (columns_env != nullptr && *columns_env != '\0') {
    char* end = nullptr;
    long n = std::strtol(columns_env, &end, 10);
    if (end != nullptr && *end == '\0' && n >= 40 && n <= 1000) return static_cast<size_t>(n);
  }
  if (tty_columns >= 40 && tty_columns <= 1000) return tty_columns;
  return kDefaultTerminalWidth;
}

}  // namespace feedcheck
