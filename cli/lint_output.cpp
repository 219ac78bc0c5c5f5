#include "cli/lint_output.h"

#include <fmt/format.h>

#include <map>

#include "cli/advice_common.h"

#ifndef FEEDCHECK_VERSION
#define FEEDCHECK_VERSION "dev"
#endif

namespace feedcheck::cli {
namespace {

std::string Where(const SourceLocation& l) {
  return l.line > 0 ? fmt::format("{}:{}", l.file, l.line) : l.file;
}

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

std::string LintText(const LintOutput& out) {
  std::string text;
  for (const auto& a : out.assumptions) text += fmt::format("note: {}\n", a);
  if (out.problems.empty()) {
    text += fmt::format("{}: Ok ({} rules evaluated, {} not evaluated for missing facts)\n",
                        out.job, out.rules_evaluated, out.skipped.size());
    return text;
  }
  for (const auto& p : out.problems) {
    text += fmt::format("{}: {}[{}]: {}\n", Where(p.location), SeverityName(p.severity), p.code,
                        p.message);
    text += Wrap("change: " + p.change, 100, "    ");
  }
  text += fmt::format("{} problem{} ({} rules not evaluated for missing facts{})\n",
                      out.problems.size(), out.problems.size() == 1 ? "" : "s", out.skipped.size(),
                      out.profile_given ? "" : "; give --profile to say more");
  return text;
}

nlohmann::ordered_json LintJson(const LintOutput& out) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& p : out.problems)
    list.push_back({{"code", p.code},
                    {"severity", SeverityName(p.severity)},
                    {"message", p.message},
                    {"change", p.change},
                    {"file", p.location.file},
                    {"line", p.location.line},
                    {"rule_id", p.rule_id}});
  nlohmann::json skipped = nlohmann::json::array();
  for (const auto& s : out.skipped) skipped.push_back(SkippedToJson(s));
  nlohmann::ordered_json j;
  j["schema_version"] = 1;
  j["command"] = "lint";
  j["job"] = out.job;
  j["assumptions"] = out.assumptions;
  j["problems"] = list;
  j["not_evaluated"] = skipped;
  j["diagnostics"] =
      out.diagnostics ? DiagnosticsToJson(*out.diagnostics) : nlohmann::json::array();
  return j;
}

nlohmann::ordered_json LintSarif(const LintOutput& out) {
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
  for (const auto& p : out.problems) {
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
  return log;
}

}  // namespace feedcheck::cli
