// Evaluates a checked expression over a FactSet with three-valued logic: a value is unknown
// when a fact it needs is absent, and `and`/`or` only stay unknown when the known side does
// not decide them. Unknown results carry the missing keys, so a rule can say
// "not evaluated (missing ...)" instead of being silently false.
#pragma once

#include <string>
#include <vector>

#include "core/fact_set.h"
#include "rules/condition_ast.h"

namespace feedcheck::rules {

struct Value {
  ValueType type = ValueType::kUnknown;  ///< kUnknown: could not be computed
  double number = 0;                     ///< in the node's unit (Expr::unit)
  std::string text;
  bool boolean = false;
  const Fact* fact = nullptr;  ///< set when the value is one fact as it was (for formatting)

  bool known() const { return type != ValueType::kUnknown; }
};

/// Evaluates `expr` (already checked). Keys of absent facts that made the result unknown are
/// appended to `missing` (without duplicates).
Value Evaluate(const Expr& expr, const FactSet& facts, std::vector<std::string>* missing);

/// How a placeholder prints: kHuman for messages ("4.00 MiB", "2,000,000"), kRaw for env
/// values and config (plain numbers in the expression's unit: "4194304", "384").
enum class Style { kHuman, kRaw };

/// The value in the node's unit: "200 Gbit/s", "384", "download".
std::string FormatResult(const Expr& expr, const Value& value, Style style = Style::kHuman);

/// "nodes 0-5 -> account 1, nodes 6-11 -> account 2" for `nodes` nodes over `accounts`
/// accounts in contiguous, balanced blocks (account = floor(node index * accounts / nodes)).
std::string RankPlan(double nodes, double accounts);

}  // namespace feedcheck::rules
