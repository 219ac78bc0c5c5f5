#include "rules/evaluator.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/account_plan.h"

namespace feedcheck::rules {
namespace {

void AddMissing(std::vector<std::string>* missing, const std::string& key) {
  if (std::find(missing->begin(), missing->end(), key) == missing->end()) missing->push_back(key);
}
void AddAll(std::vector<std::string>* missing, const std::vector<std::string>& keys) {
  for (const auto& k : keys) AddMissing(missing, k);
}

Value Number(double v) {
  Value out;
  if (!std::isfinite(v)) return out;
  out.type = ValueType::kNumber;
  out.number = v;
  return out;
}
Value Bool(bool b) {
  Value out;
  out.type = ValueType::kBool;
  out.boolean = b;
  return out;
}
Value Text(std::string s) {
  Value out;
  out.type = ValueType::kText;
  out.text = std::move(s);
  return out;
}

Dimension Group(Unit unit) {
  Dimension d = InfoOf(unit).dimension;
  return d == Dimension::kRatio ? Dimension::kCount : d;
}

Value FactValue(const Expr& e, const FactSet& facts, std::vector<std::string>* missing) {
  const Fact* f = facts.Find(e.text);
  Value out;
  if (f) {
    if (e.type == ValueType::kText && f->is_text()) {
      out = Text(f->text());
    } else if (e.type == ValueType::kBool && f->is_bool()) {
      out = Bool(std::get<bool>(f->value));
    } else if (e.type == ValueType::kBool && f->is_text() &&
               (f->text() == "true" || f->text() == "false")) {
      out = Bool(f->text() == "true");
    } else if (e.type == ValueType::kNumber && f->is_number()) {
      // Facts files may carry another unit of the same dimension; a unitless number is
      // taken to be in the registry's unit.
      if (f->unit == e.unit || f->unit == Unit::kCount) {
        out = Number(f->number());
      } else if (Group(f->unit) == Group(e.unit)) {
        out = Number(f->number() * InfoOf(f->unit).scale_to_base / InfoOf(e.unit).scale_to_base);
      }
    }
  }
  if (!out.known()) {
    AddMissing(missing, f ? e.text + " (wrong type or unit)" : e.text);
    return out;
  }
  out.fact = f;
  return out;
}

int Compare(double a, double b) { return a < b ? -1 : (a > b ? 1 : 0); }

bool Equal(const Value& a, const Value& b) {
  if (a.type == ValueType::kText) return a.text == b.text;
  if (a.type == ValueType::kBool) return a.boolean == b.boolean;
  // Relative tolerance: 0.1 + 0.2 == 0.3, and unit conversions do not break equality.
  double scale = std::max({std::fabs(a.number), std::fabs(b.number), 1e-300});
  return std::fabs(a.number - b.number) <= 1e-9 * scale;
}

class Evaluator {
 public:
  explicit Evaluator(const FactSet& facts) : facts_(facts) {}

  Value Eval(const Expr& e, std::vector<std::string>* missing) {
    switch (e.kind) {
      case NodeKind::kNumber:
        return Number(e.number);
      case NodeKind::kString:
        return Text(e.text);
      case NodeKind::kBool:
        return Bool(e.boolean);
      case NodeKind::kFact:
        return FactValue(e, facts_, missing);
      case NodeKind::kUnary: {
        Value v = Eval(*e.children[0], missing);
        if (!v.known()) return Value{};
        return e.op == Op::kNot ? Bool(!v.boolean) : Number(-v.number);
      }
      case NodeKind::kBinary:
        return Binary(e, missing);
      case NodeKind::kIn:
        return In(e, missing);
      case NodeKind::kCall:
        return Call(e, missing);
    }
    return Value{};
  }

 private:
  Value Scaled(const Expr& e, size_t i, std::vector<std::string>* missing) {
    Value v = Eval(*e.children[i], missing);
    if (v.type == ValueType::kNumber && e.scales.size() > i && e.scales[i] != 1) {
      v.number *= e.scales[i];
      v.fact = nullptr;
    }
    return v;
  }

  Value Binary(const Expr& e, std::vector<std::string>* missing) {
    if (e.op == Op::kAnd || e.op == Op::kOr) {
      // Kleene logic: a known side that decides the result hides the other's missing facts.
      std::vector<std::string> ml, mr;
      Value l = Eval(*e.children[0], &ml);
      Value r = Eval(*e.children[1], &mr);
      bool decisive = e.op == Op::kOr;  // true decides 'or', false decides 'and'
      if ((l.known() && l.boolean == decisive) || (r.known() && r.boolean == decisive))
        return Bool(decisive);
      if (l.known() && r.known()) return Bool(!decisive);
      AddAll(missing, ml);
      AddAll(missing, mr);
      return Value{};
    }
    Value l = Scaled(e, 0, missing);
    Value r = Scaled(e, 1, missing);
    if (!l.known() || !r.known()) return Value{};
    switch (e.op) {
      case Op::kEq:
        return Bool(Equal(l, r));
      case Op::kNe:
        return Bool(!Equal(l, r));
      case Op::kLt:
        return Bool(Compare(l.number, r.number) < 0);
      case Op::kLe:
        return Bool(Compare(l.number, r.number) <= 0 || Equal(l, r));
      case Op::kGt:
        return Bool(Compare(l.number, r.number) > 0);
      case Op::kGe:
        return Bool(Compare(l.number, r.number) >= 0 || Equal(l, r));
      case Op::kAdd:
        return Number(l.number + r.number);
      case Op::kSub:
        return Number(l.number - r.number);
      case Op::kMul:
        return Number(l.number * r.number * e.out_scale);
      case Op::kDiv:
        if (r.number == 0) {
          AddMissing(missing, fmt::format("(division by zero: {})", ToString(*e.children[1])));
          return Value{};
        }
        return Number(l.number / r.number * e.out_scale);
      default:
        return Value{};
    }
  }

