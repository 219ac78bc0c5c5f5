// Byte searches for the log parsers' short distances (a field's value, a header line): 16 bytes
// at a time with SSE2 where the target has it, inline, without the call and set-up a libc
// memchr costs on every one of the millions of lines. Reads stay inside the view given.
#pragma once

#include <array>
#include <cstddef>
#include <cstring>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace feedcheck::analyzers {

/// Offset of the first `c` in `s` at or after `from`; npos when none.
inline size_t FindByte(std::string_view s, size_t from, char c) {
  const char* d = s.data();
  const size_t n = s.size();
  size_t i = from;
#if defined(__SSE2__)
  const __m128i needle = _mm_set1_epi8(c);
  for (; i + 16 <= n; i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(d + i));
    const int m = _mm_movemask_epi8(_mm_cmpeq_epi8(v, needle));
    if (m != 0) return i + static_cast<size_t>(__builtin_ctz(static_cast<unsigned>(m)));
  }
#endif
  for (; i < n; ++i)
    if (d[i] == c) return i;
  return std::string_view::npos;
}

/// Whether `s` holds `a` or `b`.
inline bool HasEitherByte(std::string_view s, char a, char b) {
  const char* d = s.data();
  const size_t n = s.size();
  size_t i = 0;
#if defined(__SSE2__)
  const __m128i va = _mm_set1_epi8(a), vb = _mm_set1_epi8(b);
  for (; i + 16 <= n; i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(d + i));
    if (_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, va), _mm_cmpeq_epi8(v, vb))) != 0)
      return true;
  }
#endif
  for (; i < n; ++i)
    if (d[i] == a || d[i] == b) return true;
  return false;
}

/// The identifier bytes [A-Za-z0-9_.], by table.
inline constexpr auto kIdentByte = [] {
  std::array<bool, 256> t{};
  for (int c = 0; c < 256; ++c)
    t[static_cast<size_t>(c)] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                                (c >= '0' && c <= '9') || c == '_' || c == '.';
  return t;
}();

/// Where the run of identifier bytes ([A-Za-z0-9_.]) that ends just before `end` starts:
/// the smallest q <= end with d[q..end) all identifier bytes.
inline size_t IdentRunStart(const char* d, size_t end) {
  size_t e = end;
#if defined(__SSE2__)
  while (e >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(d + e - 16));
    // Letters: (v | 0x20) - 'a' <= 25 unsigned; digits: v - '0' <= 9; then '_' and '.'.
    const __m128i lower = _mm_or_si128(v, _mm_set1_epi8(0x20));
    const __m128i a = _mm_sub_epi8(lower, _mm_set1_epi8('a'));
    const __m128i alpha = _mm_cmpeq_epi8(_mm_min_epu8(a, _mm_set1_epi8(25)), a);
    const __m128i g = _mm_sub_epi8(v, _mm_set1_epi8('0'));
    const __m128i digit = _mm_cmpeq_epi8(_mm_min_epu8(g, _mm_set1_epi8(9)), g);
    const __m128i other =
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('_')), _mm_cmpeq_epi8(v, _mm_set1_epi8('.')));
    const __m128i ident = _mm_or_si128(_mm_or_si128(alpha, digit), other);
    const unsigned not_ident = ~static_cast<unsigned>(_mm_movemask_epi8(ident)) & 0xFFFFu;
    // The last byte that is not part of an identifier ends the run.
    if (not_ident != 0) return e - 16 + static_cast<size_t>(31 - __builtin_clz(not_ident)) + 1;
    e -= 16;
  }
#endif
  while (e > 0 && kIdentByte[static_cast<unsigned char>(d[e - 1])]) --e;
  return e;
}

}  // namespace feedcheck::analyzers
