// Stops at a regular period among a node's idle GPU time: a generator of nodes whose loader
// leaves their GPUs idle a random share of the samples, some with a validation every N minutes
// (a little jitter in each), some without. The validations are found where OwnPhases alone
// leaves them to the loader; the loader's scattered waits are rarely taken for them.
#include "diagnosis/periodic_stops.h"

#include <catch2/catch.hpp>
#include <random>

namespace fd = feedcheck::diagnosis;
using feedcheck::Series;

namespace {

struct PeriodicNode {
  Series lost;
  std::vector<fd::TimeSpan> validations;
};

// A node of 8 GPUs sampled every `interval_s` for `hours`, idle at each sample with chance
// `idle_share` (all GPUs together), and validating for `stop_s` every `every_s` (0: never),
// each validation starting up to 10 s early or late; the lost series in 10 s buckets.
PeriodicNode DrawPeriodicNode(std::mt19937* rng, double interval_s, double idle_share,
                              double stop_s, double every_s, double hours) {
  PeriodicNode n;
  const double width = 10, end = hours * 3600, t0 = 1.7e9;
  std::bernoulli_distribution idle(idle_share);
  std::uniform_real_distribution<double> jitter(-10, 10), first(0, every_s);
  if (every_s > 0)
    for (double t = first(*rng); t + stop_s < end; t += every_s) {
      const double at = std::max(0.0, t + jitter(*rng));
      n.validations.push_back({at, at + stop_s});
    }
  auto validating = [&](double t) {
    for (const auto& v : n.validations)
      if (t >= v.start_s && t < v.end_s) return true;
    return false;
  };
  std::vector<double> lost(static_cast<size_t>(end / width), 0.0);
  for (double t = 0; t < end; t += interval_s) {
    if (!validating(t) && !idle(*rng)) continue;
    for (double b = t; b < t + interval_s && b < end; b += width)
      lost[static_cast<size_t>(b / width)] = 8 * width;
  }
  for (size_t i = 0; i < lost.size(); ++i)
    n.lost.points.push_back({t0 + static_cast<double>(i) * width, lost[i]});
  for (auto& v : n.validations) v = {t0 + v.start_s, t0 + v.end_s};
  return n;
}

// The stops found on a node: OwnPhases', and the periodic ones besides.
struct Found {
  std::vector<fd::TimeSpan> own, periodic;
};

Found Find(const PeriodicNode& n, double interval_s) {
  Found f;
  const double from = n.lost.points.front().x;
  f.own = fd::OwnPhases(n.lost, 8, interval_s, from);
  f.periodic = fd::PeriodicStops(n.lost, 8, interval_s, from, f.own);
  return f;
}

// How many of the periodic stops found lie on one of the node's validations.
int OnValidations(const Found& f, const PeriodicNode& n) {
  int on = 0;
  for (const auto& p : f.periodic) {
    bool on_one = false;
    for (const auto& v : n.validations) on_one = on_one || fd::Overlaps(p, v);
    on += on_one ? 1 : 0;
  }
  return on;
}

// The validation `v` was found, by OwnPhases or as a periodic stop.
bool FoundAny(const Found& f, const fd::TimeSpan& v) {
  bool by_any = false;
  for (const auto& p : f.own) by_any = by_any || fd::Overlaps(p, v);
  for (const auto& p : f.periodic) by_any = by_any || fd::Overlaps(p, v);
  return by_any;
}

}  // namespace

