// A reader of one complete JSON unit in memory, for streaming scanners that hand it a window of
// bytes: running out of bytes is kMore (nothing consumed: feed more and try the unit again from
// its start), a number out of range is kBad (the cursor is past it), anything that is not JSON
// is kHostile; nesting is counted against a bound, never recursed. Used by the profiler trace
// scanner (analyzers/torch_trace.h). Inline: the scanner calls it for every field of every event.
#pragma once

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include "core/utf8_append.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace feedcheck::analyzers::json_unit {

inline bool IsWs(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

/// The first '"' or '\\' in [p, end); end when none.
const char* FindQuoteOrBackslash(const char* p, const char* end);

struct Cursor {
  enum Status { kOk, kMore, kBad, kHostile };
  Cursor(const char* begin, const char* stop, int at_depth, int limit)
      : p(begin), end(stop), depth(at_depth), max_depth(limit) {}
  const char* p;
  const char* end;
  int depth;
  int max_depth;
  Status status = kOk;
  std::string why;
  const char* at = nullptr;

  bool Fail(Status s, const char* where, std::string message);
  bool More() { return Fail(kMore, p, ""); }
  /// Skips whitespace; kMore at the end.
  bool Ws();
  bool Expect(char c);
  /// At '"': the string's text (a view into the buffer, or `scratch` when it has escapes).
  bool String(std::string_view* out, std::string* scratch);
  bool SkipString();
  /// A JSON number; out of range (or too long to be one) is kBad, the cursor past it.
  bool Number(double* out);
  /// Any value, nesting bounded by max_depth.
  bool SkipValue();
};

// Definitions: inline, so the scanner's hot loop has them at hand.

inline const char* FindQuoteOrBackslash(const char* p, const char* end) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
  for (; p + 16 <= end; p += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const int m =
        _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)));
    if (m != 0) return p + __builtin_ctz(static_cast<unsigned>(m));
  }
#endif
  for (; p < end; ++p)
    if (*p == '"' || *p == '\\') return p;
  return end;
}

inline bool Cursor::Fail(Status s, const char* where, std::string message) {
  status = s;
  at = where;
  why = std::move(message);
  return false;
}

inline bool Cursor::Ws() {
  while (p < end && IsWs(*p)) ++p;
  return p < end || More();
}

inline bool Cursor::Expect(char c) {
  if (!Ws()) return false;
  if (*p != c) return Fail(kHostile, p, fmt::format("expected '{}'", c));
  ++p;
  return true;
}

inline bool Cursor::String(std::string_view* out, std::string* scratch) {
  const char* start = ++p;
  const char* q = FindQuoteOrBackslash(p, end);
  if (q == end) return More();
  if (*q == '"') {
    *out = std::string_view(start, static_cast<size_t>(q - start));
    p = q + 1;
    return true;
  }
  scratch->assign(start, q);
  p = q;
  while (true) {
    if (p >= end) return More();
    char c = *p;
    if (c == '"') break;
    if (c != '\\') {
      scratch->push_back(c);
      ++p;
      continue;
    }
    if (p + 1 >= end) return More();
    char e = p[1];
    p += 2;
    switch (e) {
      case 'n':
        scratch->push_back('\n');
        break;
      case 't':
        scratch->push_back('\t');
        break;
      case 'r':
        scratch->push_back('\r');
        break;
      case 'b':
        scratch->push_back('\b');
        break;
      case 'f':
        scratch->push_back('\f');
        break;
      case 'u': {
        if (p + 4 > end) return More();
        uint32_t cp = 0;
        auto r = std::from_chars(p, p + 4, cp, 16);
        if (r.ptr != p + 4) return Fail(kHostile, p, "a bad \\u escape");
        AppendUtf8(cp, scratch);
        p += 4;
        break;
      }
      default:
        scratch->push_back(e);
        break;
    }
  }
  ++p;
  *out = *scratch;
  return true;
}

inline bool Cursor::SkipString() {
  ++p;
  while (true) {
    const char* q = FindQuoteOrBackslash(p, end);
    if (q == end) return More();
    if (*q == '"') {
      p = q + 1;
      return true;
    }
    if (q + 1 >= end) return More();
    p = q + 2;
  }
}

inline bool Cursor::Number(double* out) {
  const char* start = p;
  const char* q = p;
  if (q < end && *q == '-') ++q;
  uint64_t mantissa = 0;
  int digits = 0, frac_digits = 0;
  bool simple = true;
  while (q < end && *q >= '0' && *q <= '9') {
    if (digits < 19) mantissa = mantissa * 10 + static_cast<uint64_t>(*q - '0');
    ++digits;
    ++q;
  }
  if (q < end && *q == '.') {
    ++q;
    while (q < end && *q >= '0' && *q <= '9') {
      if (digits + frac_digits < 19) {
        mantissa = mantissa * 10 + static_cast<uint64_t>(*q - '0');
        ++frac_digits;
      }
      ++q;
    }
  }
  if (q < end && (*q == 'e' || *q == 'E')) {
    simple = false;
    ++q;
    if (q < end && (*q == '+' || *q == '-')) ++q;
    while (q < end && *q >= '0' && *q <= '9') ++q;
  }
  if (q == end) return More();
  if (digits == 0 && frac_digits == 0) return Fail(kHostile, start, "expected a value");
  p = q;
  if (q - start > 64) return Fail(kBad, start, "a number too long to read");
  if (simple && digits + frac_digits <= 19 && digits <= 18) {
    static constexpr double kPow10[] = {1,    1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,
                                        1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19};
    double v = static_cast<double>(mantissa) / kPow10[frac_digits];
    *out = *start == '-' ? -v : v;
    return true;
  }
  double v = 0;
  auto r = std::from_chars(start, q, v);
  if (r.ec == std::errc::result_out_of_range || !std::isfinite(v))
    return Fail(kBad, start,
                fmt::format("a number out of range ({})",
                            std::string_view(start, std::min<size_t>(q - start, 32))));
  if (r.ec != std::errc() || r.ptr != q) return Fail(kHostile, start, "a bad number");
  *out = v;
  return true;
}

inline bool Cursor::SkipValue() {
  if (!Ws()) return false;
  char c = *p;
  if (c == '"') return SkipString();
  if (c != '{' && c != '[') {
    if (c == '-' || (c >= '0' && c <= '9')) {
      double ignored;
      if (Number(&ignored)) return true;
      if (status == kBad) {  // a skipped number's range does not matter
        status = kOk;
        return true;
      }
      return false;
    }
    const char* start = p;
    while (p < end && ((*p >= 'a' && *p <= 'z'))) ++p;
    if (p == end) return More();
    std::string_view word(start, static_cast<size_t>(p - start));
    if (word == "true" || word == "false" || word == "null") return true;
    return Fail(kHostile, start, "expected a value");
  }
  int d = 0;
  while (p < end) {
    c = *p;
    if (c == '"') {
      if (!SkipString()) return false;
      continue;
    }
    if (c == '{' || c == '[') {
      if (depth + ++d > max_depth)
        return Fail(kHostile, p, fmt::format("nesting deeper than {}", max_depth));
    } else if (c == '}' || c == ']') {
      if (--d == 0) {
        ++p;
        return true;
      }
    }
    ++p;
  }
  return More();
}

}  // namespace feedcheck::analyzers::json_unit