  Value In(const Expr& e, std::vector<std::string>* missing) {
    Value x = Eval(*e.children[0], missing);
    if (!x.known()) return Value{};
    bool found = false;
    for (size_t i = 1; i < e.children.size() && !found; ++i) {
      Value item = Scaled(e, i, missing);
      if (item.known() && Equal(x, item)) found = true;
    }
    return Bool(found != e.negated);
  }

  Value Call(const Expr& e, std::vector<std::string>* missing) {
    const std::string& name = e.text;
    if (name == "exists") {
      std::vector<std::string> ignored;
      return Bool(FactValue(*e.children[0], facts_, &ignored).known());
    }
    if (name == "coalesce" || name == "sum") {
      std::vector<std::string> inner;
      Value out;
      double total = 0;
      bool any = false;
      for (size_t i = 0; i < e.children.size(); ++i) {
        Value v = Scaled(e, i, &inner);
        if (!v.known()) continue;
        if (name == "coalesce") return v;
        total += v.number;
        any = true;
      }
      if (any) return Number(total);
      AddAll(missing, inner);
      return out;
    }
    if (name == "if") {
      // Only the branch taken is evaluated: its facts alone can be missing.
      Value cond = Eval(*e.children[0], missing);
      if (!cond.known()) return Value{};
      return Scaled(e, cond.boolean ? 1 : 2, missing);
    }
    std::vector<Value> args;
    for (size_t i = 0; i < e.children.size(); ++i) {
      args.push_back(Scaled(e, i, missing));
      if (!args.back().known()) return Value{};
    }
    if (name == "num") {
      auto q = ParseQuantity(args[0].text);
      if (!q || q->unit != Unit::kCount) {
        AddMissing(missing, fmt::format("({} is not a number: '{}')", ToString(*e.children[0]),
                                        args[0].text));
        return Value{};
      }
      return Number(q->value);
    }
    if (name == "floor") return Number(std::floor(args[0].number));
    if (name == "ceil") return Number(std::ceil(args[0].number));
    if (name == "round") return Number(std::round(args[0].number));
    if (name == "min" || name == "max") {
      double v = args[0].number;
      for (const auto& a : args) v = name == "min" ? std::min(v, a.number) : std::max(v, a.number);
      return Number(v);
    }
    if (name == "rank_plan") return Text(RankPlan(args[0].number, args[1].number));
    if (name == "account_plan") {
      AccountPlan plan;
      const double nodes = std::round(args[0].number);
      if (nodes < 1 || nodes > 1e6 ||
          !PlanAccounts(
              static_cast<int>(nodes), args[1].number, args[2].number, &plan,
              args.size() > 7 ? RequestLimit{args[6].number, args[7].number} : RequestLimit{})) {
        AddMissing(missing, "(account_plan(): nodes and rates must be above 0)");
        return Value{};
      }
      const double ppn = std::round(args[4].number);
      NodeIndexSource index{args[3].text, ppn >= 1 && ppn < 1e6 ? static_cast<int>(ppn) : 0};
      return Text(DescribeAccountPlan(plan, index, args.size() > 5 ? args[5].text : ""));
    }
    return Value{};
  }

  const FactSet& facts_;
};

}  // namespace

Value Evaluate(const Expr& expr, const FactSet& facts, std::vector<std::string>* missing) {
  Evaluator evaluator(facts);
  return evaluator.Eval(expr, missing);
}

namespace {
// 2000000 -> "2,000,000"; other numbers as FormatNumber prints them.
std::string WithThousands(double v) {
  std::string s = FormatNumber(v);
  if (std::fabs(v) < 10000 || v != std::floor(v)) return s;
  size_t begin = s[0] == '-' ? 1 : 0;
  std::string out = begin ? "-" : "";
  for (size_t i = begin; i < s.size(); ++i) {
    if (i > begin && (s.size() - i) % 3 == 0) out += ',';
    out += s[i];
  }
  return out;
}
}  // namespace

std::string FormatResult(const Expr& expr, const Value& value, Style style) {
  switch (value.type) {
    case ValueType::kUnknown:
      return "?";
    case ValueType::kText:
      return value.text;
    case ValueType::kBool:
      return value.boolean ? "true" : "false";
    case ValueType::kNumber:
      break;
  }
  if (style == Style::kRaw) return FormatNumber(value.number, 6);
  Unit unit = value.fact ? value.fact->unit : expr.unit;
  if (expr.bare || unit == Unit::kCount) return WithThousands(value.number);
  if (value.fact) return FormatFactValue(*value.fact);
  return FormatValue(value.number, expr.unit);
}

std::string RankPlan(double nodes_d, double accounts_d) {
  if (!std::isfinite(nodes_d) || !std::isfinite(accounts_d)) return "?";
  long nodes = std::clamp(std::lround(nodes_d), 1L, 1000000L);
  long accounts = std::clamp(std::lround(accounts_d), 1L, std::min(nodes, 64L));
  std::string out;
  long first = 0;
  for (long a = 0; a < accounts; ++a) {
    // Ranks r with floor(r * accounts / nodes) == a.
    long last = ((a + 1) * nodes + accounts - 1) / accounts - 1;
    if (!out.empty()) out += ", ";
    if (first == last)
      out += fmt::format("node {} -> account {}", first, a + 1);
    else
      out += fmt::format("nodes {}-{} -> account {}", first, last, a + 1);
    first = last + 1;
  }
  return out;
}

}  // namespace feedcheck::rules
