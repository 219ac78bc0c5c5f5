// What the fix buys, as a replay of the idle ledger: only the time the cause's state held moves,
// other clients' traffic stays on the account, and a replay that wins nothing back gives no
// figure. Properties over a grid of shared accounts, shares and NICs.
#include "diagnosis/fix_estimate.h"

#include <catch2/catch.hpp>
#include <string>

namespace fd = feedcheck::diagnosis;
using feedcheck::Bottleneck;
using feedcheck::FactOrigin;
using feedcheck::FactSet;
using feedcheck::GpuTimeLost;
using feedcheck::NumberFact;
using feedcheck::Provenance;
using feedcheck::Unit;

namespace {

Provenance Observed() {
  Provenance p;
  p.origin = FactOrigin::kObserved;
  p.source = "test";
  return p;
}

// A 2-node mount job of 8 GPUs each: an hour sampled, `lost_gpu_s` of it idle during reads.
GpuTimeLost MountJob(double lost_gpu_s) {
  GpuTimeLost g;
  g.known = true;
  g.gpus = 16;
  g.sampled_gpu_s = 3600.0 * 16;
  g.lost_gpu_s = lost_gpu_s;
  g.idle_fraction = lost_gpu_s / g.sampled_gpu_s;
  return g;
}

FactSet Account(double observed_gbps, double nic_gbps) {
  FactSet f;
  f.Set(NumberFact("node.count", 2, Unit::kCount, Observed()));
  f.Set(NumberFact("node.nic_gbps", nic_gbps, Unit::kGbps, Observed()));
  f.Set(NumberFact("account.egress_gbps", 200, Unit::kGbps, Observed()));
  f.Set(NumberFact("metrics.egress_gbps_peak", observed_gbps, Unit::kGbps, Observed()));
  return f;
}

}  // namespace

TEST_CASE("fix replay: the cause moves only its own state's time", "[fix_estimate]") {
  const double share = GENERATE(0.1, 0.5, 0.9, 1.0);
  GpuTimeLost gpu = MountJob(20000);
  FactSet f = Account(200, 200);  // the NICs could take twice it: the account's limit binds
  fd::LedgerReplay whole, part;
  whole.cause_gpu_s = gpu.lost_gpu_s;
  part.cause_gpu_s = gpu.lost_gpu_s * share;
  auto all = fd::EstimateFix(Bottleneck::kAccountEgress, f, gpu, whole);
  auto some = fd::EstimateFix(Bottleneck::kAccountEgress, f, gpu, part);
  REQUIRE(all.available);
  REQUIRE(some.available);
  CAPTURE(share, all.text, some.text);
  // Less of the idle time was the cause's, so lifting it wins less back, never more.
  CHECK(some.idle_fraction_after >= all.idle_fraction_after - 1e-12);
  CHECK(some.idle_fraction_after <= some.idle_fraction_before);
  if (share < 0.99) {
    CHECK(some.idle_fraction_after > all.idle_fraction_after);
    CHECK(some.assumptions.front().find("moves only the") != std::string::npos);
  }
}

TEST_CASE("fix replay: other clients' traffic stays; the job's own rate is what a fix moves",
          "[fix_estimate]") {
  const double others = GENERATE(0.0, 50.0, 150.0, 190.0);
  const double nic = GENERATE(8.0, 24.0, 100.0);
  GpuTimeLost gpu = MountJob(20000);
  FactSet f = Account(200, nic);
  fd::LedgerReplay replay;
  replay.cause_gpu_s = gpu.lost_gpu_s;
  replay.others_egress_gbps = others;
  auto e = fd::EstimateFix(Bottleneck::kAccountEgress, f, gpu, replay);
  CAPTURE(others, nic, e.text);
  const double own = 200 - others;
  const double can = std::min(2 * nic, 200.0);
  if (others > 0 && own < 0.7 * 200 && can <= 1.05 * own) {
    // The job already read what its NICs carry: no account of its own makes it faster.
    CHECK_FALSE(e.available);
    CHECK(e.text.rfind("no figure", 0) == 0);
  }
  if (others > 0 && own < 0.7 * 200 && can > 1.5 * own) CHECK(e.available);
  // Whatever the path, a figure printed wins time back; one that would not is not printed.
  if (e.available)
    CHECK(e.idle_fraction_after < e.idle_fraction_before);
  else
    CHECK(e.text.rfind("no figure", 0) == 0);
  if (e.available && others > 0 && own < 0.7 * 200) {
    CHECK(e.text.find("an account of its own") != std::string::npos);
    CHECK(e.assumptions.front().find("other workloads took the rest") != std::string::npos);
  }
}
