#include "rules/condition_ast.h"

#include <algorithm>

namespace feedcheck::rules {

std::string_view OpText(Op op) {
  switch (op) {
    case Op::kOr:
      return "or";
    case Op::kAnd:
      return "and";
    case Op::kNot:
      return "not";
    case Op::kNeg:
      return "-";
    case Op::kEq:
      return "==";
    case Op::kNe:
      return "!=";
    case Op::kLt:
      return "<";
    case Op::kLe:
      return "<=";
    case Op::kGt:
      return ">";
    case Op::kGe:
      return ">=";
    case Op::kAdd:
      return "+";
    case Op::kSub:
      return "-";
    case Op::kMul:
      return "*";
    case Op::kDiv:
      return "/";
  }
  return "?";
}

namespace {
void Collect(const Expr& e, std::vector<std::string>* keys) {
  if (e.kind == NodeKind::kFact && std::find(keys->begin(), keys->end(), e.text) == keys->end())
    keys->push_back(e.text);
  for (const auto& c : e.children) Collect(*c, keys);
}
}  // namespace

std::vector<std::string> FactKeys(const Expr& expr) {
  std::vector<std::string> keys;
  Collect(expr, &keys);
  return keys;
}

std::string ToString(const Expr& e) {
  switch (e.kind) {
    case NodeKind::kNumber:
      return e.text;
    case NodeKind::kString:
      return "\"" + e.text + "\"";
    case NodeKind::kBool:
      return e.boolean ? "true" : "false";
    case NodeKind::kFact:
      return e.text;
    case NodeKind::kUnary:
      return "(" + std::string(OpText(e.op)) + (e.op == Op::kNot ? " " : "") +
             ToString(*e.children[0]) + ")";
    case NodeKind::kBinary:
      return "(" + ToString(*e.children[0]) + " " + std::string(OpText(e.op)) + " " +
             ToString(*e.children[1]) + ")";
    case NodeKind::kIn: {
      std::string s = "(" + ToString(*e.children[0]) + (e.negated ? " not in [" : " in [");
      for (size_t i = 1; i < e.children.size(); ++i)
        s += (i > 1 ? ", " : "") + ToString(*e.children[i]);
      return s + "])";
    }
    case NodeKind::kCall: {
      std::string s = e.text + "(";
      for (size_t i = 0; i < e.children.size(); ++i)
        s += (i > 0 ? ", " : "") + ToString(*e.children[i]);
      return s + ")";
    }
  }
  return "?";
}

}  // namespace feedcheck::rules
