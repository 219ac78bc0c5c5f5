#include "rules/rule_info.h"

#include <algorithm>

namespace feedcheck::rules {

std::shared_ptr<SourceFile> SourceFile::Make(std::string name, std::string content) {
  auto file = std::make_shared<SourceFile>();
  file->name = std::move(name);
  file->content = std::move(content);
  file->line_starts.push_back(0);
  for (size_t i = 0; i < file->content.size(); ++i)
    if (file->content[i] == '\n') file->line_starts.push_back(i + 1);
  return file;
}

SourceLocation SourceFile::LocationOf(size_t offset) const {
  auto it = std::upper_bound(line_starts.begin(), line_starts.end(), offset);
  size_t line_index = static_cast<size_t>(it - line_starts.begin()) - 1;
  return SourceLocation{name, static_cast<int>(line_index + 1),
                        static_cast<int>(offset - line_starts[line_index] + 1)};
}

std::string SourceFile::LineText(int line) const {
  if (line < 1 || static_cast<size_t>(line) > line_starts.size()) return "";
  size_t start = line_starts[static_cast<size_t>(line - 1)];
  size_t end = content.find('\n', start);
  if (end == std::string::npos) end = content.size();
  std::string text = content.substr(start, end - start);
  if (!text.empty() && text.back() == '\r') text.pop_back();
  return text;
}

Diagnostic SourceText::At(size_t index, std::string code, std::string message,
                          std::string context) const {
  Diagnostic d;
  d.code = std::move(code);
  d.severity = DiagnosticSeverity::kError;
  d.message = std::move(message);
  d.context = std::move(context);
  if (!file) {
    d.location = start;
    return d;
  }
  size_t offset = offsets.empty() ? 0 : offsets[std::min(index, offsets.size() - 1)];
  offset = std::min(offset, file->content.size());
  d.location = file->LocationOf(offset);
  d.snippet = file->LineText(d.location.line);
  return d;
}

namespace {
bool IsSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
}  // namespace

SourceText SourceText::FromScalar(std::string value, std::shared_ptr<const SourceFile> file,
                                  size_t offset) {
  SourceText text;
  text.value = std::move(value);
  text.file = file;
  const std::string& raw = file->content;
  size_t p = std::min(offset, raw.size());
  text.start = file->LocationOf(p);
  if (p < raw.size() && (raw[p] == '|' || raw[p] == '>')) {
    size_t eol = raw.find('\n', p);
    p = eol == std::string::npos ? raw.size() : eol + 1;
  } else if (p < raw.size() && (raw[p] == '"' || raw[p] == '\'')) {
    ++p;
  }
  // Greedy alignment: each value character is looked up a short way ahead in the raw text;
  // folding turns a newline plus indentation into one space, so whitespace matches whitespace.
  constexpr size_t kWindow = 256;
  text.offsets.resize(text.value.size() + 1);
  for (size_t i = 0; i < text.value.size(); ++i) {
    char c = text.value[i];
    size_t q = p;
    bool found = false;
    for (size_t steps = 0; q < raw.size() && steps < kWindow; ++q, ++steps) {
      if (raw[q] == c || (IsSpace(c) && IsSpace(raw[q]))) {
        found = true;
        break;
      }
    }
    if (found) {
      text.offsets[i] = q;
      p = q + 1;
    } else {
      text.offsets[i] = p;
    }
  }
  text.offsets[text.value.size()] = std::min(p, raw.size());
  return text;
}

SourceText SourceText::Inline(std::string value, std::string name) {
  SourceText text;
  text.file = SourceFile::Make(std::move(name), value);
  text.value = std::move(value);
  text.offsets.resize(text.value.size() + 1);
  for (size_t i = 0; i <= text.value.size(); ++i) text.offsets[i] = i;
  text.start = text.file->LocationOf(0);
  return text;
}

}  // namespace feedcheck::rules
