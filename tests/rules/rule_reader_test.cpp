// `rules validate` error classes, each pinned with its code, message and location (inline YAML
// in the style of Falco's test_rule_loader.cpp).
#include <catch2/catch.hpp>

#include "core/diagnostic_codes.h"
#include "rules/rule_messages.h"
#include "rules/rule_set.h"

using namespace feedcheck;
using namespace feedcheck::rules;

namespace {

struct Loaded {
  bool ok = false;
  DiagnosticList diagnostics;
  RuleSet rules;
};

Loaded Load(const std::string& yaml) {
  Loaded out;
  out.ok = out.rules.LoadText("test.yaml", yaml, &out.diagnostics);
  return out;
}

const Diagnostic& Only(const Loaded& l) {
  INFO([&] {
    std::string all;
    for (const auto& d : l.diagnostics.kept()) all += FormatDiagnostic(d) + "\n";
    return all;
  }());
  REQUIRE(l.diagnostics.total() == 1);
  return l.diagnostics.kept()[0];
}

const char* kGood = R"(
- id: good
  severity: warning
  title: Small files
  when: dataset.median_file_bytes < 4MiB and dataset.files > 100000
  evidence: [dataset.median_file_bytes, dataset.files]
  say: >
    Median file is {dataset.median_file_bytes}
    over {dataset.files} files.
  env:
    RSLEX_DOWNLOADER_THREADS: "{node.vcpus * 4}"
  source: Azure ML docs, "Access data in a job"
)";

}  // namespace

TEST_CASE("a good rule loads without diagnostics", "[rules][validate]") {
  Loaded l = Load(kGood);
  CHECK(l.ok);
  CHECK(l.diagnostics.total() == 0);
  REQUIRE(l.rules.rules().size() == 1);
  const CompiledRule& r = l.rules.rules()[0];
  CHECK(r.id == "good");
  CHECK(r.severity == Severity::kWarning);
  CHECK(r.location.line == 2);
  CHECK(r.evidence == std::vector<std::string>{"dataset.median_file_bytes", "dataset.files"});
}

TEST_CASE("R001 YAML syntax error with line and column", "[rules][validate]") {
  Loaded l = Load("- id: x\n  title: [unclosed\n");
  CHECK_FALSE(l.ok);
  const Diagnostic& d = Only(l);
  CHECK(d.code == codes::kYamlSyntax);
  CHECK(d.location.file == "test.yaml");
  CHECK(d.location.line == 3);
}

TEST_CASE("R002 not a list, R003 rule not a mapping", "[rules][validate]") {
  Loaded l = Load("id: x\n");
  CHECK(Only(l).code == codes::kRulesNotAList);
  CHECK(Only(l).message == kMsgNotAList);
  Loaded m = Load("- just a string\n");
  CHECK_FALSE(m.ok);
  CHECK(Only(m).code == codes::kRuleNotAMap);
  CHECK(Only(m).location.line == 1);
  CHECK(Only(m).location.column == 3);
}

TEST_CASE("R004 missing field, R005 unknown field (warning)", "[rules][validate]") {
  Loaded l = Load("- id: x\n  severity: info\n  title: t\n  when: node.count > 1\n  say: s\n");
  CHECK_FALSE(l.ok);
  CHECK(Only(l).code == codes::kRuleMissingField);
  CHECK(Only(l).message == "rule has no 'source'");
  CHECK(Only(l).context == "rule 'x'");
  CHECK(Only(l).location.line == 1);

  Loaded w = Load(std::string(kGood) + "  tags: [a]\n");
  CHECK(w.ok);  // warnings do not invalidate
  CHECK(Only(w).code == codes::kRuleUnknownField);
  CHECK(Only(w).severity == DiagnosticSeverity::kWarning);
  CHECK(Only(w).message == "unknown field 'tags' is ignored");
  CHECK(Only(w).location.line == 13);
}

TEST_CASE("R006 bad severity points at the value", "[rules][validate]") {
  std::string yaml = kGood;
  yaml.replace(yaml.find("warning"), 7, "urgent");
  Loaded l = Load(yaml);
  CHECK_FALSE(l.ok);
  CHECK(Only(l).code == codes::kBadSeverity);
  CHECK(Only(l).message == "severity 'urgent' is not one of critical, warning, info");
  CHECK(Only(l).location.line == 3);
  CHECK(Only(l).location.column == 13);
}

