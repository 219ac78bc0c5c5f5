// Tokens of the condition language (grammar in condition_parser.h). Numbers carry their unit
// suffix already parsed: "24Gbit/s" is one token with value 24 and unit Gbit/s.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/units.h"

namespace feedcheck::rules {

enum class TokenKind {
  kEnd,
  kName,    ///< fact key or function name: letters, digits, '_', '.', starting with a letter
  kNumber,  ///< with optional unit
  kString,  ///< "..." or '...'
  kTrue,
  kFalse,
  kAnd,
  kOr,
  kNot,
  kIn,
  kEq,
  kNe,
  kLt,
  kLe,
  kGt,
  kGe,
  kPlus,
  kMinus,
  kStar,
  kSlash,
  kLParen,
  kRParen,
  kLBracket,
  kRBracket,
  kComma,
};

std::string_view TokenKindName(TokenKind kind);

struct Token {
  TokenKind kind = TokenKind::kEnd;
  size_t offset = 0;  ///< byte offset in the expression text
  std::string text;   ///< name, string contents, or the number as written
  double number = 0;
  Unit unit = Unit::kCount;
  bool has_unit = false;
};

struct LexError {
  size_t offset = 0;
  std::string code;
  std::string message;
};

/// Splits `text` into tokens (ending with kEnd). On error returns nullopt and fills `error`.
std::optional<std::vector<Token>> Lex(std::string_view text, LexError* error);

}  // namespace feedcheck::rules
