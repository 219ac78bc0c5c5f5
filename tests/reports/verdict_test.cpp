#include "reports/verdict.h"

#include <catch2/catch.hpp>

using namespace feedcheck;

namespace {
Finding F(std::string id, Severity s) {
  Finding f;
  f.rule_id = std::move(id);
  f.severity = s;
  f.title = "title of " + f.rule_id;
  return f;
}
}  // namespace

TEST_CASE("pre-flight verdict follows the most severe finding", "[reports][verdict]") {
  CHECK(PreflightVerdict({}).text == "ready");
  CHECK(PreflightVerdict({}).level == VerdictLevel::kGood);
  CHECK(PreflightVerdict({F("x", Severity::kInfo)}).text == "ready");
  Verdict risk = PreflightVerdict({F("small-files-pack-shards", Severity::kWarning)});
  CHECK(risk.text == "at risk");
  CHECK(risk.level == VerdictLevel::kWarning);
  CHECK(risk.detail.find("small-files-pack-shards") != std::string::npos);
  Verdict starve = PreflightVerdict(
      {F("a", Severity::kWarning), F("egress-nodes-beyond-account", Severity::kCritical)});
  CHECK(starve.text == "will starve the GPUs");
  CHECK(starve.level == VerdictLevel::kBad);
  CHECK(starve.detail.find("egress-nodes-beyond-account") != std::string::npos);
}
