#include "app/lint_sarif.h"

#include <fmt/format.h>

#include <map>
#include <nlohmann/json.hpp>

#include "core/json_text.h"

#ifndef FEEDCHECK_VERSION
#define FEEDCHECK_VERSION "dev"
#endif

namespace feedcheck::app {
namespace {

// What each problem code means, for the SARIF rule list.
const std::map<std::string, std::pair<const char*, const char*>>& CodeNames() {
  static const std::map<std::string, std::pair<const char*, const char*>> kCodes = {
      {rules::kLintWrongMode,
       {"InputMode", "An input's mode differs from the one the advice recommends"}},
      {rules::kLintMissingEnv, {"MissingSetting", "A recommended environment variable is not set"}},
      {rules::kLintContradictingEnv,
       {"ContradictingSetting", "An environment variable differs from the recommended value"}},
      {rules::kLintEgress,
       {"NodesBeyondAccount", "More nodes than one storage account feeds at full NIC rate"}},
      {rules::kLintOther, {"Finding", "A finding of the rules about this job"}},
      {rules::kLintNoEffect,
       {"SettingWithoutEffect", "A setting for the other input mode, which does nothing here"}},
  };
  return kCodes;
}

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

// SARIF wants a URI: a relative path as it is (with '/'), an absolute one as file://.
std::string ArtifactUri(const std::string& path) {
  std::string uri;
  for (char c : path) {
    if (c == ' ')
      uri += "%20";
    else if (c == '%')
      uri += "%25";
    else if (c == '\\')
      uri += '/';
    else
      uri += c;
  }
  return !uri.empty() && uri[0] == '/' ? "file://" + uri : uri;
}

}  // namespace

std::string LintSarif(const std::vector<rules::LintProblem>& problems) {
  nlohmann::ordered_json rules_list = nlohmann::ordered_json::array();
  std::map<std::string, size_t> rule_index;
  for (const auto& [code, names] : CodeNames()) {
    rule_index[code] = rules_list.size();
    nlohmann::ordered_json rule;
    rule["id"] = code;
    rule["name"] = names.first;
    rule["shortDescription"] = {{"text", names.second}};
    rules_list.push_back(rule);
  }
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  for (const auto& p : problems) {
    nlohmann::ordered_json physical;
    physical["artifactLocation"] = {{"uri", ArtifactUri(p.location.file)}};
    // SARIF lines start at 1; a problem about the whole file has no region.
    if (p.location.line > 0) physical["region"] = {{"startLine", p.location.line}};
    nlohmann::ordered_json result;
    result["ruleId"] = p.code;
    if (auto it = rule_index.find(p.code); it != rule_index.end()) result["ruleIndex"] = it->second;
    result["level"] = SarifLevel(p.severity);
    result["message"] = {{"text", fmt::format("{} Change: {}", p.message, p.change)}};
    result["locations"] = nlohmann::ordered_json::array({{{"physicalLocation", physical}}});
    result["properties"] = {{"feedcheckRule", p.rule_id}, {"change", p.change}};
    results.push_back(result);
  }
  nlohmann::ordered_json driver;
  driver["name"] = "feedcheck";
  driver["version"] = FEEDCHECK_VERSION;
  driver["informationUri"] =
      "https://learn.microsoft.com/azure/machine-learning/how-to-read-write-data-v2";
  driver["rules"] = rules_list;
  nlohmann::ordered_json run;
  run["tool"] = {{"driver", driver}};
  run["results"] = results;
  nlohmann::ordered_json log;
  log["$schema"] = "https://json.schemastore.org/sarif-2.1.0.json";
  log["version"] = "2.1.0";
  log["runs"] = nlohmann::ordered_json::array({run});
  return JsonText(log, 2) + "\n";
}

}  // namespace feedcheck::app
