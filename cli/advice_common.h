// What `advise` and `lint` share: gathering facts (facts files, a profile, the knowledge base),
// loading the rule directories, and printing findings, skipped rules and diagnostics.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/fact_gathering.h"
#include "app/rule_evaluation.h"
#include "cli/command.h"
#include "cli/report_output.h"
#include "core/diagnostic.h"
#include "core/fact_set.h"
#include "core/finding.h"
#include "rules/profile.h"
#include "rules/rule_set.h"

namespace feedcheck::cli {

using app::LayerFacts;

using app::AccountDefaults;

/// app::GatherFacts with the --kb files. Loads facts files and an optional profile into `facts` and
/// adds knowledge-base facts for the profile's VM size and region (plus `extra_sku` when the
/// profile names none). Returns false when an input could not be read, or the profile or its
/// knowledge-base lookups (VM size, region, storage target) had an error: the caller exits 3.
bool GatherFacts(const std::vector<std::string>& facts_files, const std::string& profile_path,
                 const GlobalOptions& globals, FactSet* facts, rules::Profile* profile,
                 DiagnosticList* diagnostics, const FactSet* overrides = nullptr,
                 AccountDefaults* account = nullptr);

/// Built-in rules plus --rules directories. False when any rules file is invalid.
bool LoadRules(const GlobalOptions& globals, rules::RuleSet* rules, DiagnosticList* diagnostics);

/// Findings for people: severity, id, title, wrapped message, evidence with provenance.
std::string FormatFindingText(const Finding& finding);
std::string FormatSkippedText(const std::vector<SkippedRule>& skipped);

nlohmann::json FindingToJson(const Finding& finding);
nlohmann::json SkippedToJson(const SkippedRule& skipped);
nlohmann::json DiagnosticsToJson(const DiagnosticList& diagnostics);

/// Wraps `text` to `width` columns, every line starting with `indent`.
std::string Wrap(const std::string& text, size_t width, const std::string& indent);

using app::FailOnThreshold;

}  // namespace feedcheck::cli
