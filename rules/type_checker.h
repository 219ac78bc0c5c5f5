// Compile-time checks of a parsed expression: resolves fact keys against the registry (with a
// near-miss suggestion), gives every node a type and a unit, converts literals with units into
// the unit of what they are compared with, and rejects unit and type mismatches.
#pragma once

#include <string>
#include <vector>

#include "core/fact_registry.h"
#include "rules/condition_ast.h"

namespace feedcheck::rules {

struct CheckError {
  size_t offset = 0;
  std::string code;
  std::string message;
};

/// Checks `expr` in place; returns false when any error was found (all are reported).
bool CheckExpression(Expr& expr, const FactRegistry& registry, std::vector<CheckError>* errors);

/// Names of the functions the language knows, for messages and docs.
const std::vector<std::string>& KnownFunctions();

/// "Gbit/s", "size", "text", "true/false": how a checked node's type reads in a message.
std::string DescribeType(const Expr& expr);

}  // namespace feedcheck::rules
