#include "core/diagnostic.h"

#include <fmt/format.h>

#include "core/utf8_cut.h"

namespace feedcheck {

std::string_view SeverityName(DiagnosticSeverity severity) {
  switch (severity) {
    case DiagnosticSeverity::kError:
      return "error";
    case DiagnosticSeverity::kWarning:
      return "warning";
    case DiagnosticSeverity::kNote:
      return "note";
  }
  return "error";
}

std::string FormatDiagnostic(const Diagnostic& d) {
  std::string where;
  if (!d.location.file.empty()) {
    where = d.location.file;
    if (d.location.line > 0) where += fmt::format(":{}", d.location.line);
    if (d.location.line > 0 && d.location.column > 0)
      where += fmt::format(":{}", d.location.column);
    where += ": ";
  }
  std::string out = fmt::format("{}{}[{}]: {}", where, SeverityName(d.severity), d.code, d.message);
  if (!d.context.empty()) out += fmt::format(" ({})", d.context);
  if (!d.snippet.empty()) {
    // Long lines are cut around the column so the caret stays on screen; at character
    // boundaries, so a quoted line never ends in half a "µ" (reports must stay valid UTF-8).
    std::string line = d.snippet;
    int column = d.location.column;
    constexpr size_t kWidth = 120;
    if (line.size() > kWidth) {
      const size_t start = column > 60 ? static_cast<size_t>(column) - 60 : 0;
      std::string_view rest = Utf8SuffixFrom(line, start);
      const size_t skipped = line.size() - rest.size();
      line = std::string(Utf8Prefix(rest, kWidth));
      if (column > 0) column -= static_cast<int>(skipped);
      if (column < 1) column = 0;
    }
    out += "\n    " + line;
    if (column > 0) out += "\n    " + std::string(static_cast<size_t>(column - 1), ' ') + "^";
  }
  return out;
}

void DiagnosticList::Add(Diagnostic diagnostic) {
  ++total_;
  if (diagnostic.severity == DiagnosticSeverity::kError) ++errors_;
  if (kept_.size() < limit_) kept_.push_back(std::move(diagnostic));
}

void DiagnosticList::Append(const DiagnosticList& other) {
  for (const auto& d : other.kept_) Add(d);
  // Count what `other` dropped too, without storing it.
  size_t extra = other.total_ - other.kept_.size();
  total_ += extra;
}

void DiagnosticList::CountUnkept(size_t count, size_t errors) {
  total_ += count;
  errors_ += errors;
}

}  // namespace feedcheck
