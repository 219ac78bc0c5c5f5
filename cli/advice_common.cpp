#include "cli/advice_common.h"

#include <fmt/format.h>

#include <sstream>

#include "core/evidence_json.h"

namespace feedcheck::cli {

bool GatherFacts(const std::vector<std::string>& facts_files, const std::string& profile_path,
                 const GlobalOptions& globals, FactSet* facts, rules::Profile* profile,
                 DiagnosticList* diagnostics, const FactSet* overrides, AccountDefaults* account) {
  return app::GatherFacts(facts_files, profile_path, globals.knowledge, facts, profile, diagnostics,
                          overrides, account);
}

bool LoadRules(const GlobalOptions& globals, rules::RuleSet* rules, DiagnosticList* diagnostics) {
  return app::LoadRules(globals.knowledge, rules, diagnostics);
}

std::string Wrap(const std::string& text, size_t width, const std::string& indent) {
  std::istringstream words(text);
  std::string out, line, word;
  while (words >> word) {
    if (!line.empty() && indent.size() + line.size() + 1 + word.size() > width) {
      out += indent + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) out += indent + line + "\n";
  return out;
}

namespace {
std::string Upper(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}
std::string ProvenanceText(const Provenance& p) {
  std::string out(OriginName(p.origin));
  if (!p.file.empty()) {
    out += ", " + p.file;
    if (p.line > 0) out += fmt::format(":{}", p.line);
  } else if (!p.source.empty()) {
    out += ", " + p.source;
  }
  return out;
}
}  // namespace

std::string FormatFindingText(const Finding& f) {
  std::string out =
      fmt::format("{:<8}  {}: {}\n", Upper(SeverityName(f.severity)), f.rule_id, f.title);
  out += Wrap(f.message, 100, "          ");
  if (f.excess)
    out += fmt::format("          {:.3g}x its limit{}\n", *f.excess,
                       f.escalated ? ": raised to critical, far over a hard limit" : "");
  if (!f.evidence.empty()) {
    out += "          evidence:\n";
    for (const auto& fact : f.evidence)
      out += fmt::format("            {} = {}  ({})\n", fact.key, FormatFactValue(fact),
                         ProvenanceText(fact.provenance));
  }
  out += fmt::format("          source: {}\n", f.source);
  return out;
}

std::string FormatSkippedText(const std::vector<SkippedRule>& skipped) {
  std::string out;
  for (const auto& s : skipped)
    out += fmt::format("  {}: not evaluated (missing {})\n", s.rule_id,
                       fmt::join(s.missing_facts, ", "));
  return out;
}

nlohmann::json FindingToJson(const Finding& f) {
  nlohmann::json evidence = nlohmann::json::array();
  for (const auto& fact : f.evidence) evidence.push_back(FactToJson(fact));
  nlohmann::json env = nlohmann::json::array();
  for (const auto& e : f.env) env.push_back({{"name", e.name}, {"value", e.value}});
  nlohmann::json config = nlohmann::json::array();
  for (const auto& c : f.config) config.push_back({{"kind", c.kind}, {"text", c.text}});
  nlohmann::json out = {{"rule_id", f.rule_id},     {"severity", SeverityName(f.severity)},
                        {"title", f.title},         {"message", f.message},
                        {"evidence", evidence},     {"env", env},
                        {"config", config},         {"source", f.source},
                        {"rule_file", f.rule_file}, {"rule_line", f.rule_line}};
  out["excess"] = f.excess ? nlohmann::json(*f.excess) : nlohmann::json(nullptr);
  out["escalated"] = f.escalated;
  return out;
}

nlohmann::json SkippedToJson(const SkippedRule& s) {
  return {{"rule_id", s.rule_id}, {"title", s.title}, {"missing_facts", s.missing_facts}};
}

nlohmann::json DiagnosticsToJson(const DiagnosticList& diagnostics) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& d : diagnostics.kept()) out.push_back(DiagnosticToJson(d));
  return out;
}

}  // namespace feedcheck::cli
