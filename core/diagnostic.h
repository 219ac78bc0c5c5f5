// Diagnostics as data: a stable code, a severity, a message and a location with the source
// line, rendered the same way everywhere (text with a caret, or JSON).
#pragma once

#include <string>
#include <vector>

namespace feedcheck {

enum class DiagnosticSeverity { kError, kWarning, kNote };

std::string_view SeverityName(DiagnosticSeverity severity);

struct SourceLocation {
  std::string file;  ///< path as the user gave it; empty for flags and built-ins
  int line = 0;      ///< 1-based; 0 when unknown
  int column = 0;    ///< 1-based; 0 when unknown
};

struct Diagnostic {
  std::string code;  ///< stable, e.g. "R104" (rules), "A201" (analyzers), "K301" (knowledge base)
  DiagnosticSeverity severity = DiagnosticSeverity::kError;
  std::string message;
  SourceLocation location;
  std::string context;  ///< chain such as "rule 'small-files' > when"
  std::string snippet;  ///< the source line the column points into; empty when none
};

/// "file:line:col: error[R104]: message (context)\n    snippet\n    ^"
std::string FormatDiagnostic(const Diagnostic& diagnostic);

/// A bounded list: keeps the first `limit` diagnostics and counts the rest, so a file of a
/// million bad lines cannot grow memory without bound.
class DiagnosticList {
 public:
  explicit DiagnosticList(size_t limit = 100) : limit_(limit) {}
  void Add(Diagnostic diagnostic);
  const std::vector<Diagnostic>& kept() const { return kept_; }
  size_t total() const { return total_; }
  size_t dropped() const { return total_ - kept_.size(); }
  size_t errors() const { return errors_; }
  bool has_errors() const { return errors_ > 0; }
  void Append(const DiagnosticList& other);
  /// Counts `count` diagnostics kept elsewhere no longer (`errors` of them errors): a saved
  /// list read back says how many its writer dropped.
  void CountUnkept(size_t count, size_t errors);
  /// Rewrites every kept diagnostic in place (escaping text for an output format); the counts
  /// stay as they are.
  template <typename Fn>
  void ForEachKept(Fn&& fn) {
    for (Diagnostic& d : kept_) fn(d);
  }

 private:
  size_t limit_;
  size_t total_ = 0;
  size_t errors_ = 0;
  std::vector<Diagnostic> kept_;
};

}  // namespace feedcheck
