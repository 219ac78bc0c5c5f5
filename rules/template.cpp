#include "rules/template.h"

#include <algorithm>

#include "core/diagnostic_codes.h"
#include "rules/evaluator.h"
#include "rules/expression.h"
#include "rules/rule_messages.h"

namespace feedcheck::rules {

std::vector<std::string> Template::FactKeys() const {
  std::vector<std::string> keys;
  for (const auto& part : parts) {
    if (!part.expr) continue;
    for (auto& k : rules::FactKeys(*part.expr))
      if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
  }
  return keys;
}

bool CompileTemplate(const SourceText& text, const FactRegistry& registry,
                     const std::string& context, Template* out, DiagnosticList* diagnostics) {
  const std::string& s = text.value;
  out->parts.clear();
  std::string literal;
  bool ok = true;
  size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (c == '{' && i + 1 < s.size() && s[i + 1] == '{') {
      literal += '{';
      i += 2;
    } else if (c == '}' && i + 1 < s.size() && s[i + 1] == '}') {
      literal += '}';
      i += 2;
    } else if (c == '}') {
      diagnostics->Add(text.At(i, codes::kBadTemplate, kMsgStrayBrace, context));
      ok = false;
      ++i;
    } else if (c == '{') {
      size_t close = s.find('}', i + 1);
      if (close == std::string::npos) {
        diagnostics->Add(text.At(i, codes::kBadTemplate, kMsgUnclosedBrace, context));
        return false;
      }
      if (s.find_first_not_of(" \t\n", i + 1) >= close) {
        diagnostics->Add(text.At(i, codes::kBadTemplate, kMsgEmptyPlaceholder, context));
        ok = false;
      } else {
        ExprPtr expr = CompileExpression(text, i + 1, close, registry, context, diagnostics);
        if (!expr) ok = false;
        out->parts.push_back(TemplatePart{std::move(literal), std::move(expr)});
        literal.clear();
      }
      i = close + 1;
    } else {
      literal += c;
      ++i;
    }
  }
  out->parts.push_back(TemplatePart{std::move(literal), nullptr});
  return ok;
}

std::string RenderTemplate(const Template& tmpl, const FactSet& facts,
                           std::vector<std::string>* missing, Style style) {
  std::string out;
  for (const auto& part : tmpl.parts) {
    out += part.literal;
    if (!part.expr) continue;
    Value v = Evaluate(*part.expr, facts, missing);
    out += FormatResult(*part.expr, v, style);
  }
  return out;
}

}  // namespace feedcheck::rules
