#include "rules/type_checker.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/diagnostic_codes.h"
#include "rules/rule_messages.h"

namespace feedcheck::rules {
namespace {

// Counts and ratios are both dimensionless: 0.5 of a count compares with 50%.
Dimension Group(Unit unit) {
  Dimension d = InfoOf(unit).dimension;
  return d == Dimension::kRatio ? Dimension::kCount : d;
}
double Base(Unit unit) { return InfoOf(unit).scale_to_base; }
bool IsScalar(const Expr& e) { return e.bare || Group(e.unit) == Dimension::kCount; }

Unit CanonicalUnit(Dimension d) {
  switch (d) {
    case Dimension::kBytes:
      return Unit::kBytes;
    case Dimension::kBitRate:
      return Unit::kGbps;
    case Dimension::kDuration:
      return Unit::kSeconds;
    case Dimension::kFrequency:
      return Unit::kPerSecond;
    default:
      return Unit::kCount;
  }
}

struct Product {
  Dimension left, right, result;
  double factor;  // applied to the product/quotient of base values
};
// Base units: bytes, bit/s, seconds, 1/s. Only products that mean something are allowed.
constexpr Product kMultiply[] = {
    {Dimension::kBitRate, Dimension::kDuration, Dimension::kBytes, 1.0 / 8},
    {Dimension::kDuration, Dimension::kBitRate, Dimension::kBytes, 1.0 / 8},
    {Dimension::kBytes, Dimension::kFrequency, Dimension::kBitRate, 8},
    {Dimension::kFrequency, Dimension::kBytes, Dimension::kBitRate, 8},
    {Dimension::kFrequency, Dimension::kDuration, Dimension::kCount, 1},
    {Dimension::kDuration, Dimension::kFrequency, Dimension::kCount, 1},
};
constexpr Product kDivide[] = {
    {Dimension::kBytes, Dimension::kBitRate, Dimension::kDuration, 8},
    {Dimension::kBytes, Dimension::kDuration, Dimension::kBitRate, 8},
    {Dimension::kBitRate, Dimension::kBytes, Dimension::kFrequency, 1.0 / 8},
    {Dimension::kBitRate, Dimension::kFrequency, Dimension::kBytes, 1.0 / 8},
    {Dimension::kCount, Dimension::kDuration, Dimension::kFrequency, 1},
    {Dimension::kCount, Dimension::kFrequency, Dimension::kDuration, 1},
};

class Checker {
 public:
  Checker(const FactRegistry& registry, std::vector<CheckError>* errors)
      : registry_(registry), errors_(errors) {}

  bool Check(Expr& e) {
    switch (e.kind) {
      case NodeKind::kNumber:
        e.type = ValueType::kNumber;
        return true;
      case NodeKind::kString:
        e.type = ValueType::kText;
        return true;
      case NodeKind::kBool:
        e.type = ValueType::kBool;
        return true;
      case NodeKind::kFact:
        return Fact(e);
      case NodeKind::kUnary:
        return Unary(e);
      case NodeKind::kBinary:
        return Binary(e);
      case NodeKind::kIn:
        return In(e);
      case NodeKind::kCall:
        return Call(e);
    }
    return false;
  }

 private:
  bool Error(const Expr& at, const char* code, std::string message) {
    errors_->push_back(CheckError{at.offset, code, std::move(message)});
    return false;
  }
  bool CheckChildren(Expr& e) {
    bool ok = true;
    for (auto& c : e.children) ok = Check(*c) && ok;
    e.scales.assign(e.children.size(), 1.0);
    return ok;
  }
  bool Want(const Expr& e, ValueType type, std::string_view role) {
    if (e.type == type) return true;
    static constexpr const char* kNames[] = {"unknown", "a number", "text", "true/false"};
    return Error(e, codes::kTypeMismatch,
                 fmt::format(kMsgTypeMismatch, fmt::format("{} needs {}, but {} is {}", role,
                                                           kNames[static_cast<int>(type)],
                                                           ToString(e), DescribeType(e))));
  }

  bool Fact(Expr& e) {
    e.spec = registry_.Find(e.text);
    if (!e.spec) {
      std::string message = fmt::format(kMsgUnknownFact, e.text);
      auto near = registry_.Suggest(e.text);
      if (!near.empty()) message += fmt::format(kMsgDidYouMean, near.front());
      return Error(e, codes::kUnknownFact, message);
    }
    if (e.spec->unit == Unit::kText) {
      e.type = ValueType::kText;
    } else if (e.spec->unit == Unit::kBool) {
      e.type = ValueType::kBool;
    } else {
      e.type = ValueType::kNumber;
      e.unit = e.spec->unit;
    }
    return true;
  }

