// Stage 2, compile: RuleInfo -> CompiledRule. Parses the condition, resolves every fact key
// against the registry, checks units and types, compiles the message, env and config
// templates, and checks names (severity, env var names, config kinds, input modes). Only
// compiled rules are ever evaluated.
#pragma once

#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "core/fact_registry.h"
#include "core/finding.h"
#include "rules/condition_ast.h"
#include "rules/rule_info.h"
#include "rules/template.h"

namespace feedcheck::rules {

struct CompiledEnv {
  std::string name;
  Template value;
  SourceLocation location;
};

struct CompiledConfig {
  std::string kind;  ///< "blobfuse2"
  Template text;
};

struct CompiledRule {
  std::string id;
  std::string title;
  Severity severity = Severity::kInfo;
  ExprPtr when;
  std::vector<std::string> evidence;  ///< fact keys to show (the condition's when empty)
  Template say;
  std::vector<CompiledEnv> env;
  std::vector<CompiledConfig> config;
  std::string mode;                              ///< recommended input mode, or empty
  Bottleneck bottleneck = Bottleneck::kNone;     ///< `class:` (none when absent)
  FindingBasis basis = FindingBasis::kObserved;  ///< `basis:` (observed when absent)
  std::string source;
  SourceLocation location;
  std::string condition_text;
  ExprPtr excess;             ///< ratio past the limit (a number without unit), or null
  double critical_above = 0;  ///< excess above which the finding is critical; 0: never
  ExprPtr demand;             ///< what is needed, in the dimension of `limit`; or null
  ExprPtr limit;              ///< the limit `demand` meets; null when the rule names none
};

/// Compiles one rule; returns false (with diagnostics) when anything in it is wrong.
bool CompileRule(const RuleInfo& info, const FactRegistry& registry, CompiledRule* out,
                 DiagnosticList* diagnostics);

/// Input modes a rule may recommend (AzureML input `mode:` values).
bool IsInputMode(std::string_view mode);

}  // namespace feedcheck::rules
