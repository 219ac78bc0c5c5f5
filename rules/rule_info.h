// Stage 1 output: a rule as read from YAML, not yet checked. Every text that is parsed later
// (condition, templates) keeps where it came from so the compiler can point a caret into the
// file at the exact column.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/diagnostic.h"

namespace feedcheck::rules {

/// The lines of one source file, shared by every text read from it.
struct SourceFile {
  std::string name;  ///< as the user gave it
  std::string content;
  std::vector<size_t> line_starts;  ///< offset of each line's first byte

  static std::shared_ptr<SourceFile> Make(std::string name, std::string content);
  /// 1-based line and column of a byte offset.
  SourceLocation LocationOf(size_t offset) const;
  std::string LineText(int line) const;
};

/// A scalar read from the file with a map from each character of its value back to the byte
/// offset it came from (folded and quoted scalars move characters around).
struct SourceText {
  std::string value;
  std::shared_ptr<const SourceFile> file;
  std::vector<size_t> offsets;  ///< offsets[i] = file offset of value[i]; one extra at the end
  SourceLocation start;         ///< where the scalar starts

  /// Location (with the source line as snippet) of character `index` of `value`.
  Diagnostic At(size_t index, std::string code, std::string message, std::string context) const;
  /// Builds the character map by aligning `value` with the raw text at `offset`.
  static SourceText FromScalar(std::string value, std::shared_ptr<const SourceFile> file,
                               size_t offset);
  /// A text that does not come from a file (tests, flags): columns are offsets + 1.
  static SourceText Inline(std::string value, std::string name = "<inline>");
};

struct EnvInfo {
  std::string name;
  SourceText value;  ///< may hold {expression} placeholders
};

struct ConfigInfo {
  std::string kind;  ///< "blobfuse2"
  SourceText text;
};

struct RuleInfo {
  std::string id;
  SourceLocation location;  ///< the rule's '- id:' line
  std::string title;
  std::string severity;
  SourceLocation severity_location;
  SourceText when;
  std::vector<SourceText> evidence;
  SourceText say;
  std::vector<EnvInfo> env;
  std::vector<ConfigInfo> config;
  std::string mode;  ///< recommended input mode, empty when the rule says nothing about it
  SourceLocation mode_location;
  std::string bottleneck;  ///< `class:` as written, empty when absent
  SourceLocation bottleneck_location;
  std::string basis;  ///< `basis:` as written, empty when absent
  SourceLocation basis_location;
  std::string source;
  SourceText excess;           ///< optional: how far past a limit, as a ratio (an expression)
  SourceText demand;           ///< optional, with `limit`: what is needed (an expression)
  SourceText limit;            ///< optional, with `demand`: the limit it meets (an expression)
  std::string critical_above;  ///< optional: the excess above which the finding is critical
  SourceLocation critical_above_location;
};

}  // namespace feedcheck::rules