  bool Unary(Expr& e) {
    if (!CheckChildren(e)) return false;
    Expr& x = *e.children[0];
    if (e.op == Op::kNot) {
      e.type = ValueType::kBool;
      return Want(x, ValueType::kBool, "'not'");
    }
    e.type = ValueType::kNumber;
    e.unit = x.unit;
    e.bare = x.bare;
    return Want(x, ValueType::kNumber, "'-'");
  }

  // Puts `r` into the unit of `l` (or the other way round for a bare literal); returns the
  // common unit through `e`, the factors through e.scales[li]/[ri].
  bool Unify(Expr& e, size_t li, size_t ri, std::string_view op) {
    Expr& l = *e.children[li];
    Expr& r = *e.children[ri];
    if (l.bare && r.bare) {
      e.unit = Unit::kCount;
      e.bare = true;
    } else if (l.bare) {
      e.unit = r.unit;
    } else if (r.bare) {
      e.unit = l.unit;
    } else if (Group(l.unit) == Group(r.unit)) {
      e.unit = l.unit;
      e.scales[ri] = Base(r.unit) / Base(l.unit);
    } else {
      return Error(r, codes::kUnitMismatch,
                   fmt::format(kMsgUnitMismatch, ToString(l), DescribeType(l), op, ToString(r),
                               DescribeType(r)));
    }
    return true;
  }

  bool Binary(Expr& e) {
    if (!CheckChildren(e)) return false;
    Expr& l = *e.children[0];
    Expr& r = *e.children[1];
    std::string op(OpText(e.op));
    switch (e.op) {
      case Op::kAnd:
      case Op::kOr: {
        e.type = ValueType::kBool;
        bool a = Want(l, ValueType::kBool, fmt::format("'{}'", op));
        return Want(r, ValueType::kBool, fmt::format("'{}'", op)) && a;
      }
      case Op::kEq:
      case Op::kNe:
        e.type = ValueType::kBool;
        if (l.type != r.type) return Want(r, l.type, fmt::format("'{}' with {}", op, ToString(l)));
        if (l.type == ValueType::kNumber) return Unify(e, 0, 1, op);
        return true;
      case Op::kLt:
      case Op::kLe:
      case Op::kGt:
      case Op::kGe: {
        e.type = ValueType::kBool;
        bool a = Want(l, ValueType::kNumber, fmt::format("'{}'", op));
        if (!(Want(r, ValueType::kNumber, fmt::format("'{}'", op)) && a)) return false;
        return Unify(e, 0, 1, op);
      }
      case Op::kAdd:
      case Op::kSub: {
        e.type = ValueType::kNumber;
        bool a = Want(l, ValueType::kNumber, fmt::format("'{}'", op));
        if (!(Want(r, ValueType::kNumber, fmt::format("'{}'", op)) && a)) return false;
        return Unify(e, 0, 1, op);
      }
      case Op::kMul:
      case Op::kDiv: {
        e.type = ValueType::kNumber;
        bool a = Want(l, ValueType::kNumber, fmt::format("'{}'", op));
        if (!(Want(r, ValueType::kNumber, fmt::format("'{}'", op)) && a)) return false;
        return MulDiv(e, op);
      }
      default:
        return false;
    }
  }

  bool MulDiv(Expr& e, std::string_view op) {
    Expr& l = *e.children[0];
    Expr& r = *e.children[1];
    bool mul = e.op == Op::kMul;
    if (IsScalar(r)) {  // x * 3, x / 50%
      e.unit = l.unit;
      e.bare = l.bare && r.bare;
      e.scales[1] = r.bare ? 1 : Base(r.unit);
      return true;
    }
    if (mul && IsScalar(l)) {
      e.unit = r.unit;
      e.scales[0] = l.bare ? 1 : Base(l.unit);
      return true;
    }
    if (!mul && Group(l.unit) == Group(r.unit)) {  // same dimension: a plain ratio
      e.unit = Unit::kCount;
      e.scales = {Base(l.unit), Base(r.unit)};
      return true;
    }
    Dimension ld = IsScalar(l) ? Dimension::kCount : Group(l.unit);
    Dimension rd = Group(r.unit);
    const Product* begin = mul ? std::begin(kMultiply) : std::begin(kDivide);
    const Product* end = mul ? std::end(kMultiply) : std::end(kDivide);
    for (const Product* p = begin; p != end; ++p) {
      if (p->left != ld || p->right != rd) continue;
      e.unit = CanonicalUnit(p->result);
      e.scales = {l.bare ? 1 : Base(l.unit), Base(r.unit)};
      e.out_scale = p->factor / Base(e.unit);
      return true;
    }
    return Error(r, codes::kUnitMismatch,
                 fmt::format(kMsgUnitMismatch, ToString(l), DescribeType(l), op, ToString(r),
                             DescribeType(r)));
  }

