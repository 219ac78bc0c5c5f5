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

TEST_CASE("post-mortem verdict names the bottleneck class", "[reports][verdict]") {
  CHECK(PostmortemVerdict({}).text == "none found");
  CHECK(PostmortemVerdict({F("throttled-egress", Severity::kCritical)}).text == "account egress");
  CHECK(PostmortemVerdict({F("throttled-server-busy", Severity::kWarning)}).text ==
        "request throttling");
  CHECK(PostmortemVerdict({F("downloader-threads-low", Severity::kWarning)}).text ==
        "client threads/CPU");
  CHECK(PostmortemVerdict({F("small-files-my-own-rule", Severity::kWarning)}).text ==
        "small files");
  CHECK(PostmortemVerdict({F("disk-free-below-dataset", Severity::kCritical)}).text ==
        "cache disk");
  CHECK(PostmortemVerdict({F("mount-when-partial-read", Severity::kWarning)}).text ==
        "access mode");
  // A critical finding decides over an earlier-listed warning; info never decides.
  Verdict v = PostmortemVerdict({F("downloader-threads-low", Severity::kWarning),
                                 F("throttled-egress", Severity::kCritical)});
  CHECK(v.text == "account egress");
  CHECK(v.level == VerdictLevel::kBad);
  CHECK(PostmortemVerdict({F("throttled-egress", Severity::kInfo)}).text == "none found");
  CHECK(PostmortemVerdict({F("unknown-rule", Severity::kCritical)}).text == "none found");
  // Equal severity: the account's limits cap every client, so they outrank client tuning,
  // whatever order the rules were listed in.
  CHECK(PostmortemVerdict({F("client-bound-latency", Severity::kWarning),
                           F("throttled-server-busy", Severity::kWarning)})
            .text == "request throttling");
  Verdict ranked = PostmortemVerdict({F("client-bound-latency", Severity::kWarning),
                                      F("throttled-server-busy", Severity::kWarning),
                                      F("egress-at-limit-observed", Severity::kWarning)});
  CHECK(ranked.text == "account egress");
  CHECK(ranked.detail.find("egress-at-limit-observed") != std::string::npos);
  CHECK(PostmortemVerdict({F("mount-when-partial-read", Severity::kWarning),
                           F("small-files-pack-shards", Severity::kWarning)})
            .text == "access mode");
  CHECK(PostmortemVerdict({F("cluster-nodes-beyond-knee", Severity::kWarning)}).text ==
        "account egress");
  CHECK(PostmortemVerdict({F("cluster-probe-throttled", Severity::kCritical)}).text ==
        "request throttling");
  // The ceiling is none of the classes (a shared link): no class is named for it.
  CHECK(PostmortemVerdict({F("cluster-knee-below-prediction", Severity::kWarning)}).text ==
        "none found");
}