TEST_CASE("R007 duplicate id names the first definition", "[rules][validate]") {
  Loaded l = Load(std::string(kGood) + kGood);
  CHECK_FALSE(l.ok);
  CHECK(Only(l).code == codes::kDuplicateRuleId);
  CHECK(Only(l).message == "rule id 'good' is already defined at test.yaml:2");
  CHECK(Only(l).location.line == 14);
  CHECK(l.rules.rules().size() == 1);
}

TEST_CASE("R008 wrong field type", "[rules][validate]") {
  std::string yaml = kGood;
  yaml.replace(yaml.find("[dataset.median_file_bytes, dataset.files]"), 42, "dataset.files");
  Loaded l = Load(yaml);
  CHECK_FALSE(l.ok);
  CHECK(Only(l).code == codes::kWrongFieldType);
  CHECK(Only(l).message == "'evidence' must be a list of fact keys");
  CHECK(Only(l).location.line == 6);
}

TEST_CASE("condition errors point at the column, with a caret", "[rules][validate]") {
  auto with_when = [](const std::string& when) {
    std::string yaml = kGood;
    size_t at = yaml.find("dataset.median_file_bytes < 4MiB and dataset.files > 100000");
    yaml.replace(at, 59, when);
    return Load(yaml);
  };
  SECTION("R101 syntax") {
    Loaded l = with_when("dataset.files >");
    CHECK(Only(l).code == codes::kConditionSyntax);
    CHECK(Only(l).location.line == 5);
    CHECK(Only(l).location.column == 24);
    CHECK(Only(l).context == "rule 'good' > when");
    CHECK(FormatDiagnostic(Only(l)) ==
          "test.yaml:5:24: error[R101]: expected a value, a fact key or '(' but found end of "
          "expression (rule 'good' > when)\n"
          "      when: dataset.files >\n"
          "                           ^");
  }
  SECTION("R102 too deep") {
    Loaded l = with_when(std::string(100, '(') + "dataset.files" + std::string(100, ')') + " > 1");
    CHECK(Only(l).code == codes::kConditionTooDeep);
    CHECK(Only(l).message == "expression nests deeper than 64 levels");
  }
  SECTION("R103 unknown fact with a suggestion") {
    Loaded l = with_when("dataset.files > 1 and node.cont > 3");
    CHECK(Only(l).code == codes::kUnknownFact);
    CHECK(Only(l).message == "unknown fact 'node.cont'; did you mean 'node.count'?");
    CHECK(Only(l).location.column == 31);
  }
  SECTION("R104 unit mismatch") {
    Loaded l = with_when("dataset.median_file_bytes < 24Gbit/s");
    CHECK(Only(l).code == codes::kUnitMismatch);
    CHECK(Only(l).location.column == 37);
  }
  SECTION("R105 condition is not true/false") {
    Loaded l = with_when("dataset.files * 2");
    CHECK(Only(l).code == codes::kTypeMismatch);
    CHECK(Only(l).message == "the condition must be true/false, not a count");
  }
  SECTION("R106 bad unit") {
    Loaded l = with_when("dataset.bytes > 4Mib");
    CHECK(Only(l).code == codes::kBadUnit);
    CHECK(Only(l).location.column == 25);
  }
  SECTION("R107 bad call") {
    Loaded l = with_when("nope(dataset.files)");
    CHECK(Only(l).code == codes::kBadCall);
  }
}

TEST_CASE("folded conditions map columns onto their own lines", "[rules][validate]") {
  Loaded l = Load(R"(
- id: folded
  severity: info
  title: t
  when: >-
    dataset.files > 1 and
    node.nic_gbps > 20MiB
  say: s
  source: x
)");
  CHECK(Only(l).code == codes::kUnitMismatch);
  CHECK(Only(l).location.line == 7);
  CHECK(Only(l).location.column == 21);
  CHECK(Only(l).snippet == "    node.nic_gbps > 20MiB");
}

