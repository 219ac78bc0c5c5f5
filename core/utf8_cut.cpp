#include "core/utf8_cut.h"

namespace feedcheck {
namespace {

bool Continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

}  // namespace

std::string_view Utf8Prefix(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  size_t end = max_bytes;
  // Back off while the first byte left out continues a character begun inside the prefix.
  while (end > 0 && Continuation(text[end])) --end;
  return text.substr(0, end);
}

std::string_view Utf8SuffixFrom(std::string_view text, size_t start) {
  if (start >= text.size()) return {};
  while (start < text.size() && Continuation(text[start])) ++start;
  return text.substr(start);
}

}  // namespace feedcheck
