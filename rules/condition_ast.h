// The condition AST. Every node keeps the offset of its first character in the expression so
// the compiler can point at it; the type checker fills in the type, unit and conversion
// factors, so evaluation does no unit work of its own.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/fact_registry.h"
#include "core/units.h"

namespace feedcheck::rules {

enum class NodeKind { kNumber, kString, kBool, kFact, kUnary, kBinary, kIn, kCall };

enum class Op { kOr, kAnd, kNot, kNeg, kEq, kNe, kLt, kLe, kGt, kGe, kAdd, kSub, kMul, kDiv };

std::string_view OpText(Op op);

/// Static type of an expression after checking.
enum class ValueType { kUnknown, kNumber, kText, kBool };

struct Expr {
  NodeKind kind = NodeKind::kNumber;
  size_t offset = 0;  ///< position of the node's first character in the expression text
  int depth = 1;      ///< height of this subtree (bounded by the parser)

  double number = 0;  ///< kNumber literal value, in `unit`
  bool boolean = false;
  std::string text;                             ///< kString value, kFact key, kCall function name
  Op op = Op::kAdd;                             ///< kUnary, kBinary
  bool negated = false;                         ///< kIn: "not in"
  std::vector<std::unique_ptr<Expr>> children;  ///< operands, call arguments, or x then list

  // Filled by the type checker.
  ValueType type = ValueType::kUnknown;
  Unit unit = Unit::kCount;        ///< numbers: the unit the value is computed in
  bool bare = false;               ///< a number written without a unit: adopts its partner's unit
  const FactSpec* spec = nullptr;  ///< kFact
  std::vector<double> scales;      ///< per child: factor applied to the child's value
  double out_scale = 1;            ///< factor applied to the result (products, quotients)
};

using ExprPtr = std::unique_ptr<Expr>;

/// Every fact key the expression names, in order of appearance, without duplicates.
std::vector<std::string> FactKeys(const Expr& expr);

/// The expression printed back, fully parenthesised (tests, debugging).
std::string ToString(const Expr& expr);

}  // namespace feedcheck::rules
