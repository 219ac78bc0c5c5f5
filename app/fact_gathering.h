// Gathering the facts a workflow judges: facts files, a profile (or job), the knowledge base
// for the VM size and region they name, layered by how much each origin is trusted; and
// loading the knowledge base and the rule directories.
#pragma once

#include <string>
#include <vector>

#include "app/knowledge_inputs.h"
#include "core/diagnostic.h"
#include "core/fact_set.h"
#include "core/knowledge_base.h"
#include "rules/profile.h"
#include "rules/rule_set.h"

namespace feedcheck::app {

/// Layers `incoming` over `facts`, keeping for each key the fact of the more trusted origin
/// (measured > observed > derived > declared > knowledge); equal trust: `incoming` wins.
void LayerFacts(const FactSet& incoming, FactSet* facts);

/// The storage account for the knowledge-base lookup when flags name it (lint's
/// --account-kind), and whether to assume a standard account in a listed region when nothing
/// names one (then `assumption` says so, as `egress` does).
struct AccountDefaults {
  std::string kind;
  bool assume_listed_region = false;
  std::string assumption;  ///< out: what was assumed, "" when nothing was
};

/// Loads facts files and an optional profile into `facts` and adds knowledge-base facts for
/// the profile's VM size and region. Returns false when an input could not be read, or the
/// profile or its knowledge-base lookups (VM size, region, storage target) had an error: the
/// caller exits 3.
bool GatherFacts(const std::vector<std::string>& facts_files, const std::string& profile_path,
                 const KnowledgeInputs& knowledge, FactSet* facts, rules::Profile* profile,
                 DiagnosticList* diagnostics, const FactSet* overrides = nullptr,
                 AccountDefaults* account = nullptr);

/// Built-in rules plus the extra directories. False when any rules file is invalid.
bool LoadRules(const KnowledgeInputs& knowledge, rules::RuleSet* rules,
               DiagnosticList* diagnostics);

/// data/*.yaml plus the --kb files. False when a knowledge-base file is broken (exit 3); the
/// diagnostics say where.
bool LoadKnowledgeBase(const KnowledgeInputs& knowledge, KnowledgeBase* kb,
                       DiagnosticList* diagnostics);

}  // namespace feedcheck::app
