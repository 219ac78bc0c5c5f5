#include "reports/html_escape.h"

#include "core/terminal_text.h"

namespace feedcheck {

std::string HtmlEscape(std::string_view raw) {
  // Controls and bidi characters visible first (core/terminal_text: one rule for every output):
  // a U+202E in a folder name must not reorder the page, an ESC or BEL has no place in a file.
  const std::string text = VisibleControls(raw, true);
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace feedcheck