TEST_CASE("template, env, config and mode errors", "[rules][validate]") {
  SECTION("R201 unclosed placeholder") {
    std::string yaml = kGood;
    yaml.replace(yaml.find("{dataset.files}"), 15, "{dataset.files");
    Loaded l = Load(yaml);
    CHECK(Only(l).code == codes::kBadTemplate);
    CHECK(Only(l).message == kMsgUnclosedBrace);
    CHECK(Only(l).location.line == 9);
    CHECK(Only(l).location.column == 10);
  }
  SECTION("R201 stray brace and empty placeholder") {
    std::string yaml = kGood;
    yaml.replace(yaml.find("over"), 4, "} {}");
    Loaded l = Load(yaml);
    REQUIRE(l.diagnostics.total() == 2);
    CHECK(l.diagnostics.kept()[0].message == kMsgStrayBrace);
    CHECK(l.diagnostics.kept()[1].message == kMsgEmptyPlaceholder);
  }
  SECTION("R103 unknown fact in a template") {
    std::string yaml = kGood;
    yaml.replace(yaml.find("{dataset.files}"), 15, "{dataset.fles}");
    Loaded l = Load(yaml);
    CHECK(Only(l).code == codes::kUnknownFact);
    CHECK(Only(l).context == "rule 'good' > say");
    CHECK(Only(l).location.line == 9);
    CHECK(Only(l).location.column == 11);
  }
  SECTION("R104 in an env expression") {
    std::string yaml = kGood;
    yaml.replace(yaml.find("node.vcpus * 4"), 14, "node.vcpus + 4MiB");
    Loaded l = Load(yaml);
    CHECK(Only(l).code == codes::kUnitMismatch);
    CHECK(Only(l).context == "rule 'good' > env RSLEX_DOWNLOADER_THREADS");
    CHECK(Only(l).location.line == 11);
  }
  SECTION("R203 bad env name") {
    std::string yaml = kGood;
    yaml.replace(yaml.find("RSLEX_DOWNLOADER_THREADS"), 24, "rslex-threads");
    Loaded l = Load(yaml);
    CHECK(Only(l).code == codes::kBadEnvName);
    CHECK(Only(l).location.line == 11);
  }
  SECTION("R204 bad config kind") {
    Loaded l = Load(std::string(kGood) + "  config:\n    blobfuse1: |\n      x: 1\n");
    CHECK(Only(l).code == codes::kBadConfigKind);
    CHECK(Only(l).message == "config kind 'blobfuse1' is not one of blobfuse2");
  }
  SECTION("R205 bad mode") {
    Loaded l = Load(std::string(kGood) + "  mode: stream\n");
    CHECK(Only(l).code == codes::kBadMode);
    CHECK(Only(l).location.line == 13);
  }
  SECTION("R103 unknown evidence key") {
    std::string yaml = kGood;
    yaml.replace(yaml.find("dataset.files]"), 13, "dataset.filez");
    Loaded l = Load(yaml);
    CHECK(Only(l).code == codes::kUnknownFact);
    CHECK(Only(l).message == "unknown fact 'dataset.filez'; did you mean 'dataset.files'?");
  }
}

TEST_CASE("a bad rule is dropped, the good ones in the file stay", "[rules][validate]") {
  Loaded l =
      Load(std::string(kGood) +
           "- id: bad\n  severity: info\n  title: t\n  when: nope > 1\n  say: s\n  source: x\n");
  CHECK_FALSE(l.ok);
  CHECK(l.rules.rules().size() == 1);
  CHECK(l.rules.Find("good"));
  CHECK_FALSE(l.rules.Find("bad"));
}

TEST_CASE("a later file overrides a rule and says so", "[rules][validate]") {
  RuleSet set;
  DiagnosticList d;
  REQUIRE(set.LoadText("a.yaml", kGood, &d));
  std::string other = kGood;
  other.replace(other.find("warning"), 7, "critical");
  REQUIRE(set.LoadText("b.yaml", other, &d));
  REQUIRE(d.total() == 1);
  CHECK(d.kept()[0].code == codes::kRuleOverride);
  CHECK(d.kept()[0].message == "rule 'good' replaces the rule defined at a.yaml:2");
  REQUIRE(set.rules().size() == 1);
  CHECK(set.rules()[0].severity == Severity::kCritical);
}

TEST_CASE("deeply nested YAML is an error, not a crash", "[rules][validate][limits]") {
  Loaded l = Load("- " + std::string(100000, '['));
  CHECK_FALSE(l.ok);
  CHECK(Only(l).code == codes::kYamlSyntax);
  CHECK(Only(l).message == "YAML nests deeper than 500 levels");
}
