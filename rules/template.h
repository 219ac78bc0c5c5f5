// Text with {expression} placeholders: rule messages ("Median file is
// {dataset.median_file_bytes}") and env values ("{node.vcpus * 4}"). A placeholder that is one
// fact prints the fact in its human form ("4.00 MiB"); any other expression prints in its
// unit. "{{" and "}}" are literal braces. Placeholders are checked when the rule is compiled.
#pragma once

#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "core/fact_registry.h"
#include "core/fact_set.h"
#include "rules/condition_ast.h"
#include "rules/evaluator.h"
#include "rules/rule_info.h"

namespace feedcheck::rules {

struct TemplatePart {
  std::string literal;  ///< text before the placeholder (or the whole tail)
  ExprPtr expr;         ///< null for the tail
};

struct Template {
  std::vector<TemplatePart> parts;
  /// Fact keys the placeholders name.
  std::vector<std::string> FactKeys() const;
};

/// Parses and checks every placeholder; returns false (with diagnostics) on any error.
bool CompileTemplate(const SourceText& text, const FactRegistry& registry,
                     const std::string& context, Template* out, DiagnosticList* diagnostics);

/// Renders the template; placeholders that cannot be computed print "?" and add their
/// missing keys to `missing`.
std::string RenderTemplate(const Template& tmpl, const FactSet& facts,
                           std::vector<std::string>* missing, Style style = Style::kHuman);

}  // namespace feedcheck::rules
