#include "rules/condition_parser.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/diagnostic_codes.h"
#include "rules/rule_messages.h"

namespace feedcheck::rules {
namespace {

class Parser {
 public:
  Parser(std::vector<Token> tokens, ParseError* error)
      : tokens_(std::move(tokens)), error_(error) {}

  ExprPtr Condition() {
    ExprPtr e = OrExpr();
    if (!e) return nullptr;
    if (Peek().kind != TokenKind::kEnd) return Expected("an operator or the end");
    return e;
  }

 private:
  const Token& Peek() const { return tokens_[pos_]; }
  const Token& Next() {
    const Token& t = tokens_[pos_];
    if (pos_ + 1 < tokens_.size()) ++pos_;
    return t;
  }
  bool Accept(TokenKind kind) {
    if (Peek().kind != kind) return false;
    Next();
    return true;
  }

  ExprPtr Fail(size_t offset, const char* code, std::string message) {
    if (!failed_ && error_) *error_ = ParseError{offset, code, std::move(message)};
    failed_ = true;
    return nullptr;
  }
  ExprPtr Expected(std::string_view what) {
    const Token& t = Peek();
    std::string found = t.kind == TokenKind::kEnd ? std::string(TokenKindName(t.kind))
                                                  : fmt::format("'{}'", t.text);
    return Fail(t.offset, codes::kConditionSyntax, fmt::format(kMsgExpected, what, found));
  }

  // Guards both the parser's own recursion and the height of the tree it builds.
  struct DepthGuard {
    explicit DepthGuard(int* d) : depth(d) { ++*depth; }
    ~DepthGuard() { --*depth; }
    int* depth;
  };
  bool TooDeep(size_t offset) {
    if (depth_ <= kMaxDepth) return false;
    Fail(offset, codes::kConditionTooDeep, fmt::format(kMsgTooDeep, kMaxDepth));
    return true;
  }

  ExprPtr Make(NodeKind kind, size_t offset) {
    auto e = std::make_unique<Expr>();
    e->kind = kind;
    e->offset = offset;
    return e;
  }
  // Sets the node's height from its children; fails past the cap.
  ExprPtr Finish(ExprPtr e) {
    int h = 0;
    for (const auto& c : e->children) h = std::max(h, c->depth);
    e->depth = h + 1;
    if (e->depth > kMaxDepth)
      return Fail(e->offset, codes::kConditionTooDeep, fmt::format(kMsgTooDeep, kMaxDepth));
    return e;
  }
  ExprPtr Binary(Op op, ExprPtr l, ExprPtr r) {
    auto e = Make(NodeKind::kBinary, l->offset);
    e->op = op;
    e->children.push_back(std::move(l));
    e->children.push_back(std::move(r));
    return Finish(std::move(e));
  }

  ExprPtr OrExpr() {
    DepthGuard guard(&depth_);
    if (TooDeep(Peek().offset)) return nullptr;
    ExprPtr left = AndExpr();
    while (left && Accept(TokenKind::kOr)) {
      ExprPtr right = AndExpr();
      if (!right) return nullptr;
      left = Binary(Op::kOr, std::move(left), std::move(right));
    }
    return left;
  }

  ExprPtr AndExpr() {
    ExprPtr left = NotExpr();
    while (left && Accept(TokenKind::kAnd)) {
      ExprPtr right = NotExpr();
      if (!right) return nullptr;
      left = Binary(Op::kAnd, std::move(left), std::move(right));
    }
    return left;
  }

  ExprPtr NotExpr() {
    if (Peek().kind == TokenKind::kNot) {
      DepthGuard guard(&depth_);
      size_t offset = Next().offset;
      if (TooDeep(offset)) return nullptr;
      ExprPtr operand = NotExpr();
      if (!operand) return nullptr;
      auto e = Make(NodeKind::kUnary, offset);
      e->op = Op::kNot;
      e->children.push_back(std::move(operand));
      return Finish(std::move(e));
    }
    return Comparison();
  }

  ExprPtr Comparison() {
    ExprPtr left = Sum();
    if (!left) return nullptr;
    Op op;
    switch (Peek().kind) {
      case TokenKind::kEq:
        op = Op::kEq;
        break;
      case TokenKind::kNe:
        op = Op::kNe;
        break;
      case TokenKind::kLt:
        op = Op::kLt;
        break;
      case TokenKind::kLe:
        op = Op::kLe;
        break;
      case TokenKind::kGt:
        op = Op::kGt;
        break;
      case TokenKind::kGe:
        op = Op::kGe;
        break;
      case TokenKind::kIn:
      case TokenKind::kNot:
        return InList(std::move(left));
      default:
        return left;
    }
    Next();
    ExprPtr right = Sum();
    if (!right) return nullptr;
    return Binary(op, std::move(left), std::move(right));
  }