TEST_CASE("periodic stops: validations every N minutes are found at a slow loader's pace",
          "[periodic_stops]") {
  const double interval = GENERATE(10.0, 30.0, 60.0);
  const double idle_share = GENERATE(0.0, 0.3, 0.5, 0.6, 0.7);
  std::mt19937 rng(static_cast<unsigned>(interval * 1000 + idle_share * 100));
  std::uniform_real_distribution<double> stop_s(60, 300), every_min(10, 40);
  int written = 0, found = 0, found_alone = 0, periodic = 0, periodic_on_one = 0;
  for (int k = 0; k < 20; ++k) {
    const PeriodicNode n =
        DrawPeriodicNode(&rng, interval, idle_share, stop_s(rng), every_min(rng) * 60, 8);
    const Found f = Find(n, interval);
    periodic += static_cast<int>(f.periodic.size());
    periodic_on_one += OnValidations(f, n);
    for (const auto& v : n.validations) {
      // A validation shorter than two samples is no run of its own to find.
      if (v.end_s - v.start_s < 2 * interval) continue;
      ++written;
      bool by_own = false;
      for (const auto& p : f.own) by_own = by_own || fd::Overlaps(p, v);
      found_alone += by_own ? 1 : 0;
      found += FoundAny(f, v) ? 1 : 0;
    }
  }
  INFO("every " << interval << " s, idle " << idle_share << ": " << found << " of " << written
                << " validations found (" << found_alone << " by OwnPhases alone), " << periodic
                << " periodic stops, " << periodic_on_one << " on a validation");
  REQUIRE(written > 0);
  // Measured over these 8 h draws: 89-100% found up to idle 0.3 (89% at 60 s samples with
  // clang's standard library, whose distributions draw other nodes from the same seed; 92% with
  // g++'s), 57-98% at 0.5, 15-91% at 0.6-0.7 (fewer, the longer the sample interval: a 60 s
  // sample leaves a validation a few samples); OwnPhases alone finds 0-2% at 30-60 s samples
  // from idle 0.3 on.
  if (idle_share <= 0.3) CHECK(found >= 0.85 * written);
  if (idle_share >= 0.3) CHECK(found >= found_alone + 0.1 * (written - found_alone));
  if (idle_share <= 0.5) CHECK(found >= 0.5 * written);
  // The periodic stops lie on validations (measured 65-100% of them; the rest a loader's
  // wait that fell where a validation was due).
  CHECK(periodic_on_one >= 0.6 * periodic);
}

TEST_CASE("periodic stops: a loader's scattered waits are rarely taken for a period",
          "[periodic_stops]") {
  const double interval = GENERATE(10.0, 30.0, 60.0);
  const double idle_share = GENERATE(0.02, 0.1, 0.3, 0.5, 0.7, 0.9);
  std::mt19937 rng(static_cast<unsigned>(7 + interval * 1000 + idle_share * 100));
  int nodes_with_any = 0, nodes = 40, twins_found = 0;
  for (int k = 0; k < nodes; ++k) {
    const PeriodicNode n = DrawPeriodicNode(&rng, interval, idle_share, 0, 0, 3);
    nodes_with_any += Find(n, interval).periodic.empty() ? 0 : 1;
    // The same pace with a 5-minute validation every 15 minutes: found by its period.
    const PeriodicNode twin = DrawPeriodicNode(&rng, interval, idle_share, 300, 900, 3);
    const Found f = Find(twin, interval);
    size_t found = 0;
    for (const auto& v : twin.validations) found += FoundAny(f, v) ? 1 : 0;
    twins_found += 2 * found >= twin.validations.size() ? 1 : 0;
  }
  INFO("every " << interval << " s, idle " << idle_share << ": " << nodes_with_any << " of "
                << nodes << " nodes with a periodic stop, " << twins_found
                << " of their twins with validations found");
  // The test tells them apart: the same nodes with a 5-minute validation every 15 minutes have
  // most of them found up to idle 0.5 (measured: 55-100% of the nodes at 60 s samples, by
  // their period).
  if (idle_share <= 0.5) CHECK(twins_found >= nodes / 2);
  // kOwnPhaseChance per node: 2 of 40 expected at most; 6 or more happen by chance 1.6% of the
  // time (binomial, 5%).
  CHECK(nodes_with_any <= 5);
}

TEST_CASE("periodic stops: a validation one 60 s sample long recurs at its period",
          "[periodic_stops]") {
  // A node that otherwise rarely idles, sampled every minute: a validation of one to two
  // minutes leaves one or two idle samples, no run OwnPhases can tell from a wait.
  const double idle_share = GENERATE(0.0, 0.02, 0.05);
  std::mt19937 rng(static_cast<unsigned>(11 + idle_share * 100));
  std::uniform_real_distribution<double> stop_s(60, 110), every_min(15, 40);
  int written = 0, found = 0, periodic = 0, periodic_on_one = 0;
  for (int k = 0; k < 20; ++k) {
    const PeriodicNode n =
        DrawPeriodicNode(&rng, 60, idle_share, stop_s(rng), every_min(rng) * 60, 8);
    const Found f = Find(n, 60);
    periodic += static_cast<int>(f.periodic.size());
    periodic_on_one += OnValidations(f, n);
    for (const auto& v : n.validations) {
      ++written;
      found += FoundAny(f, v) ? 1 : 0;
    }
  }
  INFO("idle " << idle_share << ": " << found << " of " << written << " validations found, "
               << periodic << " periodic stops, " << periodic_on_one << " on a validation");
  REQUIRE(written > 0);
  // Measured: 79-100% found (79% at idle 0.05, where single-sample runs start to crowd the
  // windows), every periodic stop on a validation; 36-41% when only runs of two samples or
  // more are tried.
  CHECK(found >= 0.6 * written);
  CHECK(periodic_on_one >= 0.9 * periodic);
}
