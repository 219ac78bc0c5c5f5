// A job that never read its input, told by the account's metrics where no data-runtime log was
// kept: the account served not a byte in any minute (Egress 0) while it answered requests with
// client errors, and the GPUs idled throughout. Each condition on both sides; a log, where
// there is one, decides instead.
#include <catch2/catch.hpp>
#include <string>

#include "core/evidence.h"
#include "diagnosis/ledger_judgement.h"

using namespace feedcheck;
using namespace feedcheck::diagnosis;

namespace {

Evidence MetricsOnly(double egress_peak_gbps, double client_errors, double idle_fraction,
                     const std::string& error_kind) {
  Evidence ev;
  const Provenance from{FactOrigin::kObserved, "metrics/storage.json", "", 0};
  ev.facts.Set(NumberFact("metrics.egress_gbps_peak", egress_peak_gbps, Unit::kGbps, from));
  ev.facts.Set(NumberFact("metrics.transactions.Success", 1e6, Unit::kCount, from));
  if (client_errors > 0)
    ev.facts.Set(
        NumberFact("metrics.transactions." + error_kind, client_errors, Unit::kCount, from));
  ev.facts.Set(NumberFact("gpu.idle_fraction", idle_fraction, Unit::kFraction, {}));
  return ev;
}

}  // namespace

TEST_CASE("never read: the metrics alone show an account that served the job nothing",
          "[diagnosis][access]") {
  const std::string kind =
      GENERATE(std::string("ClientOtherError"), std::string("AuthorizationError"));
  const double egress = GENERATE(0.0, 0.2);
  const double errors = GENERATE(0.0, 18.0);
  const double idle = GENERATE(0.5, 1.0);
  const Evidence ev = MetricsOnly(egress, errors, idle, kind);
  INFO(kind << " " << errors << ", Egress peak " << egress << " Gbit/s, GPUs idle " << idle);
  const bool never = egress == 0 && errors > 0 && idle >= 0.95;
  CHECK(InputNeverRead(ev) == never);
  if (never) {
    const Finding f = NeverReadFinding(ev);
    CHECK(f.severity == Severity::kCritical);
    CHECK(f.bottleneck == Bottleneck::kAccessFailure);
    CHECK(f.message.find("served not a byte") != std::string::npos);
    bool cites_errors = false;
    for (const auto& e : f.evidence) cites_errors |= e.key == "metrics.transactions." + kind;
    CHECK(cites_errors);
  }
}

TEST_CASE("never read: a data-runtime log decides, not the metrics", "[diagnosis][access]") {
  // The same metrics beside a log whose mount came up and read: the account's Egress may be
  // another account's, the log says the input was reached.
  Evidence ev = MetricsOnly(0, 18, 1.0, "ClientOtherError");
  TimelineInterval mount;
  mount.lane = "data-runtime";
  mount.label = "mount";
  mount.start_epoch_s = 1.7e9;
  mount.end_epoch_s = 1.7e9 + 600;
  mount.status = "Success";
  ev.timeline.push_back(mount);
  CHECK_FALSE(InputNeverRead(ev));
}
