// Cutting text to a byte budget without splitting a UTF-8 character: a quoted log line or a
// YAML line cut at byte N must not end in a lone lead byte (0xC2 of "µ"), or every report that
// quotes it stops being valid UTF-8.
#pragma once

#include <string_view>

namespace feedcheck {

/// The longest prefix of `text` of at most `max_bytes` bytes that ends on a character boundary
/// (a continuation byte is never the first byte left out... nor a lead byte the last one kept).
std::string_view Utf8Prefix(std::string_view text, size_t max_bytes);

/// The part of `text` from byte `start` on, moved forward past continuation bytes so it begins
/// on a character boundary.
std::string_view Utf8SuffixFrom(std::string_view text, size_t start);

}  // namespace feedcheck
