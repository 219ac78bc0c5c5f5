// The verdict's claims checked against the run's own timeline and figures: refusals that did
// not coincide with the failure, "never got past its input" after a good download, costs past
// the time lost, a cause charged other than its ledger state's time, a flag asked for again.
#include "diagnosis/claim_checks.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

using namespace feedcheck;
using namespace feedcheck::diagnosis;

namespace {

Finding Of(const std::string& id, Bottleneck b) {
  Finding f;
  f.rule_id = id;
  f.bottleneck = b;
  f.severity = Severity::kWarning;
  return f;
}

// `lost_gpu_s` lost of ten times that sampled, all of it during a mount.
GpuTimeLost Mount(double lost_gpu_s) {
  GpuTimeLost g;
  g.known = true;
  g.lost_gpu_s = lost_gpu_s;
  g.sampled_gpu_s = 10 * lost_gpu_s;
  return g;
}

bool Has(const std::vector<std::string>& claims, const std::string& part) {
  for (const auto& c : claims)
    if (c.find(part) != std::string::npos) return true;
  return false;
}

TimelineInterval Iv(std::string lane, std::string label, double s, double e,
                    std::string status = "") {
  return {std::move(lane), std::move(label), s, e, std::move(status), "t"};
}

}  // namespace

TEST_CASE("refusals blamed for a failure must coincide with it", "[diagnosis][claims]") {
  Evidence ev;
  ev.timeline = {Iv("access", "404 refused", 100, 102),
                 Iv("data-runtime", "download", 99, 340, "Success"),
                 Iv("data-runtime", "upload", 3960, 4145, "Failure")};
  std::string why = AccessRefusalsMissFailure(ev);
  CHECK(why.find("404 refused") != std::string::npos);
  CHECK(why.find("before the upload that failed") != std::string::npos);
  CHECK(InputReadBefore(ev, 4000));
  CHECK_FALSE(InputReadBefore(ev, 200));
  // GETs refused while the download failed: they ended it.
  ev.timeline.push_back(Iv("access", "404 refused", 3900, 3950));
  CHECK(AccessRefusalsMissFailure(ev).empty());
  // The runtime's own StreamAccess verdict stands whatever the timing.
  Evidence stream;
  stream.timeline = {Iv("access", "403 refused", 10, 11),
                     Iv("data-runtime", "mount", 5000, 5100, "Failure")};
  CHECK_FALSE(AccessRefusalsMissFailure(stream).empty());
  stream.facts.Set(TextFact("runtime.stream_error", "ScriptExecution.StreamAccess.Authentication",
                            {FactOrigin::kObserved, "t", "t", 1}));
  CHECK(AccessRefusalsMissFailure(stream).empty());
}

TEST_CASE("claims the run's own evidence contradicts are found", "[diagnosis][claims]") {
  Postmortem r;
  r.diagnosis.present = true;
  r.diagnosis.gpu = Mount(1000);
  r.diagnosis.cause = "storage access failed";
  r.diagnosis.confidence = "likely";
  r.diagnosis.attributed_gpu_s = 1000;
  r.diagnosis.estimate.text = "no estimate: it never got past its input (storage refused it)";
  r.evidence.timeline = {Iv("access", "404 refused", 100, 102),
                         Iv("data-runtime", "download", 99, 340, "Success"),
                         Iv("data-runtime", "upload", 3960, 4145, "Failure")};
  r.findings = {Of("a", Bottleneck::kAccessFailure), Of("b", Bottleneck::kSmallFiles)};
  r.findings[0].impact_gpu_s = 1000;
  r.findings[1].impact_gpu_s = 1000;  // the same idle time twice
  r.diagnosis.settle_with = "the account's limits (--region / --account-egress-gbps)";
  r.evidence.facts.Set(
      TextFact("account.region", "eastus", {FactOrigin::kDeclared, "--region", "", 0}));
  auto claims = ContradictedClaims(r);
  auto has = [&](const char* part) { return Has(claims, part); };
  CHECK(has("sum to 2000 GPU-s, past the 1000 lost"));
  CHECK(has("never got past its input, but an input activity succeeded"));
  CHECK(has("never got past its input, but its GPUs were busy"));
  CHECK(has("blames storage access"));
  CHECK(has("asks for --region, which was given"));
  // A consistent report has none.
  Postmortem ok;
  ok.diagnosis.gpu = Mount(1000);
  ok.diagnosis.cause = "small files";
  ok.diagnosis.confidence = "likely";
  ok.diagnosis.attributed_gpu_s = 1000;
  ok.findings = {Of("b", Bottleneck::kSmallFiles)};
  ok.findings[0].impact_gpu_s = 1000;
  CHECK(ContradictedClaims(ok).empty());
  // A named cause that explains none of the idle time is a contradiction.
  ok.diagnosis.attributed_gpu_s = 0;
  CHECK(ContradictedClaims(ok).size() == 1);
}

