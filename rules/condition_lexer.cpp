#include "rules/condition_lexer.h"

#include <fmt/format.h>

#include <cctype>

#include "core/diagnostic_codes.h"
#include "rules/rule_messages.h"

namespace feedcheck::rules {

std::string_view TokenKindName(TokenKind kind) {
  switch (kind) {
    case TokenKind::kEnd:
      return "end of expression";
    case TokenKind::kName:
      return "a fact key";
    case TokenKind::kNumber:
      return "a number";
    case TokenKind::kString:
      return "a string";
    case TokenKind::kTrue:
      return "'true'";
    case TokenKind::kFalse:
      return "'false'";
    case TokenKind::kAnd:
      return "'and'";
    case TokenKind::kOr:
      return "'or'";
    case TokenKind::kNot:
      return "'not'";
    case TokenKind::kIn:
      return "'in'";
    case TokenKind::kEq:
      return "'=='";
    case TokenKind::kNe:
      return "'!='";
    case TokenKind::kLt:
      return "'<'";
    case TokenKind::kLe:
      return "'<='";
    case TokenKind::kGt:
      return "'>'";
    case TokenKind::kGe:
      return "'>='";
    case TokenKind::kPlus:
      return "'+'";
    case TokenKind::kMinus:
      return "'-'";
    case TokenKind::kStar:
      return "'*'";
    case TokenKind::kSlash:
      return "'/'";
    case TokenKind::kLParen:
      return "'('";
    case TokenKind::kRParen:
      return "')'";
    case TokenKind::kLBracket:
      return "'['";
    case TokenKind::kRBracket:
      return "']'";
    case TokenKind::kComma:
      return "','";
  }
  return "?";
}

namespace {

bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool IsAlpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool IsNameChar(char c) { return IsAlpha(c) || IsDigit(c) || c == '_' || c == '.'; }

bool Fail(LexError* error, size_t offset, const char* code, std::string message) {
  if (error) *error = LexError{offset, code, std::move(message)};
  return false;
}

// Number, then an optional unit suffix glued to it: letters, '%', the micro sign, and "/x"
// when the unit goes on with letters ("Gbit/s", "req/s", "MB/s").
bool LexNumber(std::string_view s, size_t& i, Token* token, LexError* error) {
  size_t start = i;
  while (i < s.size() && (IsDigit(s[i]) || s[i] == '.')) ++i;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E') && i + 1 < s.size() &&
      (IsDigit(s[i + 1]) ||
       ((s[i + 1] == '-' || s[i + 1] == '+') && i + 2 < s.size() && IsDigit(s[i + 2])))) {
    i += 2;
    while (i < s.size() && IsDigit(s[i])) ++i;
  }
  size_t unit_start = i;
  auto unit_char = [&](size_t k) {
    unsigned char c = static_cast<unsigned char>(s[k]);
    return IsAlpha(s[k]) || s[k] == '%' || c >= 0x80;
  };
  if (i < s.size() && unit_char(i)) {
    while (i < s.size() && unit_char(i)) ++i;
    if (i + 1 < s.size() && s[i] == '/' && IsAlpha(s[i + 1])) {
      ++i;
      while (i < s.size() && IsAlpha(s[i])) ++i;
    }
  }
  std::string written(s.substr(start, i - start));
  std::string why;
  auto q = ParseQuantity(written, &why);
  if (!q) return Fail(error, start, codes::kBadUnit, fmt::format(kMsgBadUnit, written, why));
  token->kind = TokenKind::kNumber;
  token->text = written;
  token->number = q->value;
  token->unit = q->unit;
  token->has_unit = i > unit_start;
  return true;
}

bool LexString(std::string_view s, size_t& i, Token* token, LexError* error) {
  char quote = s[i];
  size_t start = i++;
  std::string value;
  while (i < s.size() && s[i] != quote) {
    if (s[i] == '\\' && i + 1 < s.size()) ++i;
    value += s[i++];
  }
  if (i >= s.size()) return Fail(error, start, codes::kConditionSyntax, kMsgUnterminatedString);
  ++i;
  token->kind = TokenKind::kString;
  token->text = std::move(value);
  return true;
}

}  // namespace

std::optional<std::vector<Token>> Lex(std::string_view s, LexError* error) {
  std::vector<Token> tokens;
  size_t i = 0;
  while (true) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    Token token;
    token.offset = i;
    if (i >= s.size()) {
      tokens.push_back(token);
      return tokens;
    }
    char c = s[i];
    char next = i + 1 < s.size() ? s[i + 1] : '\0';
    auto one = [&](TokenKind kind, size_t width) {
      token.kind = kind;
      token.text = std::string(s.substr(i, width));
      i += width;
    };
    if (IsDigit(c) || (c == '.' && IsDigit(next))) {
      if (!LexNumber(s, i, &token, error)) return std::nullopt;
    } else if (IsAlpha(c) || c == '_') {
      size_t start = i;
      while (i < s.size() && IsNameChar(s[i])) ++i;
      token.text = std::string(s.substr(start, i - start));
      if (token.text == "and")
        token.kind = TokenKind::kAnd;
      else if (token.text == "or")
        token.kind = TokenKind::kOr;
      else if (token.text == "not")
        token.kind = TokenKind::kNot;
      else if (token.text == "in")
        token.kind = TokenKind::kIn;
      else if (token.text == "true")
        token.kind = TokenKind::kTrue;
      else if (token.text == "false")
        token.kind = TokenKind::kFalse;
      else
        token.kind = TokenKind::kName;
    } else if (c == '"' || c == '\'') {
      if (!LexString(s, i, &token, error)) return std::nullopt;
    } else if (c == '=' && next == '=') {
      one(TokenKind::kEq, 2);
    } else if (c == '!' && next == '=') {
      one(TokenKind::kNe, 2);
    } else if (c == '<' && next == '=') {
      one(TokenKind::kLe, 2);
    } else if (c == '>' && next == '=') {
      one(TokenKind::kGe, 2);
    } else if (c == '<') {
      one(TokenKind::kLt, 1);
    } else if (c == '>') {
      one(TokenKind::kGt, 1);
    } else if (c == '+') {
      one(TokenKind::kPlus, 1);
    } else if (c == '-') {
      one(TokenKind::kMinus, 1);
    } else if (c == '*') {
      one(TokenKind::kStar, 1);
    } else if (c == '/') {
      one(TokenKind::kSlash, 1);
    } else if (c == '(') {
      one(TokenKind::kLParen, 1);
    } else if (c == ')') {
      one(TokenKind::kRParen, 1);
    } else if (c == '[') {
      one(TokenKind::kLBracket, 1);
    } else if (c == ']') {
      one(TokenKind::kRBracket, 1);
    } else if (c == ',') {
      one(TokenKind::kComma, 1);
    } else {
      std::string shown = std::isprint(static_cast<unsigned char>(c))
                              ? std::string(1, c)
                              : fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
      Fail(error, i, codes::kConditionSyntax, fmt::format(kMsgUnexpectedChar, shown));
      return std::nullopt;
    }
    tokens.push_back(std::move(token));
  }
}

}  // namespace feedcheck::rules
