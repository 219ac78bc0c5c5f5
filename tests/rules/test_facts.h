// Test helpers: facts from "key=value" strings (values parsed in the key's unit, as a profile
// would), and compiling one expression against the built-in registry.
#pragma once

#include <initializer_list>
#include <stdexcept>
#include <string>

#include "core/fact_set.h"
#include "rules/condition_parser.h"
#include "rules/profile.h"
#include "rules/type_checker.h"

namespace feedcheck::rules::test {

inline FactSet Facts(std::initializer_list<std::string> items) {
  FactSet facts;
  for (const auto& item : items) {
    size_t eq = item.find('=');
    Fact f;
    std::string error;
    if (eq == std::string::npos ||
        !ParseFactValue(item.substr(0, eq), item.substr(eq + 1), &f, &error))
      throw std::runtime_error("bad test fact '" + item + "': " + error);
    f.provenance.origin = FactOrigin::kDeclared;
    f.provenance.source = "test";
    facts.Set(std::move(f));
  }
  return facts;
}

/// Parses and checks; on error returns null and puts "CODE@offset: message" in `error`.
inline ExprPtr Compile(const std::string& text, std::string* error = nullptr) {
  ParseError pe;
  ExprPtr e = ParseCondition(text, &pe);
  if (!e) {
    if (error) *error = pe.code + "@" + std::to_string(pe.offset) + ": " + pe.message;
    return nullptr;
  }
  std::vector<CheckError> errors;
  if (!CheckExpression(*e, FactRegistry::Builtin(), &errors)) {
    if (error && !errors.empty())
      *error = errors[0].code + "@" + std::to_string(errors[0].offset) + ": " + errors[0].message;
    return nullptr;
  }
  return e;
}

}  // namespace feedcheck::rules::test
