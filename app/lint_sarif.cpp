#include "app/lint_sarif.h"

#include <fmt/format.h>

#include <cctype>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "core/diagnostic_codes.h"
#include "core/json_text.h"

#ifndef FEEDCHECK_VERSION
#define FEEDCHECK_VERSION "dev"
#endif

namespace feedcheck::app {
namespace {

constexpr const char* kSrcRoot = "%SRCROOT%";
/// The public page lint's advice comes from.
constexpr const char* kLintGuideUrl =
    "https://learn.microsoft.com/azure/machine-learning/how-to-read-write-data-v2";

const char* SarifLevel(Severity s) {
  switch (s) {
    case Severity::kCritical:
      return "error";
    case Severity::kWarning:
      return "warning";
    case Severity::kInfo:
      return "note";
  }
  return "note";
}

// SARIF's levels are the diagnostics' own severity names.
std::string SarifLevel(DiagnosticSeverity s) { return std::string(SeverityName(s)); }

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

// Relative to the base directory when the file is under it (uriBaseId %SRCROOT%, which code
// scanning resolves to the checkout); an absolute file:// URI otherwise.
nlohmann::ordered_json ArtifactLocation(const std::string& file, const std::string& base_dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path absolute = fs::absolute(fs::path(file), ec).lexically_normal();
  const fs::path relative = absolute.lexically_relative(fs::path(base_dir).lexically_normal());
  const std::string rel = relative.generic_string();
  if (!ec && !rel.empty() && rel != "." && rel.rfind("..", 0) != 0)
    return {{"uri", EscapeUri(rel)}, {"uriBaseId", kSrcRoot}};
  return {{"uri", "file://" + EscapeUri(absolute.generic_string())}};
}

nlohmann::ordered_json Driver(std::map<std::string, size_t>* rule_index) {
  nlohmann::ordered_json rules_list = nlohmann::ordered_json::array();
  // Every code lint can report: the registry's L family, in code order.
  for (const DiagnosticCodeInfo& c : DiagnosticCodes()) {
    if (c.code[0] != 'L') continue;
    (*rule_index)[c.code] = rules_list.size();
    nlohmann::ordered_json rule;
    rule["id"] = c.code;
    rule["name"] = c.name;
    rule["shortDescription"] = {{"text", c.summary}};
    rule["fullDescription"] = {{"text", fmt::format("{}. {}", c.summary, c.help)}};
    rule["help"] = {{"text", c.help}};
    rule["helpUri"] = kLintGuideUrl;
    rule["defaultConfiguration"] = {{"level", SarifLevel(c.severity)}};
    rules_list.push_back(rule);
  }
  nlohmann::ordered_json driver;
  driver["name"] = "feedcheck";
  driver["version"] = FEEDCHECK_VERSION;
  driver["informationUri"] = kLintGuideUrl;
  driver["rules"] = rules_list;
  return driver;
}

}  // namespace

std::string LintSarif(const std::vector<rules::LintProblem>& problems,
                      const DiagnosticList& diagnostics, bool successful,
                      const std::string& base_dir) {
  std::map<std::string, size_t> rule_index;
  nlohmann::ordered_json driver = Driver(&rule_index);
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  for (const auto& p : problems) {
    nlohmann::ordered_json physical;
    physical["artifactLocation"] = ArtifactLocation(p.location.file, base_dir);
    // SARIF lines start at 1; a problem about the whole file is placed on its first line.
    physical["region"] = {{"startLine", p.location.line > 0 ? p.location.line : 1}};
    nlohmann::ordered_json result;
    result["ruleId"] = p.code;
    if (auto it = rule_index.find(p.code); it != rule_index.end()) result["ruleIndex"] = it->second;
    result["level"] = SarifLevel(p.severity);
    result["message"] = {{"text", fmt::format("{} Change: {}", p.message, p.change)}};
    result["locations"] = nlohmann::ordered_json::array({{{"physicalLocation", physical}}});
    nlohmann::ordered_json properties = {{"change", p.change}};
    if (!p.rule_id.empty()) properties["feedcheckRule"] = p.rule_id;
    if (p.location.line <= 0) properties["wholeFile"] = true;
    result["properties"] = properties;
    results.push_back(result);
  }
  nlohmann::ordered_json invocation;
  invocation["executionSuccessful"] = successful;
  nlohmann::ordered_json notifications = nlohmann::ordered_json::array();
  for (const auto& d : diagnostics.kept()) {
    if (successful && d.severity != DiagnosticSeverity::kError) continue;
    nlohmann::ordered_json n;
    n["descriptor"] = {{"id", d.code}};
    n["level"] = SarifLevel(d.severity);
    n["message"] = {{"text", d.message}};
    if (!d.location.file.empty()) {
      nlohmann::ordered_json physical;
      physical["artifactLocation"] = ArtifactLocation(d.location.file, base_dir);
      if (d.location.line > 0) physical["region"] = {{"startLine", d.location.line}};
      n["locations"] = nlohmann::ordered_json::array({{{"physicalLocation", physical}}});
    }
    notifications.push_back(n);
  }
  if (!notifications.empty()) invocation["toolExecutionNotifications"] = notifications;
  nlohmann::ordered_json run;
  run["tool"] = {{"driver", driver}};
  run["invocations"] = nlohmann::ordered_json::array({invocation});
  std::string root = EscapeUri(std::filesystem::path(base_dir).generic_string());
  if (root.empty() || root.back() != '/') root += '/';
  run["originalUriBaseIds"] = {{kSrcRoot, {{"uri", "file://" + root}}}};
  run["results"] = results;
  nlohmann::ordered_json log;
  log["$schema"] = "https://json.schemastore.org/sarif-2.1.0.json";
  log["version"] = "2.1.0";
  log["runs"] = nlohmann::ordered_json::array({run});
  return JsonText(log, 2) + "\n";
}

}  // namespace feedcheck::app
