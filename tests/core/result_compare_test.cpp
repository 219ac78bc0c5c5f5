// Before and after, fact by fact: direction, tolerance, the noise band the results carry, units,
// text facts and facts in one result only.
#include "core/result_compare.h"

#include <catch2/catch.hpp>

using namespace feedcheck;

namespace {

Provenance Measured() { return Provenance{FactOrigin::kMeasured, "probe", "", 0}; }
Provenance Declared() { return Provenance{FactOrigin::kDeclared, "flag", "", 0}; }

const FactChange& Find(const Comparison& c, const std::string& key) {
  for (const FactChange& f : c.changes)
    if (f.key == key) return f;
  FAIL("no change for " << key);
  return c.changes.front();
}

}  // namespace

TEST_CASE("which way is better follows the fact's key and unit", "[core][compare]") {
  CHECK(BetterDirection("probe.throughput.gbps", Unit::kGbps) == Better::kHigher);
  CHECK(BetterDirection("probe.latency.ttfb_p99_ms", Unit::kMilliseconds) == Better::kLower);
  CHECK(BetterDirection("probe.errors.throttled_egress", Unit::kCount) == Better::kLower);
  CHECK(BetterDirection("gpu.starved_fraction", Unit::kFraction) == Better::kLower);
  CHECK(BetterDirection("probe.throughput.nic_fraction", Unit::kFraction) == Better::kHigher);
  CHECK(BetterDirection("gpu.util_mean", Unit::kPercent) == Better::kHigher);
  CHECK(BetterDirection("dataset.files", Unit::kCount) == Better::kNeither);
  CHECK(NoiseKeyFor("probe.throughput.knee_gbps") == "probe.throughput.knee_noise_gbps");
  CHECK(NoiseKeyFor("runtime.mode") == "runtime.mode");
}

TEST_CASE("a change inside the results' own noise band is not called better or worse",
          "[core][compare]") {
  FactSet a, b;
  a.Set(NumberFact("probe.throughput.knee_gbps", 0.90, Unit::kGbps, Measured()));
  a.Set(NumberFact("probe.throughput.knee_noise_gbps", 0.03, Unit::kGbps, Measured()));
  b.Set(NumberFact("probe.throughput.knee_gbps", 0.94, Unit::kGbps, Measured()));
  b.Set(NumberFact("probe.throughput.knee_noise_gbps", 0.04, Unit::kGbps, Measured()));
  Comparison c = CompareResults({"a", "", &a}, {"b", "", &b});
  const FactChange& knee = Find(c, "probe.throughput.knee_gbps");
  CHECK(knee.change == Change::kWithinNoise);  // 0.04 <= sqrt(0.03^2 + 0.04^2) = 0.05
  CHECK(*knee.noise == Approx(0.05));
  for (const FactChange& f : c.changes) CHECK(f.key.find("_noise_") == std::string::npos);

  b.Set(NumberFact("probe.throughput.knee_gbps", 0.99, Unit::kGbps, Measured()));
  c = CompareResults({"a", "", &a}, {"b", "", &b});
  CHECK(Find(c, "probe.throughput.knee_gbps").change == Change::kBetter);
}

TEST_CASE("without a band, the tolerance decides what is the same and a floor what is judged",
          "[core][compare]") {
  FactSet a, b;
  a.Set(NumberFact("probe.latency.ttfb_p50_ms", 20.0, Unit::kMilliseconds, Measured()));
  b.Set(NumberFact("probe.latency.ttfb_p50_ms", 20.3, Unit::kMilliseconds, Measured()));
  a.Set(NumberFact("probe.latency.ttfb_p99_ms", 25.0, Unit::kMilliseconds, Measured()));
  b.Set(NumberFact("probe.latency.ttfb_p99_ms", 31.0, Unit::kMilliseconds, Measured()));
  // No floor: nothing says how far this result moves between two runs; it is not judged.
  Comparison c = CompareResults({"a", "", &a}, {"b", "", &b});
  CHECK(Find(c, "probe.latency.ttfb_p50_ms").change == Change::kSame);
  const FactChange& unjudged = Find(c, "probe.latency.ttfb_p99_ms");
  CHECK(unjudged.change == Change::kNoBand);
  CHECK(*unjudged.relative == Approx(0.24));
  CHECK(c.no_band == 1);
  CHECK(c.worse == 0);
  CHECK(c.same == 1);
  CHECK(c.changes.front().key == "probe.latency.ttfb_p99_ms");  // changes before the same
  // Under a stated floor still not; beyond it, judged.
  c = CompareResults({"a", "", &a}, {"b", "", &b}, {0.02, 0.5});
  CHECK(Find(c, "probe.latency.ttfb_p99_ms").change == Change::kNoBand);
  c = CompareResults({"a", "", &a}, {"b", "", &b}, {0.02, 0.2});
  CHECK(Find(c, "probe.latency.ttfb_p99_ms").change == Change::kWorse);
  CHECK(c.worse == 1);
  CHECK(c.better == 0);
  CHECK(c.no_band == 0);
}

