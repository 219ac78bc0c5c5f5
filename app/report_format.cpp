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

std::string FromExtension(const std::string& path) {
  const std::string ext = LowerExtension(path);
  if (ext == "json") return "json";
  if (ext == "md" || ext == "markdown") return "md";
  if (ext == "html" || ext == "htm") return "html";
  if (ext == "sarif") return "sarif";
  return "term";  // .txt, and anything else: the text a person reads
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
    const std::string by_extension = FromExtension(flags.output);
    // --json with -o report.md: the extension and the flag disagree; the flag is explicit.
    if (flags.json) return std::string("json");
    return by_extension;
  }
  return std::string(flags.json ? "json" : "term");
}

}  // namespace feedcheck::app
