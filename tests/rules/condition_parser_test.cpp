#include "rules/condition_parser.h"

#include <catch2/catch.hpp>

#include "rules/rule_messages.h"

using namespace feedcheck;
using namespace feedcheck::rules;

namespace {
std::string Parsed(const std::string& text) {
  ParseError error;
  ExprPtr e = ParseCondition(text, &error);
  if (!e) return "error " + error.code + "@" + std::to_string(error.offset) + ": " + error.message;
  return ToString(*e);
}
}  // namespace

TEST_CASE("precedence: or < and < not < comparison < sum < product < unary", "[rules][parser]") {
  CHECK(Parsed("a.b or c.d and not e.f") == "(a.b or (c.d and (not e.f)))");
  CHECK(Parsed("x.y + 2 * 3 > 4 - -1") == "((x.y + (2 * 3)) > (4 - (-1)))");
  CHECK(Parsed("(a.b or c.d) and e.f") == "((a.b or c.d) and e.f)");
  CHECK(Parsed("a.b / 2 / 4") == "((a.b / 2) / 4)");
  CHECK(Parsed("m.x in [\"a\", 'b']") == "(m.x in [\"a\", \"b\"])");
  CHECK(Parsed("m.x not in []") == "(m.x not in [])");
  CHECK(Parsed("coalesce(a.b, floor(c.d / 2))") == "coalesce(a.b, floor((c.d / 2)))");
  CHECK(Parsed("exists(a.b) and true != false") == "(exists(a.b) and (true != false))");
}

TEST_CASE("numbers carry their units", "[rules][parser]") {
  ParseError error;
  ExprPtr e = ParseCondition("24Gbit/s", &error);
  REQUIRE(e);
  CHECK(e->number == 24);
  CHECK(e->unit == Unit::kGbps);
  CHECK_FALSE(e->bare);
  e = ParseCondition("4MiB", &error);
  REQUIRE(e);
  CHECK(e->number == 4194304);
  CHECK(e->unit == Unit::kBytes);
  e = ParseCondition("50%", &error);
  REQUIRE(e);
  CHECK(e->unit == Unit::kPercent);
  e = ParseCondition("3.2GB/s", &error);
  REQUIRE(e);
  CHECK(e->unit == Unit::kBytesPerSecond);
  CHECK(e->number == Approx(3.2e9));
  e = ParseCondition("1e3", &error);
  REQUIRE(e);
  CHECK(e->bare);
  CHECK(e->number == 1000);
  // "8/2" is a division, not a unit.
  CHECK(Parsed("8/2") == "(8 / 2)");
}

TEST_CASE("syntax errors name the offset", "[rules][parser]") {
  CHECK(Parsed("a.b <") ==
        "error R101@5: expected a value, a fact key or '(' but found end of expression");
  CHECK(Parsed("a.b < 3 3") == "error R101@8: expected an operator or the end but found '3'");
  CHECK(Parsed("(a.b") == "error R101@4: expected ')' but found end of expression");
  CHECK(Parsed("a.b == \"x") == "error R101@7: string is not terminated");
  CHECK(Parsed("a.b $ 2") == "error R101@4: unexpected character '$'");
  CHECK(Parsed("a.b > 4Mib") == "error R106@6: bad number '4Mib': unknown unit 'Mib' in '4Mib'");
  CHECK(Parsed("f(1,") ==
        "error R101@4: expected a value, a fact key or '(' but found end of expression");
  CHECK(Parsed("a.b in [1, 2") == "error R101@12: expected ',' or ']' but found end of expression");
  CHECK(Parsed("") ==
        "error R101@0: expected a value, a fact key or '(' but found end of expression");
}

TEST_CASE("nesting is capped with a clear error", "[rules][parser][limits]") {
  const std::string message = "expression nests deeper than 64 levels";
  std::string parens = std::string(200, '(') + "a.b" + std::string(200, ')');
  CHECK(Parsed(parens).rfind("error R102@", 0) == 0);
  CHECK(Parsed(parens).find(message) != std::string::npos);
  std::string nots;
  for (int i = 0; i < 200; ++i) nots += "not ";
  CHECK(Parsed(nots + "a.b").find("error R102@") == 0);
  CHECK(Parsed(std::string(300, '-') + "1").find("error R102@") == 0);
  // A long flat chain builds a deep left-leaning tree: also capped.
  std::string chain = "a.b";
  for (int i = 0; i < 300; ++i) chain += " + a.b";
  CHECK(Parsed(chain).find("error R102@") == 0);
  // Just under the cap is fine.
  std::string ok = std::string(30, '(') + "a.b" + std::string(30, ')');
  CHECK(Parsed(ok) == "a.b");
}

TEST_CASE("over-long and hostile input ends with an error, not a crash",
          "[rules][parser][limits]") {
  std::string huge(kMaxLength + 1, 'a');
  CHECK(Parsed(huge) == "error R108@4096: expression is longer than 4096 characters");
  CHECK(Parsed(std::string("a.b\0c", 5)).find("error R101@3: unexpected character '\\x00'") == 0);
  CHECK(Parsed("\xff\xfe").find("error R101@0") == 0);
  CHECK(Parsed("((((((((((").find("error R101") == 0);
  CHECK(Parsed("1e").find("error R106") == 0);
}
