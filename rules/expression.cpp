#include "rules/expression.h"

#include "rules/condition_parser.h"
#include "rules/type_checker.h"

namespace feedcheck::rules {

ExprPtr CompileExpression(const SourceText& text, size_t begin, size_t end,
                          const FactRegistry& registry, const std::string& context,
                          DiagnosticList* diagnostics) {
  std::string_view source = std::string_view(text.value).substr(begin, end - begin);
  ParseError parse_error;
  ExprPtr expr = ParseCondition(source, &parse_error);
  if (!expr) {
    diagnostics->Add(
        text.At(begin + parse_error.offset, parse_error.code, parse_error.message, context));
    return nullptr;
  }
  std::vector<CheckError> errors;
  if (!CheckExpression(*expr, registry, &errors)) {
    for (const auto& e : errors)
      diagnostics->Add(text.At(begin + e.offset, e.code, e.message, context));
    return nullptr;
  }
  return expr;
}

}  // namespace feedcheck::rules
