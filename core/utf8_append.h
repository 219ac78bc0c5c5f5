// One code point appended as UTF-8: the JSON and XML readers' escapes (\u00e9, &#233;) and
// UTF-16 input decoded (analyzers/text_encoding.h) all write their characters through it.
#pragma once

#include <cstdint>
#include <string>

namespace feedcheck {

/// Appends `code_point` (at most U+10FFFF; a surrogate is the caller's to replace) as UTF-8.
inline void AppendUtf8(uint32_t code_point, std::string* out) {
  const uint32_t cp = code_point;
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

}  // namespace feedcheck
