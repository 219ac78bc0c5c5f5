// Rules: read -> compile -> evaluate over a FactSet (docs/rules.md: rules are data).
// A RuleSet holds compiled rules from built-in and user files; Evaluate() turns facts into
// findings, and lists every rule whose facts were missing as "not evaluated (missing ...)".
#pragma once

#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "core/fact_registry.h"
#include "core/fact_set.h"
#include "core/finding.h"
#include "rules/rule_compiler.h"

namespace feedcheck::rules {

struct EvaluationResult {
  std::vector<Finding> findings;     ///< most severe first, then in rule order
  std::vector<SkippedRule> skipped;  ///< rules whose result depended on missing facts
};

/// The kind of the ConfigFragment that carries a rule's recommended input mode.
inline constexpr const char* kInputModeFragment = "input_mode";

class RuleSet {
 public:
  explicit RuleSet(const FactRegistry& registry = FactRegistry::Builtin()) : registry_(&registry) {}

  /// Reads and compiles one rules file. Rules with errors are left out, the others kept.
  /// Returns false when the file had any error (unreadable, bad YAML, a bad rule).
  /// `display_name` (default: `path`) is what findings and diagnostics call the file.
  bool LoadFile(const std::string& path, DiagnosticList* diagnostics,
                const std::string& display_name = "");
  /// Same from text (tests, fuzzing); `name` is used in diagnostics.
  bool LoadText(const std::string& name, std::string content, DiagnosticList* diagnostics);
  /// Every *.yaml / *.yml file of `dir`, in name order. With `display_dir`, files are named
  /// `display_dir/<file>` in findings and diagnostics (built-ins: their place in the sources).
  bool LoadDirectory(const std::string& dir, DiagnosticList* diagnostics,
                     const std::string& display_dir = "");

  EvaluationResult Evaluate(const FactSet& facts) const;

  const std::vector<CompiledRule>& rules() const { return rules_; }
  const CompiledRule* Find(std::string_view id) const;

 private:
  void Add(CompiledRule rule, DiagnosticList* diagnostics);

  const FactRegistry* registry_;
  std::vector<CompiledRule> rules_;
};

/// Loads the built-in rules (compiled in; a file of builtin_dir replaces the embedded file of the
/// same name; named rules/builtin/ in findings, where they are in the sources) and then each
/// user directory (--rules DIR).
bool LoadRuleDirectories(const std::string& builtin_dir, const std::vector<std::string>& user_dirs,
                         RuleSet* rules, DiagnosticList* diagnostics);

}  // namespace feedcheck::rules
