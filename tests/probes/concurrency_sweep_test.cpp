#include "probes/concurrency_sweep.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <random>

using namespace feedcheck;

TEST_CASE("interval rates come from cumulative byte samples", "[probes][sweep]") {
  // 125 MB/s (1 Gbit/s) sampled every 62.5 ms for 1 s: four 250 ms intervals of 1 Gbit/s.
  std::vector<SeriesPoint> samples;
  for (int i = 0; i <= 16; ++i) samples.push_back({i * 0.0625, i * 0.0625 * 125e6});
  auto rates = IntervalGbps(samples, 0.25);
  REQUIRE(rates.size() == 4);
  for (double r : rates) CHECK(r == Approx(1.0));
  CHECK(NoiseBandGbps(rates) == Approx(0.0).margin(1e-9));
  CHECK(IntervalGbps({}, 0.25).empty());
  CHECK(IntervalGbps(samples, 0).empty());
  // A tail shorter than half an interval is dropped, one of half an interval kept.
  samples.push_back({1.0625, 1.0625 * 125e6});
  CHECK(IntervalGbps(samples, 0.25).size() == 4);
  samples.push_back({1.125, 1.125 * 125e6});
  CHECK(IntervalGbps(samples, 0.25).size() == 5);
}

TEST_CASE("the noise band is two standard errors of the interval mean", "[probes][sweep]") {
  // sd of {0.9, 1.0, 1.1, 1.0} (n-1) = 0.0816; 2 x sd / sqrt(4) = 0.0816.
  CHECK(NoiseBandGbps({0.9, 1.0, 1.1, 1.0}) == Approx(0.08165).epsilon(1e-3));
  CHECK(NoiseBandGbps({1.0}) == 0);
  // Four times the intervals (a step repeated) about halve the band: 2 x sqrt(0.08 / 15) / 4.
  std::vector<double> longer;
  for (int i = 0; i < 4; ++i)
    for (double x : {0.9, 1.0, 1.1, 1.0}) longer.push_back(x);
  CHECK(NoiseBandGbps(longer) == Approx(2 * std::sqrt(0.08 / 15) / 4).epsilon(1e-6));
}

TEST_CASE("a gain counts only outside both steps' noise and above the floor", "[probes][sweep]") {
  StepRate one{1, 0.79, 0.01}, two{2, 0.95, 0.01}, four{4, 0.96, 0.01};
  CHECK(CompareSteps(one, two, 0.02) == StepGain::kGained);
  CHECK(CompareSteps(two, four, 0.02) == StepGain::kWithin);  // 1%: under the floor
  // Measurable but noisy: a 5% gain inside a 0.06 band is not a gain yet.
  CHECK(CompareSteps({1, 0.90, 0.04}, {2, 0.945, 0.04}, 0.02) == StepGain::kWithin);
  CHECK(CompareSteps({1, 0.90, 0.01}, {2, 0.945, 0.01}, 0.02) == StepGain::kGained);
  CHECK(CompareSteps({4, 0.96, 0.01}, {8, 0.80, 0.01}, 0.02) == StepGain::kLost);
}

TEST_CASE("the knee is the fewest connections not measurably below the best", "[probes][sweep]") {
  // 50 ms RTT: 0.40, 0.80, then 3 and 4 connections both saturate the link.
  CHECK(KneeOf({{1, 0.40, 0.01}, {2, 0.80, 0.01}, {3, 0.950, 0.005}, {4, 0.955, 0.005}}, 0.02) ==
        2);
  // A non-monotone sweep: the best is in the middle, the last step lost.
  CHECK(KneeOf({{1, 0.5, 0.01}, {2, 0.9, 0.01}, {4, 0.7, 0.01}}, 0.02) == 1);
  // Everything within the noise: one connection is enough.
  CHECK(KneeOf({{1, 0.95, 0.02}, {2, 0.97, 0.02}, {4, 0.96, 0.02}}, 0.02) == 0);
  CHECK(KneeOf({}, 0.02) == 0);
}

