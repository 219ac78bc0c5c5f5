// The one checked way to read JSON input (files, saved results, child output): a parse with a
// nesting limit that never throws, and typed reads that turn a wrong type, a number out of range
// or a missing field into a diagnostic naming the file and the field. No other file reads input
// JSON with nlohmann's throwing calls (scripts/check-json-input.sh).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/diagnostic.h"

namespace feedcheck {

/// Deeper than this is not a document any producer we read writes; refused before it costs
/// memory (each level is one allocation in the parsed tree).
inline constexpr int kMaxJsonInputDepth = 128;

/// Bounds for Whole(): what an `int` field (a line, a rank) and a count may hold.
inline constexpr int64_t kMaxWholeInt = 2147483647;
inline constexpr int64_t kMaxWholeCount = int64_t{1} << 53;

/// Where a document came from, for diagnostics: the file (or "az ml job list"), the code of the
/// reader, the list the diagnostics go to.
struct JsonSource {
  std::string file;
  const char* code = "";
  DiagnosticList* diagnostics = nullptr;
  DiagnosticSeverity severity = DiagnosticSeverity::kError;
};

struct JsonParseOptions {
  int max_depth = kMaxJsonInputDepth;
  /// When not empty, only these members of the top-level object are kept while parsing (the
  /// rest is read and dropped, so a large document costs no memory).
  std::vector<std::string> keep_top_level;
};

/// Parses `text`. nullopt, with one diagnostic naming the file, line and column (and the field,
/// for a number out of range), when it is not JSON, nests deeper than `max_depth`, or holds a
/// number out of double range (1e999). Never throws.
std::optional<nlohmann::json> ParseJsonInput(std::string_view text, const JsonSource& source,
                                             const JsonParseOptions& options = {});

/// Reads a regular file of at most `max_bytes` and parses it as ParseJsonInput does.
std::optional<nlohmann::json> ReadJsonInputFile(const std::string& path, const char* code,
                                                DiagnosticList* diagnostics, uint64_t max_bytes,
                                                const JsonParseOptions& options = {});

/// The path of a field as the messages write it: `result.gpu.lost_gpu_s`, `findings[2].title`.
std::string JsonFieldPath(const std::string& parent, std::string_view key);
std::string JsonIndexPath(const std::string& parent, size_t index);
/// `findings[2].title` as a JSON pointer, `/findings/2/title` (the context diagnostics of saved
/// files carry).
std::string JsonPointer(const std::string& path);

/// One value of an input document and its path. Reading never throws: absent (or null) gives
/// nullopt quietly; a value of the wrong type, a number that is not finite or a whole number out
/// of range gives nullopt and a diagnostic "field 'PATH': expected ...".
class JsonField {
 public:
  JsonField(const nlohmann::json* value, const JsonSource* source, std::string path);
  /// The document's top.
  static JsonField Root(const nlohmann::json& document, const JsonSource& source);

  bool present() const { return value_ != nullptr && !value_->is_null(); }
  bool is_object() const { return value_ != nullptr && value_->is_object(); }
  bool is_array() const { return value_ != nullptr && value_->is_array(); }
  bool is_string() const { return value_ != nullptr && value_->is_string(); }
  bool is_number() const { return value_ != nullptr && value_->is_number(); }
  bool is_bool() const { return value_ != nullptr && value_->is_boolean(); }
  const std::string& path() const { return path_; }
  /// The value itself (for a reader that hands a sub-document on), or nullptr when absent.
  const nlohmann::json* raw() const { return value_; }

  /// A member; absent (quietly) when this is not an object or has no such member.
  JsonField operator[](std::string_view key) const;
  /// An element; absent (quietly) when this is not an array or is shorter.
  JsonField operator[](size_t index) const;
  /// Number of elements or members; 0 for anything else.
  size_t size() const;

  /// Elements of an array; empty, with a diagnostic, when present and not an array.
  std::vector<JsonField> Elements() const;
  /// Members of an object in document order; empty, with a diagnostic, when present and not an
  /// object.
  std::vector<std::pair<std::string, JsonField>> Members() const;

  std::optional<std::string> String() const;
  /// A finite number.
  std::optional<double> Number() const;
  /// A whole number in [min, max] (a JSON integer, or a float with no fraction).
  std::optional<int64_t> Whole(int64_t min, int64_t max) const;
  std::optional<bool> Bool() const;

  std::string StringOr(std::string fallback) const { return String().value_or(fallback); }
  double NumberOr(double fallback) const { return Number().value_or(fallback); }
  int64_t WholeOr(int64_t fallback, int64_t min, int64_t max) const {
    return Whole(min, max).value_or(fallback);
  }
  bool BoolOr(bool fallback) const { return Bool().value_or(fallback); }

  /// Adds a diagnostic about this field: "field 'PATH': `what`".
  void Complain(std::string_view what) const;

 private:
  const nlohmann::json* value_;
  const JsonSource* source_;
  std::string path_;
};

/// "a string", "a number", "an object", ...: how a message names what it found.
std::string_view JsonKindName(const nlohmann::json& value);

}  // namespace feedcheck
