// Tokenizer for Rust tracing-subscriber "compact" lines, as rslex writes them (Azure ML docs,
// "Access data in a job", section "Using logs to diagnose issues"):
//   2023-05-18T14:08:25.388670Z  INFO span_a:span_b: rslex::prefetching: close time.busy=23.2µs ...
// timestamp, level, span scope (root->leaf, "name:" each), target ("crate::module:"), the
// message, then key=value fields. Values may contain spaces, commas, ':' and brackets, so fields
// are split at " <ident>=" (ident = [A-Za-z_][A-Za-z0-9_.]*), never at spaces; keys may repeat
// (every enclosing span appends its own fields) and all occurrences are kept in order.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/timestamp.h"

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
  std::vector<TraceField> fields;  ///< in line order, repeated keys kept (ParseTracingLine only)
  /// The fields as text, from the first key to the end of the line ("" without fields): what
  /// `fields` was tokenized from; ParseTracingHead leaves `fields` empty and sets only this.
  std::string_view fields_text;
  size_t first_key_len = 0;  ///< fields_text's first key with its '=' (0 without fields)
  /// Which head of a TracingLineCache gave `spans` and `target` (0: none). Entries get new ids
  /// when they are replaced, so a caller may key facts of its own about a scope by it.
  uint64_t scope_id = 0;

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

/// What repeats from one line of a log to the next, for ParseTracingHead: the minute of the
/// timestamp, and the span scope and target of the last few distinct heads of a line (the
/// tokens between the level and the message, "copy_uri:...:get_iter: rslex::prefetching: ").
/// A log repeats a handful of heads on nearly every line, and comparing the bytes once costs far
/// less than classifying ~100 of them again. A hit gives exactly what the scan would.
class TracingLineCache {
 public:
  static constexpr size_t kSlots = 8;
  static constexpr size_t kMaxKeyBytes = 256;
  /// The slot an id was stored in (ids are handed out in round-robin order of the slots).
  static size_t SlotOf(uint64_t id) { return static_cast<size_t>((id - 1) % kSlots); }

  struct Entry {
    std::string key;  ///< the head's bytes, up to and including the space after its last token
    uint64_t id = 0;
    uint16_t spans_len = 0;  ///< spans at offset 0 of the key
    uint16_t target_at = 0, target_len = 0;
    uint16_t consumed = 0;  ///< the message starts this many bytes into the head
  };

 private:
  friend bool ParseTracingHead(std::string_view, TracingLine*, TracingLineCache*);
  std::array<Entry, kSlots> entries_{};
  TimestampCache timestamp_;
  uint64_t next_id_ = 1;
  size_t last_hit_ = 0;
};

/// ParseTracingLine without splitting the fields: `fields` stays empty and `fields_text` holds
/// them, for lookups with FindTracingField. With a cache, repeated heads are not scanned again.
bool ParseTracingHead(std::string_view line, TracingLine* out, TracingLineCache* cache = nullptr);

/// Splits "k=v k2=v with spaces" into fields (appended to `out`).
void TokenizeFields(std::string_view text, std::vector<TraceField>* out);

/// The fields of "k=v k2=v with spaces" one at a time, in line order: what TokenizeFields
/// appends, without a vector, for a caller that wants a few keys of every line.
class TracingFieldReader {
 public:
  explicit TracingFieldReader(std::string_view text);
  /// A line's fields as ParseTracingHead left them: its first key is not searched for again.
  explicit TracingFieldReader(const TracingLine& line);
  /// The next field; false after the last.
  bool Next(TraceField* out);
  /// Where the next field's key starts in the text (npos after the last field).
  size_t position() const { return start_; }

 private:
  std::string_view text_;
  size_t start_ = 0;  ///< where the next key starts (npos: no more)
  size_t key_len_ = 0;
};

/// The value of the first field named `key` (an identifier) at or after offset `*from` of
/// `fields_text` (a line's fields as TracingLine::fields_text holds them), without tokenizing
/// the rest: the same value TokenizeFields gives that field, since every " <ident>=" starts a
/// field. `*from` (when given) moves past the key found, so a loop visits every field of that
/// name in line order. nullopt when there is none.
std::optional<std::string_view> FindTracingField(std::string_view fields_text, std::string_view key,
                                                 size_t* from = nullptr);

/// A tracing TimingDisplay value in nanoseconds: "23.2µs" (U+00B5), "23.2μs" (U+03BC),
/// "23.2us", "1.90ns", "1.22ms", "12.3s". nullopt for anything else.
std::optional<double> ParseTracingDurationNs(std::string_view text);
/// The same, for loops over every line: false instead of nullopt, the value in `*ns`.
bool ParseTracingDurationNs(std::string_view text, double* ns);

std::string_view TraceLevelName(TraceLevel level);

}  // namespace feedcheck::analyzers
