// Parse + check of one expression taken from a rule file, with errors turned into diagnostics
// that point at the right file, line and column.
#pragma once

#include <string>

#include "core/diagnostic.h"
#include "core/fact_registry.h"
#include "rules/condition_ast.h"
#include "rules/rule_info.h"

namespace feedcheck::rules {

/// Compiles value[begin, end) of `text`. Returns nullptr (and adds diagnostics) on error.
ExprPtr CompileExpression(const SourceText& text, size_t begin, size_t end,
                          const FactRegistry& registry, const std::string& context,
                          DiagnosticList* diagnostics);

}  // namespace feedcheck::rules
