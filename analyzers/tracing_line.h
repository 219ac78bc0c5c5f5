// Tokenizer for Rust tracing-subscriber "compact" lines, as rslex writes them (Azure ML docs,
// "Access data in a job", section "Using logs to diagnose issues"):
//   2023-05-18T14:08:25.388670Z  INFO span_a:span_b: rslex::prefetching: close time.busy=23.2µs ...
// timestamp, level, span scope (root->leaf, "name:" each), target ("crate::module:"), the
// message, then key=value fields. Values may contain spaces, commas, ':' and brackets, so fields
// are split at " <ident>=" (ident = [A-Za-z_][A-Za-z0-9_.]*), never at spaces; keys may repeat
// (every enclosing span appends its own fields) and all occurrences are kept in order.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace feedcheck::analyzers {

enum class TraceLevel { kTrace, kDebug, kInfo, kWarn, kError };

struct TraceField {
  std::string_view key;
  std::string_view value;
};

struct TracingLine {
  bool has_time = false;
  double epoch_s = 0;
  TraceLevel level = TraceLevel::kInfo;
  std::string_view spans;    ///< "copy_uri:copy_dataset:get_iter" (no trailing ':'), may be empty
  std::string_view target;   ///< "rslex::prefetching", may be empty
  std::string_view message;  ///< "close", "non-successful response Status: 503 ...", may be empty
  std::vector<TraceField> fields;  ///< in line order, repeated keys kept

  /// The innermost span ("get_iter"); empty without spans.
  std::string_view LeafSpan() const;
  /// First field with this key, or nullopt.
  std::optional<std::string_view> Field(std::string_view key) const;
  /// Last field with this key (the innermost span's value), or nullopt.
  std::optional<std::string_view> LastField(std::string_view key) const;
};

/// Parses one line; false when it is not a tracing line (no level where one must be).
/// A missing timestamp is allowed (some tools strip it); `has_time` says which.
/// `out->fields` keeps its capacity between calls, so reuse one TracingLine in loops.
bool ParseTracingLine(std::string_view line, TracingLine* out);

/// Splits "k=v k2=v with spaces" into fields (appended to `out`).
void TokenizeFields(std::string_view text, std::vector<TraceField>* out);

/// A tracing TimingDisplay value in nanoseconds: "23.2µs" (U+00B5), "23.2μs" (U+03BC),
/// "23.2us", "1.90ns", "1.22ms", "12.3s". nullopt for anything else.
std::optional<double> ParseTracingDurationNs(std::string_view text);

std::string_view TraceLevelName(TraceLevel level);

}  // namespace feedcheck::analyzers
