// The ramp's evidence: knees of the measured and predicted series, the prediction's basis, and
// the limits saved as facts only when they were known.
#include "mpi/ramp.h"

#include <catch2/catch.hpp>

using namespace feedcheck;

namespace {
RampLimit Flag(double gbps, const char* flag) {
  return {gbps, std::string("from ") + flag, Provenance{FactOrigin::kDeclared, flag}};
}
}  // namespace

TEST_CASE("ramp against known NIC and account egress") {
  RampLimit nic = Flag(0.5, "--nic-gbps"), egress = Flag(1.0, "--account-egress-gbps");
  Ramp r = BuildRamp({0.48, 0.95, 0.96}, nic, egress);
  CHECK(r.predicted_gbps == std::vector<double>{0.5, 1.0, 1.0});
  CHECK(r.knee == 2);
  CHECK(r.predicted_knee == 2);
  CHECK(r.prediction_basis.find("from --account-egress-gbps / from --nic-gbps") !=
        std::string::npos);
  Evidence ev;
  AddRampEvidence(r, nic, egress, "test", &ev);
  CHECK(ev.facts.Number("probe.cluster.knee_nodes").value() == 2);
  CHECK(ev.facts.Number("probe.cluster.knee_gbps").value() == Approx(0.95));
  CHECK(ev.facts.Number("probe.cluster.predicted_knee_nodes").value() == 2);
  CHECK(ev.facts.Number("probe.cluster.predicted_plateau_gbps").value() == Approx(1.0));
  REQUIRE(ev.facts.Find("account.egress_gbps"));
  CHECK(ev.facts.Find("account.egress_gbps")->provenance.origin == FactOrigin::kDeclared);
  CHECK(ev.facts.Number("node.nic_gbps").value() == Approx(0.5));
  REQUIRE(ev.FindSeries("probe.cluster.ramp"));
  CHECK(ev.FindSeries("probe.cluster.ramp")->points.size() == 3);
  CHECK(ev.FindSeries("probe.cluster.ramp_predicted")->points[2].y == Approx(1.0));
}

TEST_CASE("ramp without limits: one node stands in for the NIC, no limit facts") {
  Ramp r = BuildRamp({0.4, 0.8, 0.81}, RampLimit{}, RampLimit{});
  REQUIRE(r.predicted_gbps.size() == 3);
  CHECK(r.predicted_gbps[2] == Approx(1.2));
  CHECK(r.predicted_knee == 3);
  CHECK(r.prediction_basis.find("one node as measured, 0.400 Gbit/s") != std::string::npos);
  CHECK(r.prediction_basis.find("account egress unknown") != std::string::npos);
  Evidence ev;
  AddRampEvidence(r, RampLimit{}, RampLimit{}, "test", &ev);
  CHECK(ev.facts.Number("probe.cluster.knee_nodes").value() == 2);
  CHECK_FALSE(ev.facts.Has("account.egress_gbps"));
  CHECK_FALSE(ev.facts.Has("node.nic_gbps"));
  Evidence none;
  AddRampEvidence(BuildRamp({}, RampLimit{}, RampLimit{}), RampLimit{}, RampLimit{}, "t", &none);
  CHECK(none.facts.empty());
  CHECK(none.series.empty());
}