TEST_CASE("what follows an input is not judged; per-GPU figures are apart", "[core][compare]") {
  FactSet a, b;
  const Provenance derived{FactOrigin::kDerived, "egress calculator", "", 0};
  const Provenance observed{FactOrigin::kObserved, "gpu.csv", "", 0};
  // --nodes changed: the supply follows it, it did not get worse.
  a.Set(NumberFact("node.count", 12, Unit::kCount, Declared()));
  b.Set(NumberFact("node.count", 6, Unit::kCount, Declared()));
  a.Set(NumberFact("supply.aggregate_gbps", 288, Unit::kGbps, derived));
  b.Set(NumberFact("supply.aggregate_gbps", 144, Unit::kGbps, derived));
  a.Set(NumberFact("gpu.util_mean.0", 90, Unit::kPercent, observed));
  b.Set(NumberFact("gpu.util_mean.0", 40, Unit::kPercent, observed));
  a.Set(NumberFact("gpu.util_mean.1", 90, Unit::kPercent, observed));
  b.Set(NumberFact("gpu.util_mean.1", 89.9, Unit::kPercent, observed));
  Comparison c = CompareResults({"a", "", &a}, {"b", "", &b}, {0.02, 0.2});
  const FactChange& supply = Find(c, "supply.aggregate_gbps");
  CHECK(supply.role == FactRole::kDerived);
  CHECK(supply.change == Change::kChanged);
  CHECK(Find(c, "node.count").role == FactRole::kInput);
  CHECK(Find(c, "gpu.util_mean.0").per_item);
  CHECK(Find(c, "gpu.util_mean.0").change == Change::kWorse);
  CHECK(c.per_item == 1);  // one changed; the other is the same
  CHECK(c.worse == 0);
  CHECK(c.better == 0);
  CHECK_FALSE(IsPerItemKey("gpu.util_mean"));
  CHECK(IsPerItemKey("probe.cluster.node_gbps.3"));
  CHECK_FALSE(IsPerItemKey("runtime.http_errors.503"));
}

TEST_CASE("B is read in A's unit, inputs are apart, one-sided facts are named", "[core][compare]") {
  FactSet a, b;
  a.Set(NumberFact("probe.throughput.gbps", 1.0, Unit::kGbps, Measured()));
  b.Set(NumberFact("probe.throughput.gbps", 1000.0, Unit::kMbps, Measured()));  // the same
  a.Set(NumberFact("node.count", 8, Unit::kCount, Declared()));
  b.Set(NumberFact("node.count", 16, Unit::kCount, Declared()));
  a.Set(TextFact("runtime.mode", "download", Measured()));
  b.Set(TextFact("runtime.mode", "ro_mount", Measured()));
  b.Set(NumberFact("probe.errors.retries", 3, Unit::kCount, Measured()));
  Comparison c = CompareResults({"a", "ready", &a}, {"b", "at risk", &b});
  CHECK(Find(c, "probe.throughput.gbps").change == Change::kSame);
  const FactChange& nodes = Find(c, "node.count");
  CHECK(nodes.is_input);
  CHECK(nodes.change == Change::kChanged);  // a different setup is not better or worse
  CHECK(c.changes.front().key == "node.count");
  const FactChange& mode = Find(c, "runtime.mode");
  CHECK(mode.change == Change::kChanged);
  CHECK(mode.a_display == "download");
  CHECK(Find(c, "probe.errors.retries").change == Change::kAdded);
  CHECK(c.a_verdict == "ready");
  CHECK(c.b_verdict == "at risk");
}
