// The report as GitHub-flavoured Markdown, to paste into an issue or a pull request: headings,
// tables for evidence and facts, fenced blocks for settings.
#pragma once

#include "reports/reporter.h"

namespace feedcheck {

class MarkdownReporter : public Reporter {
 public:
  void Render(const Report& report, std::ostream& out) const override;
};

/// Escapes text for a Markdown table cell: pipes, backslashes, newlines, backticks and '<'.
std::string MarkdownCell(std::string_view text);
/// `text` as one inline code span that nothing inside can close early (backtick runs, fences),
/// safe in a table cell.
std::string MarkdownCode(std::string_view text);

}  // namespace feedcheck
