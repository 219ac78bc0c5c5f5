#include "reports/sarif_reporter.h"

#include <fmt/format.h>

#include <cctype>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

#include "core/json_text.h"

namespace feedcheck {
namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kSrcRoot = "%SRCROOT%";

// SARIF's levels: a finding's severity names (critical, warning, info) and the diagnostics'
// (error, warning, note) both map onto error, warning, note.
std::string SarifLevel(std::string_view severity) {
  if (severity == "critical" || severity == "error") return "error";
  if (severity == "warning") return "warning";
  return "note";
}

// A URI reference: spaces, '%' and the other characters RFC 3986 does not allow in a path
// escaped; '\' as '/'.
std::string EscapeUri(const std::string& path) {
  std::string uri;
  for (unsigned char c : path) {
    if (c == '\\') {
      uri += '/';
    } else if (std::isalnum(c) ||
               std::string_view("/-._~:@!$&'()*+,;=").find(static_cast<char>(c)) !=
                   std::string_view::npos) {
      uri += static_cast<char>(c);
    } else {
      uri += fmt::format("%{:02X}", c);
    }
  }
  return uri;
}

// Relative to the base directory when the file is under it (uriBaseId %SRCROOT%); an absolute
// file:// URI otherwise. A relative file is taken as relative to the base directory.
Json ArtifactLocation(const std::string& file, const std::string& base_dir) {
  namespace fs = std::filesystem;
  const fs::path base = fs::path(base_dir).lexically_normal();
  const fs::path given(file);
  const fs::path absolute = (given.is_absolute() ? given : base / given).lexically_normal();
  const std::string rel = absolute.lexically_relative(base).generic_string();
  if (!rel.empty() && rel != "." && rel.rfind("..", 0) != 0)
    return {{"uri", EscapeUri(rel)}, {"uriBaseId", kSrcRoot}};
  return {{"uri", "file://" + EscapeUri(absolute.generic_string())}};
}

Json Driver(const Report& report, std::map<std::string, size_t>* rule_index) {
  Json rules_list = Json::array();
  for (const ReportCode& c : report.codes.codes) {
    (*rule_index)[c.code] = rules_list.size();
    Json rule;
    rule["id"] = c.code;
    rule["name"] = c.name;
    rule["shortDescription"] = {{"text", c.summary}};
    rule["fullDescription"] = {{"text", fmt::format("{}. {}", c.summary, c.help)}};
    rule["help"] = {{"text", c.help}};
    if (!report.codes.uri.empty()) rule["helpUri"] = report.codes.uri;
    rule["defaultConfiguration"] = {{"level", c.level}};
    rules_list.push_back(rule);
  }
  Json driver;
  driver["name"] = "feedcheck";
  driver["version"] = report.context.tool_version;
  if (!report.codes.uri.empty()) driver["informationUri"] = report.codes.uri;
  driver["rules"] = rules_list;
  return driver;
}

// The column `key` of `table`, if it has one.
std::optional<size_t> Column(const ReportTable& table, std::string_view key) {
  for (size_t i = 0; i < table.columns.size(); ++i)
    if (table.columns[i].key == key) return i;
  return std::nullopt;
}

// The results of one table of located problems (see Report::tables); none for another table.
void AddResults(const ReportTable& table, const std::map<std::string, size_t>& rule_index,
                const std::string& base_dir, Json* results) {
  const auto file = Column(table, "file"), line = Column(table, "line"),
             severity = Column(table, "severity"), code = Column(table, "code"),
             message = Column(table, "message");
  if (!file || !line || !severity || !code || !message) return;
  const auto change = Column(table, "change"), rule_id = Column(table, "rule_id");
  for (const auto& row : table.rows) {
    auto cell = [&row](std::optional<size_t> column) -> const std::string& {
      static const std::string kNone;
      return column && *column < row.size() ? row[*column].text : kNone;
    };
    const std::optional<double> line_number = *line < row.size() ? row[*line].value : std::nullopt;
    const int start_line = line_number && *line_number > 0 ? static_cast<int>(*line_number) : 0;
    Json physical;
    physical["artifactLocation"] = ArtifactLocation(cell(file), base_dir);
    // SARIF lines start at 1; a problem about the whole file is placed on its first line.
    physical["region"] = {{"startLine", start_line > 0 ? start_line : 1}};
    Json result;
    result["ruleId"] = cell(code);
    if (auto it = rule_index.find(cell(code)); it != rule_index.end())
      result["ruleIndex"] = it->second;
    result["level"] = SarifLevel(cell(severity));
    result["message"] = {{"text", change ? fmt::format("{} Change: {}", cell(message), cell(change))
                                         : cell(message)}};
    result["locations"] = Json::array({{{"physicalLocation", physical}}});
    Json properties = Json::object();
    if (change) properties["change"] = cell(change);
    if (!cell(rule_id).empty()) properties["feedcheckRule"] = cell(rule_id);
    if (start_line <= 0) properties["wholeFile"] = true;
    result["properties"] = properties;
    results->push_back(result);
  }
}

}  // namespace

void SarifReporter::Render(const Report& report, std::ostream& out) const {
  std::map<std::string, size_t> rule_index;
  Json driver = Driver(report, &rule_index);
  Json results = Json::array();
  for (const ReportTable& table : report.tables) AddResults(table, rule_index, base_dir_, &results);
  Json invocation;
  invocation["executionSuccessful"] = report.complete;
  Json notifications = Json::array();
  for (const auto& d : report.evidence.diagnostics.kept()) {
    if (report.complete && d.severity != DiagnosticSeverity::kError) continue;
    Json n;
    n["descriptor"] = {{"id", d.code}};
    n["level"] = SarifLevel(SeverityName(d.severity));
    n["message"] = {{"text", d.message}};
    if (!d.location.file.empty()) {
      Json physical;
      physical["artifactLocation"] = ArtifactLocation(d.location.file, base_dir_);
      if (d.location.line > 0) physical["region"] = {{"startLine", d.location.line}};
      n["locations"] = Json::array({{{"physicalLocation", physical}}});
    }
    notifications.push_back(n);
  }
  if (!notifications.empty()) invocation["toolExecutionNotifications"] = notifications;
  Json run;
  run["tool"] = {{"driver", driver}};
  run["invocations"] = Json::array({invocation});
  std::string root = EscapeUri(std::filesystem::path(base_dir_).generic_string());
  if (root.empty() || root.back() != '/') root += '/';
  run["originalUriBaseIds"] = {{kSrcRoot, {{"uri", "file://" + root}}}};
  run["results"] = results;
  Json log;
  log["$schema"] = "https://json.schemastore.org/sarif-2.1.0.json";
  log["version"] = "2.1.0";
  log["runs"] = Json::array({run});
  out << JsonText(log, 2) << "\n";
}

}  // namespace feedcheck
