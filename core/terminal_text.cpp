#include "core/terminal_text.h"

#include <fmt/format.h>

#include "core/json_text.h"

namespace feedcheck {
namespace {

// The code point of the 3-byte UTF-8 sequence at s[i] (E2 80 8E -> U+200E), or 0.
unsigned ThreeByte(std::string_view s, size_t i) {
  if (i + 2 >= s.size()) return 0;
  const auto a = static_cast<unsigned char>(s[i]), b = static_cast<unsigned char>(s[i + 1]),
             c = static_cast<unsigned char>(s[i + 2]);
  if ((a & 0xf0) != 0xe0 || (b & 0xc0) != 0x80 || (c & 0xc0) != 0x80) return 0;
  return ((a & 0x0fu) << 12) | ((b & 0x3fu) << 6) | (c & 0x3fu);
}

// Bidirectional formatting characters (Unicode TR9) and the line/paragraph separators.
bool IsBidiOrSeparator(unsigned cp) {
  return cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
         (cp >= 0x2066 && cp <= 0x2069) || cp == 0x2028 || cp == 0x2029;
}

}  // namespace

std::string VisibleControls(std::string_view text, bool keep_newlines) {
  std::string valid = ValidUtf8(text);
  std::string out;
  out.reserve(valid.size());
  for (size_t i = 0; i < valid.size(); ++i) {
    const auto c = static_cast<unsigned char>(valid[i]);
    if ((c < 0x20 && !(keep_newlines && (c == '\n' || c == '\t'))) || c == 0x7f) {
      out += c == '\n'   ? std::string("\\n")
             : c == '\t' ? std::string("\\t")
                         : fmt::format("\\x{:02x}", c);
    } else if (c == 0xc2 && i + 1 < valid.size() &&
               static_cast<unsigned char>(valid[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(valid[i + 1]) <= 0x9f) {
      // U+0080..U+009F, the C1 controls (0x9b is a one-byte CSI on some terminals).
      out += fmt::format("\\u{:04x}", static_cast<unsigned char>(valid[i + 1]));
      ++i;
    } else if (c == 0xd8 && i + 1 < valid.size() &&
               static_cast<unsigned char>(valid[i + 1]) == 0x9c) {
      out += "\\u061c";  // ARABIC LETTER MARK, a bidi mark
      ++i;
    } else if (const unsigned cp = c == 0xe2 ? ThreeByte(valid, i) : 0; IsBidiOrSeparator(cp)) {
      out += fmt::format("\\u{:04x}", cp);
      i += 2;
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  return out;
}

std::string TerminalSafe(std::string_view text) {
  std::string visible = VisibleControls(text, true);
  if (visible.find('\n') == std::string::npos) return visible;
  std::string out;
  out.reserve(visible.size() + 16);
  for (size_t i = 0; i < visible.size(); ++i) {
    out.push_back(visible[i]);
    if (visible[i] == '\n' && i + 1 < visible.size() && visible[i + 1] != '\n' &&
        visible[i + 1] != ' ' && visible[i + 1] != '\t')
      out += "  ";
  }
  return out;
}

std::string TerminalSafeLine(std::string_view text) { return VisibleControls(text, false); }

}  // namespace feedcheck
