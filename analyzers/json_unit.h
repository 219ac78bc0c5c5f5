// A reader of one complete JSON unit in memory, for streaming scanners that hand it a window of
// bytes: running out of bytes is kMore (nothing consumed: feed more and try the unit again from
// its start), a number out of range is kBad (the cursor is past it), anything that is not JSON
// is kHostile; nesting is counted against a bound, never recursed. Used by the profiler trace
// scanner (analyzers/torch_trace.h).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

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

}  // namespace feedcheck::analyzers::json_unit
