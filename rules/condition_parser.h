// Recursive-descent parser of the condition language used in rule `when:` fields and inside
// `{...}` placeholders of templates. Grammar (EBNF; keywords are lower case):
//
//   condition  = or_expr END ;
//   or_expr    = and_expr { "or" and_expr } ;
//   and_expr   = not_expr { "and" not_expr } ;
//   not_expr   = "not" not_expr | comparison ;
//   comparison = sum [ compare_op sum | [ "not" ] "in" list ] ;
//   compare_op = "==" | "!=" | "<" | "<=" | ">" | ">=" ;
//   sum        = product { ( "+" | "-" ) product } ;
//   product    = unary { ( "*" | "/" ) unary } ;
//   unary      = "-" unary | primary ;
//   primary    = NUMBER | STRING | "true" | "false" | call | FACT_KEY | "(" or_expr ")" ;
//   call       = NAME "(" [ or_expr { "," or_expr } ] ")" ;
//   list       = "[" [ sum { "," sum } ] "]" ;
//   NUMBER     = digits [ "." digits ] [ exponent ] [ unit ] ;   e.g. 4MiB 24Gbit/s 20ms 50%
//   FACT_KEY   = letter { letter | digit | "_" | "." } ;          e.g. dataset.median_file_bytes
//   STRING     = '"' { char } '"' | "'" { char } "'" ;
//
// Functions: exists(key), coalesce(a, b, ...), sum(a, b, ...), min, max, floor, ceil, round,
// num(text_fact), rank_plan(nodes, accounts). Nesting is capped at kMaxDepth and the text at
// kMaxLength, so hostile input ends with a clear error instead of exhausting the stack.
#pragma once

#include <string>
#include <string_view>

#include "rules/condition_ast.h"
#include "rules/condition_lexer.h"

namespace feedcheck::rules {

inline constexpr int kMaxDepth = 64;
inline constexpr size_t kMaxLength = 4096;

struct ParseError {
  size_t offset = 0;  ///< where in the text
  std::string code;   ///< rule_messages.h code
  std::string message;
};

/// Parses a whole expression. Returns nullptr and fills `error` on failure.
ExprPtr ParseCondition(std::string_view text, ParseError* error);

}  // namespace feedcheck::rules
