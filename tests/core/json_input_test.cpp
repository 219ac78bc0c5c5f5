#include "core/json_input.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <string>

using namespace feedcheck;

namespace {

struct Read {
  DiagnosticList diags;
  JsonSource source{"in.json", "E999", &diags};
  std::optional<nlohmann::json> doc;
  explicit Read(std::string_view text, JsonParseOptions options = {})
      : doc(ParseJsonInput(text, source, options)) {}
  std::string Messages() const {
    std::string out;
    for (const auto& d : diags.kept()) out += FormatDiagnostic(d) + "\n";
    return out;
  }
};

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("a number out of double range is a diagnostic naming the field, never a throw",
          "[core][json_input]") {
  // {text, the field the message must name}
  auto c = GENERATE(table<std::string, std::string>({
      {R"({"result": 1e999})", "field 'result'"},
      {R"({"result": -1e999})", "field 'result'"},
      {R"({"result": {"gpu": {"lost_gpu_s": 1E400}}})", "field 'result.gpu.lost_gpu_s'"},
      {R"({"rows": [1, 2, 1e999]})", "field 'rows[2]'"},
      {R"([{"a": 0}, {"b": [0, 1e309]}])", "field '[1].b[1]'"},
      {"1e999", "the top level"},
  }));
  Read r(std::get<0>(c));
  INFO(r.Messages());
  CHECK_FALSE(r.doc.has_value());
  REQUIRE(r.diags.total() == 1);
  const Diagnostic& d = r.diags.kept()[0];
  CHECK(d.code == "E999");
  CHECK(d.location.file == "in.json");
  CHECK(d.location.line == 1);
  CHECK(Has(d.message, std::get<1>(c)));
  CHECK(Has(d.message, "expected a finite number"));
}

TEST_CASE("nesting deeper than the limit is refused before it costs memory", "[core][json_input]") {
  const int depth = GENERATE(kMaxJsonInputDepth + 1, 1000, 16 << 20);
  const char open = GENERATE('[', '{');
  std::string text;
  if (open == '[') {
    text = std::string(static_cast<size_t>(depth), '[');
  } else {
    for (int i = 0; i < std::min(depth, 200000); ++i) text += "{\"k\":";
  }
  Read r(text);
  CHECK_FALSE(r.doc.has_value());
  REQUIRE(r.diags.total() == 1);
  CHECK(Has(r.diags.kept()[0].message, "nested deeper than 128 levels"));
}

TEST_CASE("nesting up to the limit is read", "[core][json_input]") {
  const int depth = GENERATE(1, 64, kMaxJsonInputDepth);
  std::string text = std::string(static_cast<size_t>(depth), '[') + "1" +
                     std::string(static_cast<size_t>(depth), ']');
  Read r(text);
  INFO(r.Messages());
  CHECK(r.doc.has_value());
  CHECK(r.diags.total() == 0);
}

TEST_CASE("a syntax error names the line and column", "[core][json_input]") {
  Read r("{\n  \"a\": 1,\n  \"b\": ]\n}");
  CHECK_FALSE(r.doc.has_value());
  REQUIRE(r.diags.total() == 1);
  CHECK(r.diags.kept()[0].location.line == 3);
  CHECK(Has(r.diags.kept()[0].message, "not valid JSON"));
}

TEST_CASE("only the kept top-level members are built", "[core][json_input]") {
  JsonParseOptions keep;
  keep.keep_top_level = {"environment_variables"};
  Read r(R"({"inputs": {"a": [1, 2]}, "environment_variables": {"X": "1"}, "status": 3})", keep);
  REQUIRE(r.doc.has_value());
  CHECK(r.doc->size() == 1);
  CHECK(r.doc->contains("environment_variables"));
  // The dropped members are still checked.
  Read bad(R"({"inputs": [1e999], "environment_variables": {}})", keep);
  CHECK_FALSE(bad.doc.has_value());
  CHECK(Has(bad.Messages(), "field 'inputs[0]'"));
}

TEST_CASE("kept members are built exactly as a whole read builds them", "[core][json_input]") {
  // A property over drawn documents: each top-level member a scalar, an empty or nested object
  // or array, or an array of many objects (what a metrics response holds); keeping one name
  // builds that member as the whole document has it, and nothing else.
  std::mt19937 rng(17);
  std::function<nlohmann::json(int)> draw = [&](int depth) -> nlohmann::json {
    // The long array of objects at the top only: nested, it would multiply.
    switch (std::uniform_int_distribution<int>(0, depth == 0 ? 5 : depth > 2 ? 2 : 4)(rng)) {
      case 0:
        return 7;
      case 1:
        return "text";
      case 2:
        return nullptr;
      case 3: {
        nlohmann::json o = nlohmann::json::object();
        for (int i = std::uniform_int_distribution<int>(0, 3)(rng); i > 0; --i)
          o["k" + std::to_string(i)] = draw(depth + 1);
        return o;
      }
      case 4: {
        nlohmann::json a = nlohmann::json::array();
        for (int i = std::uniform_int_distribution<int>(0, 3)(rng); i > 0; --i)
          a.push_back(draw(depth + 1));
        return a;
      }
      default: {
        nlohmann::json a = nlohmann::json::array();
        for (int i = 0; i < 200; ++i) a.push_back({{"t", i}, {"v", draw(depth + 1)}});
        return a;
      }
    }
  };
  for (int k = 0; k < 50; ++k) {
    nlohmann::json doc = nlohmann::json::object();
    for (const char* name : {"a", "environment_variables", "z"}) doc[name] = draw(0);
    JsonParseOptions keep;
    keep.keep_top_level = {"environment_variables"};
    Read r(doc.dump(), keep);
    REQUIRE(r.doc.has_value());
    CHECK(r.doc->size() == 1);
    CHECK((*r.doc)["environment_variables"] == doc["environment_variables"]);
    Read whole(doc.dump());
    REQUIRE(whole.doc.has_value());
    CHECK(*whole.doc == doc);
  }
}

TEST_CASE("every typed read of every kind of value gives a value or a diagnostic",
          "[core][json_input]") {
  // A property over (value kind) x (accessor): the read succeeds exactly when the kind is the
  // one asked for, and otherwise names the field; nothing throws.
  const std::string value = GENERATE(R"("text")", "12", "-3", "2.5", "18446744073709551615", "true",
                                     "null", R"({"x": 1})", "[1, 2]", "1e308", "-0.0");
  Read r(R"({"top": {"v": )" + value + "}}");
  REQUIRE(r.doc.has_value());
  const JsonField v = JsonField::Root(*r.doc, r.source)["top"]["v"];
  const nlohmann::json& raw = *v.raw();
  const bool is_null = raw.is_null();
  auto check = [&](bool got, bool expected_kind) {
    const size_t complaints = r.diags.total();
    INFO(value << ": " << r.Messages());
    CHECK(got == (expected_kind && !is_null));
    if (!got && !is_null && !expected_kind) {
      CHECK(complaints == 1);
      CHECK(Has(r.diags.kept().back().message, "field 'top.v': expected"));
    } else {
      CHECK(complaints == 0);
    }
    r.diags = DiagnosticList();
  };
  CHECK_NOTHROW(check(v.String().has_value(), raw.is_string()));
  CHECK_NOTHROW(check(v.Number().has_value(), raw.is_number()));
  CHECK_NOTHROW(check(v.Bool().has_value(), raw.is_boolean()));
  const bool whole_in_range = raw.is_number() &&
                              std::floor(raw.get<double>()) == raw.get<double>() &&
                              std::fabs(raw.get<double>()) <= 1e6;
  CHECK_NOTHROW(check(v.Whole(-1000000, 1000000).has_value(), whole_in_range));
  // Members and elements of the wrong kind complain too.
  CHECK_NOTHROW(check(!v.Elements().empty(), raw.is_array()));
  CHECK_NOTHROW(check(!v.Members().empty(), raw.is_object()));
  // Missing members are quiet.
  CHECK_FALSE(v["nope"].present());
  CHECK_FALSE(v[7].present());
  CHECK(r.diags.total() == 0);
}

TEST_CASE("whole numbers are read within their range only", "[core][json_input]") {
  Read r(R"({"rank": 3, "big": 4294967296, "neg": -1, "frac": 2.5, "f": 7.0})");
  REQUIRE(r.doc.has_value());
  const JsonField root = JsonField::Root(*r.doc, r.source);
  CHECK(root["rank"].Whole(0, 1023) == std::optional<int64_t>(3));
  CHECK(root["f"].Whole(0, 10) == std::optional<int64_t>(7));
  CHECK_FALSE(root["big"].Whole(0, std::numeric_limits<int32_t>::max()));
  CHECK_FALSE(root["neg"].Whole(0, 10));
  CHECK_FALSE(root["frac"].Whole(0, 10));
  CHECK(r.diags.total() == 3);
  CHECK(Has(r.Messages(), "in.json: error[E999]: field 'big': expected a whole number from 0"));
}
