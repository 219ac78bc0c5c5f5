#include "cli/advice_common.h"

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

nlohmann::json DiagnosticsToJson(const DiagnosticList& diagnostics) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& d : diagnostics.kept()) out.push_back(DiagnosticToJson(d));
  return out;
}

}  // namespace feedcheck::cli