  ExprPtr InList(ExprPtr left) {
    bool negated = Accept(TokenKind::kNot);
    if (!Accept(TokenKind::kIn)) return Expected("'in'");
    auto e = Make(NodeKind::kIn, left->offset);
    e->negated = negated;
    e->children.push_back(std::move(left));
    if (!Accept(TokenKind::kLBracket)) return Expected("'['");
    if (!Accept(TokenKind::kRBracket)) {
      do {
        ExprPtr item = Sum();
        if (!item) return nullptr;
        e->children.push_back(std::move(item));
      } while (Accept(TokenKind::kComma));
      if (!Accept(TokenKind::kRBracket)) return Expected("',' or ']'");
    }
    return Finish(std::move(e));
  }

  ExprPtr Sum() {
    ExprPtr left = Product();
    while (left && (Peek().kind == TokenKind::kPlus || Peek().kind == TokenKind::kMinus)) {
      Op op = Next().kind == TokenKind::kPlus ? Op::kAdd : Op::kSub;
      ExprPtr right = Product();
      if (!right) return nullptr;
      left = Binary(op, std::move(left), std::move(right));
    }
    return left;
  }

  ExprPtr Product() {
    ExprPtr left = Unary();
    while (left && (Peek().kind == TokenKind::kStar || Peek().kind == TokenKind::kSlash)) {
      Op op = Next().kind == TokenKind::kStar ? Op::kMul : Op::kDiv;
      ExprPtr right = Unary();
      if (!right) return nullptr;
      left = Binary(op, std::move(left), std::move(right));
    }
    return left;
  }

  ExprPtr Unary() {
    if (Peek().kind == TokenKind::kMinus) {
      DepthGuard guard(&depth_);
      size_t offset = Next().offset;
      if (TooDeep(offset)) return nullptr;
      ExprPtr operand = Unary();
      if (!operand) return nullptr;
      auto e = Make(NodeKind::kUnary, offset);
      e->op = Op::kNeg;
      e->children.push_back(std::move(operand));
      return Finish(std::move(e));
    }
    return Primary();
  }

  ExprPtr Primary() {
    const Token& t = Peek();
    switch (t.kind) {
      case TokenKind::kNumber: {
        auto e = Make(NodeKind::kNumber, t.offset);
        e->number = t.number;
        e->unit = t.unit;
        e->bare = !t.has_unit;
        e->text = t.text;
        Next();
        return e;
      }
      case TokenKind::kString: {
        auto e = Make(NodeKind::kString, t.offset);
        e->text = t.text;
        Next();
        return e;
      }
      case TokenKind::kTrue:
      case TokenKind::kFalse: {
        auto e = Make(NodeKind::kBool, t.offset);
        e->boolean = t.kind == TokenKind::kTrue;
        Next();
        return e;
      }
      case TokenKind::kName: {
        auto e = Make(NodeKind::kFact, t.offset);
        e->text = t.text;
        Next();
        if (Peek().kind == TokenKind::kLParen) return Call(std::move(e));
        return e;
      }
      case TokenKind::kLParen: {
        Next();
        ExprPtr inner = OrExpr();
        if (!inner) return nullptr;
        if (!Accept(TokenKind::kRParen)) return Expected("')'");
        return inner;
      }
      default:
        return Expected("a value, a fact key or '('");
    }
  }

  ExprPtr Call(ExprPtr name) {
    name->kind = NodeKind::kCall;
    Next();  // '('
    if (!Accept(TokenKind::kRParen)) {
      do {
        ExprPtr arg = OrExpr();
        if (!arg) return nullptr;
        name->children.push_back(std::move(arg));
      } while (Accept(TokenKind::kComma));
      if (!Accept(TokenKind::kRParen)) return Expected("',' or ')'");
    }
    return Finish(std::move(name));
  }

  std::vector<Token> tokens_;
  size_t pos_ = 0;
  int depth_ = 0;
  bool failed_ = false;
  ParseError* error_;
};

}  // namespace

ExprPtr ParseCondition(std::string_view text, ParseError* error) {
  if (text.size() > kMaxLength) {
    if (error)
      *error =
          ParseError{kMaxLength, codes::kConditionTooLong, fmt::format(kMsgTooLong, kMaxLength)};
    return nullptr;
  }
  LexError lex_error;
  auto tokens = Lex(text, &lex_error);
  if (!tokens) {
    if (error) *error = ParseError{lex_error.offset, lex_error.code, lex_error.message};
    return nullptr;
  }
  Parser parser(std::move(*tokens), error);
  return parser.Condition();
}

}  // namespace feedcheck::rules
