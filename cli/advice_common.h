// The command line's side of app/fact_gathering for the commands not yet moved to app/
// (preflight, rules): gathering facts and loading rules with the global flags.
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

/// Diagnostics as a JSON array (`rules --json`).
nlohmann::json DiagnosticsToJson(const DiagnosticList& diagnostics);

using app::FailOnThreshold;

}  // namespace feedcheck::cli
