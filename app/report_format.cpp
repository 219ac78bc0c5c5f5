#include "app/report_format.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace feedcheck::app {
namespace {

std::string LowerExtension(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  const size_t dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  std::string ext = path.substr(dot + 1);
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

// The format -o's extension names; "" for an extension no format has. No extension at all
// (a name like "report", /dev/stdout) is the text a person reads, as .txt.
std::string FromExtension(const std::string& path, const std::vector<std::string>& extra) {
  const std::string ext = LowerExtension(path);
  if (ext == "json") return "json";
  if (ext == "md" || ext == "markdown") return "md";
  if (ext == "html" || ext == "htm") return "html";
  if (ext == "sarif") return "sarif";
  if (ext == "txt" || ext == "text" || ext.empty()) return "term";
  for (const auto& f : extra)
    if (ext == f) return f;
  return "";
}

std::string KnownExtensions(const std::vector<std::string>& extra) {
  std::string out = ".json, .md, .html, .sarif, .txt";
  for (const auto& f : extra) out += ", ." + f;
  return out;
}

}  // namespace

std::optional<std::string> ChooseReportFormat(const FormatFlags& flags, std::string* error) {
  if (!flags.format.empty()) {
    if (flags.format != "term" && flags.format != "json" && flags.format != "md" &&
        flags.format != "html" && flags.format != "sarif") {
      *error = fmt::format("--format: unknown format '{}' (term, json, md, html or sarif)",
                           flags.format);
      return std::nullopt;
    }
    if (flags.json && flags.format != "json") {
      *error = fmt::format("--json and --format {} ask for two formats; give one", flags.format);
      return std::nullopt;
    }
    return flags.format;
  }
  const bool to_file = !flags.output.empty() && flags.output != "-";
  if (to_file) {
    // --json with -o report.md: the extension and the flag disagree; the flag is explicit.
    if (flags.json) return std::string("json");
    std::string problem = OutputExtensionProblem(flags.output, flags.extra_formats);
    if (!problem.empty()) {
      *error = std::move(problem);
      return std::nullopt;
    }
    return FromExtension(flags.output, flags.extra_formats);
  }
  return std::string(flags.json ? "json" : "term");
}

std::string OutputExtensionProblem(const std::string& output,
                                   const std::vector<std::string>& extra_formats) {
  if (output.empty() || output == "-" || !FromExtension(output, extra_formats).empty()) return "";
  return fmt::format(
      "--output {}: no format has the extension '.{}'; the extension picks the format ({}), or "
      "give -f/--format",
      output, LowerExtension(output), KnownExtensions(extra_formats));
}

}  // namespace feedcheck::app
