#include "core/diagnostic_codes.h"

#include <catch2/catch.hpp>
#include <cctype>
#include <set>
#include <string>
#include <string_view>

using namespace feedcheck;

TEST_CASE("every registered code is well formed, named once and described", "[core][codes]") {
  const auto all = DiagnosticCodes();
  REQUIRE(all.size() > 90);
  std::set<std::string> names;
  for (const DiagnosticCodeInfo& c : all) {
    INFO(c.code);
    const std::string_view code(c.code);
    REQUIRE(code.size() == 4);
    CHECK(std::isupper(static_cast<unsigned char>(code[0])));
    for (char digit : code.substr(1)) CHECK(std::isdigit(static_cast<unsigned char>(digit)));
    CHECK(names.insert(c.name).second);
    CHECK(std::isupper(static_cast<unsigned char>(c.name[0])));
    CHECK(std::string_view(c.name).find(' ') == std::string_view::npos);
    // A summary is one line, a help says what to do: neither empty, neither a paragraph break.
    CHECK(std::string_view(c.summary).size() > 10);
    CHECK(std::string_view(c.help).size() > 5);
    CHECK(std::string_view(c.summary).find('\n') == std::string_view::npos);
    CHECK(std::string_view(c.help).find('\n') == std::string_view::npos);
  }
}

TEST_CASE("every code belongs to exactly one family", "[core][codes]") {
  for (const DiagnosticCodeInfo& c : DiagnosticCodes()) {
    INFO(c.code);
    int families = 0;
    for (const DiagnosticFamily& f : DiagnosticFamilies())
      if (std::string_view(c.code).rfind(f.prefix, 0) == 0) ++families;
    CHECK(families == 1);
  }
}

TEST_CASE("codes are found by their text, names give the registered entry", "[core][codes]") {
  const DiagnosticCodeInfo* malformed = FindDiagnosticCode(codes::kMalformedLine);
  REQUIRE(malformed);
  CHECK(std::string_view(malformed->name) == "MalformedLine");
  CHECK(malformed->severity == DiagnosticSeverity::kWarning);
  // Lint's names are SARIF's rule names, published: they stay as they were.
  REQUIRE(FindDiagnosticCode(codes::kLintWrongMode));
  CHECK(std::string_view(FindDiagnosticCode(codes::kLintWrongMode)->name) == "InputMode");
  CHECK(FindDiagnosticCode(codes::kLintNodeSize)->severity == DiagnosticSeverity::kNote);
  CHECK(std::string_view(codes::kKbUnreadable) == "K301");
  CHECK(FindDiagnosticCode("Z999") == nullptr);
  CHECK(FindDiagnosticCode("") == nullptr);
  CHECK(FindDiagnosticCode("A20") == nullptr);
  // Retired codes are not reported again, nor found.
  CHECK(FindDiagnosticCode("W107") == nullptr);
  CHECK(FindDiagnosticCode("W109") == nullptr);
}
