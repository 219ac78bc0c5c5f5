#include "probes/throughput_conclusion.h"

#include <catch2/catch.hpp>

using namespace feedcheck;

namespace {

// A sweep of steps (connections, Gbit/s); the knee and the best rate as the probe sets them.
ThroughputProbeResult Sweep(std::vector<std::pair<int, double>> steps, int knee,
                            double cpu_s_per_gb) {
  ThroughputProbeResult r;
  for (auto [c, g] : steps) {
    ThroughputStep s;
    s.concurrency = c;
    s.gbps = g;
    r.steps.push_back(s);
    r.best_gbps = std::max(r.best_gbps, g);
  }
  r.knee_concurrency = knee;
  for (const auto& s : r.steps)
    if (s.concurrency == knee) r.knee_gbps = s.gbps;
  Provenance p{FactOrigin::kMeasured, "test"};
  r.result.evidence.facts.Set(
      NumberFact("probe.throughput.cpu_s_per_gb", cpu_s_per_gb, Unit::kCpuSecondsPerGB, p));
  return r;
}

ConclusionInputs Inputs(double nic_gbps, int cores, bool swept = true) {
  ConclusionInputs in;
  in.nic_gbps = nic_gbps;
  in.cpu_cores = cores;
  in.swept = swept;
  in.max_concurrency = 64;
  return in;
}

}  // namespace

TEST_CASE("conclusion: at the NIC's rate the NIC is the limit, and the line says so",
          "[probes][throughput][conclusion]") {
  auto r = Sweep({{1, 6}, {2, 12}, {4, 20}, {8, 23.1}, {16, 23.1}}, 16, 0.1);
  auto c = ConcludeThroughput(r, Inputs(24, 16));
  CHECK(c.bound == ThroughputBound::kNic);
  CHECK(c.decided_by == "nic");
  CHECK(c.line.rfind("NIC-bound at 16 connections: 23.1 of 24 Gbit/s", 0) == 0);
  CHECK(c.line.find("NIC figure") != std::string::npos);
}

TEST_CASE("conclusion: cores kept busy decide client CPU-bound before the knee",
          "[probes][throughput][conclusion]") {
  // 2 cpu-s per GB at 8 Gbit/s (1 GB/s) keeps 2 cores busy: all of a 2-core client.
  auto r = Sweep({{1, 4}, {2, 8}, {4, 8}}, 2, 2.0);
  auto c = ConcludeThroughput(r, Inputs(24, 2));
  CHECK(c.bound == ThroughputBound::kClientCpu);
  CHECK(c.cores_busy == Approx(2.0));
  CHECK(c.line.rfind("client CPU-bound at 2 connections", 0) == 0);
  CHECK(c.line.find("process CPU time") != std::string::npos);
  // The same figures on a 16-core client: the CPU was not the limit; the rate stopped growing.
  auto roomy = ConcludeThroughput(r, Inputs(24, 16));
  CHECK(roomy.bound == ThroughputBound::kStorage);
  CHECK(roomy.decided_by == "knee");
}

TEST_CASE("conclusion: below the NIC, a knee before the last step is the storage",
          "[probes][throughput][conclusion]") {
  auto r = Sweep({{1, 1}, {2, 1.9}, {4, 3.0}, {8, 3.05}, {16, 3.0}}, 4, 0.05);
  auto c = ConcludeThroughput(r, Inputs(24, 8));
  CHECK(c.bound == ThroughputBound::kStorage);
  CHECK(c.line.rfind("storage-bound at 4 connections: 3.00 Gbit/s", 0) == 0);
  CHECK(c.line.find("up to 16 connections added nothing") != std::string::npos);
  CHECK(c.line.find("NIC at 13% of 24 Gbit/s") != std::string::npos);
}

TEST_CASE("conclusion: throttling answers make it storage-bound whatever the knee",
          "[probes][throughput][conclusion]") {
  auto r = Sweep({{1, 2}, {2, 4}}, 2, 0.05);
  r.result.evidence.facts.Set(NumberFact("probe.errors.throttled_egress", 12, Unit::kCount,
                                         Provenance{FactOrigin::kMeasured, "test"}));
  auto c = ConcludeThroughput(r, Inputs(0, 8));
  CHECK(c.bound == ThroughputBound::kStorage);
  CHECK(c.decided_by == "throttling");
  CHECK(c.line.find("throttled 12 requests") != std::string::npos);
  CHECK(c.line.find("NIC speed unknown") != std::string::npos);
}

TEST_CASE(
    "conclusion: still growing at the last step is not saturated; a fixed count says "
    "how to find out",
    "[probes][throughput][conclusion]") {
  auto r = Sweep({{1, 1}, {2, 2}, {4, 4}}, 4, 0.05);
  auto swept = Inputs(100, 64);
  swept.max_concurrency = 4;
  auto c = ConcludeThroughput(r, swept);
  CHECK(c.bound == ThroughputBound::kNotSaturated);
  CHECK(c.line.find("--max-concurrency") != std::string::npos);
  auto fixed = ConcludeThroughput(Sweep({{4, 4}}, 4, 0.05), Inputs(100, 64, false));
  CHECK(fixed.bound == ThroughputBound::kUndetermined);
  CHECK(fixed.line.find("--concurrency auto") != std::string::npos);
  ThroughputProbeResult empty;
  auto nothing = ConcludeThroughput(empty, Inputs(24, 8));
  CHECK(nothing.bound == ThroughputBound::kUndetermined);
  CHECK(nothing.decided_by == "none");
}