TEST_CASE("a verdict no finding carries holds its time beside the findings'",
          "[diagnosis][claims]") {
  // A blob target's 1000 GPU-s (no rule states it), and a finding of another state: together
  // they may hold the time lost, never more.
  const double lost = 1000;
  const double target = GENERATE(0.0, 250.0, 600.0, 1000.0);
  const double finding = GENERATE(0.0, 400.0, 1000.0);
  Postmortem r;
  r.diagnosis.gpu = Mount(lost);
  r.diagnosis.cause = "blob or partition target";
  r.diagnosis.confidence = "likely";
  r.diagnosis.attributed_gpu_s = target;
  r.findings = {Of("small", Bottleneck::kSmallFiles)};
  r.findings[0].impact_gpu_s = finding;
  INFO("target " << target << ", small files " << finding);
  const auto claims = ContradictedClaims(r);
  CHECK(Has(claims, "past the 1000 lost") == (target + finding > lost + 1));
  // A named cause that explains none of the idle time is a contradiction of its own.
  CHECK(Has(claims, "explains none of the idle time") == (target == 0));
  // The cause's own finding holds its time once: its share is not counted twice.
  Postmortem own = r;
  own.diagnosis.cause = "small files";
  own.diagnosis.attributed_gpu_s = finding;
  CHECK_FALSE(Has(ContradictedClaims(own), "past the"));
}

TEST_CASE("the ledger is one account: its states sum to the time lost, the cause gets its state's",
          "[diagnosis][claims]") {
  Postmortem r;
  r.diagnosis.present = true;
  r.diagnosis.gpu = Mount(1000);
  r.diagnosis.cause = "account egress";
  r.diagnosis.confidence = "confirmed";
  r.diagnosis.ledger.present = true;
  r.diagnosis.ledger.cause_state = "account_egress";
  r.diagnosis.ledger.lost_gpu_s = 1000;
  r.diagnosis.ledger.states = {{"account_egress", 700}, {"own_code", 300}};
  r.diagnosis.attributed_gpu_s = 700;
  r.findings = {Of("egress", Bottleneck::kAccountEgress)};
  r.findings[0].impact_gpu_s = 700;
  CHECK(ContradictedClaims(r).empty());
  // The cause charged other than what its state holds: two accounts of the same time.
  const double charged = GENERATE(0.0, 500.0, 702.0, 1000.0);
  Postmortem off = r;
  off.diagnosis.attributed_gpu_s = charged;
  off.findings[0].impact_gpu_s = charged;
  CHECK(Has(ContradictedClaims(off), "charges the cause") == (std::abs(charged - 700) > 1));
  // States that do not sum to the time lost.
  Postmortem gap = r;
  gap.diagnosis.ledger.states.push_back({"unknown", 50});
  CHECK(Has(ContradictedClaims(gap), "the ledger's states sum to 1050 GPU-s, not the 1000 lost"));
}