  bool In(Expr& e) {
    if (!CheckChildren(e)) return false;
    e.type = ValueType::kBool;
    Expr& x = *e.children[0];
    if (x.type == ValueType::kBool) return Want(x, ValueType::kNumber, "'in'");
    bool ok = true;
    for (size_t i = 1; i < e.children.size(); ++i) {
      Expr& item = *e.children[i];
      if (item.type != x.type) {
        ok = Want(item, x.type, fmt::format("a list item compared with {}", ToString(x))) && ok;
        continue;
      }
      if (x.type == ValueType::kNumber) {
        Unit saved = e.unit;
        ok = Unify(e, 0, i, "in") && ok;
        e.unit = saved;
      }
    }
    return ok;
  }

  bool Call(Expr& e) {
    const std::string& name = e.text;
    const auto& known = KnownFunctions();
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      return Error(e, codes::kBadCall,
                   fmt::format(kMsgUnknownFunction, name, fmt::join(known, ", ")));
    }
    size_t n = e.children.size();
    auto arity = [&](size_t lo, size_t hi, std::string_view shown) {
      if (n >= lo && n <= hi) return true;
      return Error(e, codes::kBadCall, fmt::format(kMsgArgCount, name, shown, n));
    };
    if (name == "exists") {
      e.type = ValueType::kBool;
      if (!arity(1, 1, "1")) return false;
      Expr& arg = *e.children[0];
      if (arg.kind != NodeKind::kFact)
        return Error(arg, codes::kBadCall, "exists() takes a fact key");
      e.scales.assign(1, 1.0);
      return Fact(arg);
    }
    if (!CheckChildren(e)) return false;
    if (name == "num") {
      e.type = ValueType::kNumber;
      e.unit = Unit::kCount;
      return arity(1, 1, "1") && Want(*e.children[0], ValueType::kText, "num()");
    }
    if (name == "rank_plan") {
      e.type = ValueType::kText;
      if (!arity(2, 2, "2")) return false;
      bool a = Want(*e.children[0], ValueType::kNumber, "rank_plan()");
      return Want(*e.children[1], ValueType::kNumber, "rank_plan()") && a;
    }
    if (name == "if") {
      // if(condition, text, text): advice whose wording depends on a premise it checks; or
      // if(condition, number, number): a quantity that counts only under a premise (both
      // numbers of one dimension, or a bare 0).
      e.type = ValueType::kText;
      if (!arity(3, 3, "3")) return false;
      if (e.children[1]->type == ValueType::kNumber && e.children[2]->type == ValueType::kNumber) {
        bool ok = Want(*e.children[0], ValueType::kBool, "if()");
        const size_t anchor = e.children[1]->bare ? 2 : 1;
        e.type = ValueType::kNumber;
        e.unit = e.children[anchor]->unit;
        e.bare = e.children[anchor]->bare;
        for (size_t i : {size_t{1}, size_t{2}}) {
          Expr& arg = *e.children[i];
          if (i == anchor || arg.bare) continue;
          if (Group(arg.unit) != Group(e.unit))
            ok = Error(arg, codes::kUnitMismatch,
                       fmt::format(kMsgUnitMismatch, ToString(*e.children[anchor]),
                                   DescribeType(*e.children[anchor]), ",", ToString(arg),
                                   DescribeType(arg)));
          else
            e.scales[i] = Base(arg.unit) / Base(e.unit);
        }
        return ok;
      }
      bool ok = Want(*e.children[0], ValueType::kBool, "if()");
      ok = Want(*e.children[1], ValueType::kText, "if()") && ok;
      return Want(*e.children[2], ValueType::kText, "if()") && ok;
    }
    if (name == "account_plan") {
      // account_plan(nodes, nic rate, account egress, distribution text, processes per node
      // [, storage target kind text [, median file size, request limit per second]])
      e.type = ValueType::kText;
      if (!arity(5, 8, "5, 6 or 8")) return false;
      if (e.children.size() == 7)
        return Error(e, codes::kBadCall,
                     "account_plan() takes the median file size and the request limit together");
      bool ok = Want(*e.children[0], ValueType::kNumber, "account_plan()");
      for (size_t i : {size_t{1}, size_t{2}}) {
        Expr& rate = *e.children[i];
        if (!Want(rate, ValueType::kNumber, "account_plan()")) {
          ok = false;
          continue;
        }
        if (rate.bare || Group(rate.unit) != Dimension::kBitRate) {
          ok = Error(rate, codes::kUnitMismatch,
                     fmt::format("account_plan() takes rates here, not {}", DescribeType(rate)));
          continue;
        }
        e.scales[i] = Base(rate.unit) / Base(Unit::kGbps);  // both in Gbit/s
      }
      ok = Want(*e.children[3], ValueType::kText, "account_plan()") && ok;
      if (e.children.size() > 5)
        ok = Want(*e.children[5], ValueType::kText, "account_plan()") && ok;
      // The request side: a size (in bytes) and a rate of events (per second); a bare 0 means
      // "not weighed".
      const std::pair<Dimension, Unit> kRequestArgs[] = {{Dimension::kBytes, Unit::kBytes},
                                                         {Dimension::kFrequency, Unit::kPerSecond}};
      for (size_t i = 6; i < e.children.size(); ++i) {
        Expr& arg = *e.children[i];
        if (!Want(arg, ValueType::kNumber, "account_plan()")) {
          ok = false;
          continue;
        }
        if (arg.bare) continue;
        if (Group(arg.unit) != kRequestArgs[i - 6].first) {
          ok = Error(arg, codes::kUnitMismatch,
                     fmt::format("account_plan() takes {} here, not {}",
                                 i == 6 ? "the median file size" : "the request limit",
                                 DescribeType(arg)));
          continue;
        }
        e.scales[i] = Base(arg.unit) / Base(kRequestArgs[i - 6].second);
      }
      return Want(*e.children[4], ValueType::kNumber, "account_plan()") && ok;
    }
    if (name == "floor" || name == "ceil" || name == "round") {
      if (!arity(1, 1, "1")) return false;
      e.type = ValueType::kNumber;
      e.unit = e.children[0]->unit;
      e.bare = e.children[0]->bare;
      return Want(*e.children[0], ValueType::kNumber, name + "()");
    }
    // coalesce, sum, min, max: arguments of one type; numbers in the unit of the first
    // argument that has one.
    if (!arity(name == "min" || name == "max" ? 2 : 1, 64,
               name == "min" || name == "max" ? "2 or more" : "1 or more"))
      return false;
    ValueType type = e.children[0]->type;
    if (name != "coalesce" && type != ValueType::kNumber)
      return Want(*e.children[0], ValueType::kNumber, name + "()");
    e.type = type;
    size_t anchor = 0;
    for (size_t i = 0; i < n; ++i)
      if (!e.children[i]->bare) {
        anchor = i;
        break;
      }
    e.unit = e.children[anchor]->unit;
    e.bare = e.children[anchor]->bare;
    bool ok = true;
    for (size_t i = 0; i < n; ++i) {
      Expr& arg = *e.children[i];
      if (arg.type != type) {
        ok = Want(arg, type, name + "()") && ok;
        continue;
      }
      if (type != ValueType::kNumber || i == anchor || arg.bare) continue;
      if (Group(arg.unit) != Group(e.unit)) {
        ok = Error(arg, codes::kUnitMismatch,
                   fmt::format(kMsgUnitMismatch, ToString(*e.children[anchor]),
                               DescribeType(*e.children[anchor]), ",", ToString(arg),
                               DescribeType(arg))) &&
             ok;
        continue;
      }
      e.scales[i] = Base(arg.unit) / Base(e.unit);
    }
    return ok;
  }

  const FactRegistry& registry_;
  std::vector<CheckError>* errors_;
};

}  // namespace

const std::vector<std::string>& KnownFunctions() {
  static const std::vector<std::string> kNames = {"exists", "coalesce",  "sum",          "min",
                                                  "max",    "floor",     "ceil",         "round",
                                                  "num",    "rank_plan", "account_plan", "if"};
  return kNames;
}

std::string DescribeType(const Expr& e) {
  switch (e.type) {
    case ValueType::kText:
      return "text";
    case ValueType::kBool:
      return "true/false";
    case ValueType::kUnknown:
      return "unknown";
    case ValueType::kNumber:
      break;
  }
  if (e.bare) return "a plain number";
  if (e.unit == Unit::kCount) return "a count";
  return fmt::format("{}, a {}", UnitName(e.unit), DimensionName(InfoOf(e.unit).dimension));
}

bool CheckExpression(Expr& expr, const FactRegistry& registry, std::vector<CheckError>* errors) {
  Checker checker(registry, errors);
  return checker.Check(expr);
}

}  // namespace feedcheck::rules