TEST_CASE("the same knee from noisy repeats of one link", "[probes][sweep]") {
  // 1 Gbit/s at 10 ms RTT as measured before (1: 0.79, 2: ~0.95, 4: 0.96), each 250 ms
  // interval with 2% noise, 3 runs of 4 s pooled per step (a sweep repeats a step whose gain
  // is inside the noise): the knee is 2 in every one of 100 simulated sweeps, where stopping
  // on the first gain under 5% gave 1, 2 or 4.
  std::mt19937 rng(42);
  std::normal_distribution<double> noise(0, 0.02);
  auto step = [&](int c, double gbps) {
    std::vector<double> intervals;
    for (int i = 0; i < 48; ++i) intervals.push_back(gbps * (1 + noise(rng)));
    double mean = 0;
    for (double x : intervals) mean += x;
    return StepRate{c, mean / 48, NoiseBandGbps(intervals)};
  };
  int knee2 = 0;
  for (int run = 0; run < 100; ++run) {
    std::vector<StepRate> steps = {step(1, 0.79), step(2, 0.952), step(4, 0.958)};
    if (steps[KneeOf(steps, 0.02)].concurrency == 2) ++knee2;
  }
  CHECK(knee2 == 100);
}

TEST_CASE("runs of one step pool when they agree and keep the faster when not", "[probes][sweep]") {
  // 2 connections at 10 ms RTT run twice: 0.952 and 0.958, inside both bands: one state.
  CHECK(MergeRuns({2, 0.952, 0.004}, {2, 0.958, 0.004}, 0.05) == RunMerge::kPool);
  // Apart by more than both bands but under the 5% floor: still one state.
  CHECK(MergeRuns({2, 0.930, 0.002}, {2, 0.958, 0.002}, 0.05) == RunMerge::kPool);
  // 3 connections at 50 ms RTT: 0.755 once (connections paced at a stale estimate), 0.965 on
  // fresh ones. Whichever came first, the faster run stands.
  CHECK(MergeRuns({3, 0.755, 0.004}, {3, 0.965, 0.001}, 0.05) == RunMerge::kKeepSecond);
  CHECK(MergeRuns({3, 0.965, 0.001}, {3, 0.755, 0.004}, 0.05) == RunMerge::kKeepFirst);
  // Far apart but inside a wide band (a loaded machine): no evidence of two states.
  CHECK(MergeRuns({4, 0.754, 0.058}, {4, 0.850, 0.058}, 0.05) == RunMerge::kPool);
}

TEST_CASE("the count between two doublings is measured again when it falls short",
          "[probes][sweep]") {
  // 50 ms RTT: 3 at 0.755 under 4 at 0.963 moves the knee to 4 on one run: measure again.
  CHECK(MiddleFellShort({3, 0.755, 0.004}, {4, 0.963, 0.004}, 0.05));
  // 3 fills the link as well as 4 (the usual sweep): nothing to re-measure.
  CHECK_FALSE(MiddleFellShort({3, 0.965, 0.001}, {4, 0.963, 0.004}, 0.05));
  CHECK_FALSE(MiddleFellShort({3, 0.930, 0.002}, {4, 0.963, 0.004}, 0.05));  // under the floor
  // The sweep that went 2, 3, 4 (0.788, 0.755, 0.963) gets the knee of its re-measured middle.
  std::vector<StepRate> steps = {{1, 0.399, 0.001},
                                 {2, 0.788, 0.004},
                                 {3, 0.755, 0.004},
                                 {4, 0.963, 0.004},
                                 {8, 0.961, 0.004}};
  CHECK(steps[KneeOf(steps, 0.05)].concurrency == 4);
  StepRate again{3, 0.965, 0.001};
  REQUIRE(MergeRuns(steps[2], again, 0.05) == RunMerge::kKeepSecond);
  steps[2] = again;
  CHECK(steps[KneeOf(steps, 0.05)].concurrency == 3);
}
