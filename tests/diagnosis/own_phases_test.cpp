// The job's own phases among a node's idle GPU time: a generator of nodes whose loader leaves
// their GPUs idle a random share of the samples, with whole stops of the node written in. The
// stops long and rare enough are found where they are; the loader's scattered waits are not.
// A sample cut at the start (a download's last) is no run of its own.
// Short stops stand out where far fewer shorter runs come than the share scatters, with or
// without a long stop beside them.
#include "diagnosis/own_phases.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <random>

namespace fd = feedcheck::diagnosis;
using feedcheck::Series;

namespace {

struct PhaseNode {
  Series lost;
  std::vector<fd::TimeSpan> stops;
};

// A node of `gpus` sampled every `interval_s` for `hours`, idle at each sample with chance
// `idle_share` (all GPUs together, as a data-parallel job waits), stopped for `stop_s` every
// `every_s`; the lost series in 10 s buckets.
PhaseNode DrawPhaseNode(std::mt19937* rng, double gpus, double interval_s, double idle_share,
                        double stop_s, double every_s, double hours) {
  PhaseNode n;
  const double width = 10, end = hours * 3600;
  std::bernoulli_distribution idle(idle_share);
  std::vector<double> lost(static_cast<size_t>(end / width), 0.0);
  for (double t = 0; t < end; t += interval_s) {
    const bool stopped = every_s > 0 && std::fmod(t, every_s) >= every_s - stop_s;
    if (!stopped && !idle(*rng)) continue;
    for (double b = t; b < t + interval_s && b < end; b += width)
      lost[static_cast<size_t>(b / width)] = gpus * width;
  }
  for (size_t i = 0; i < lost.size(); ++i)
    n.lost.points.push_back({1.7e9 + static_cast<double>(i) * width, lost[i]});
  if (every_s > 0)
    for (double t = every_s - stop_s; t < end; t += every_s)
      n.stops.push_back({1.7e9 + t, 1.7e9 + t + stop_s});
  return n;
}

}  // namespace

TEST_CASE("own phases: whole stops are found, a loader's scattered waits are not", "[own_phases]") {
  const double interval = GENERATE(10.0, 15.0, 30.0);
  const double idle_share = GENERATE(0.0, 0.2, 0.5, 0.7);
  const double stop_s = GENERATE(0.0, 90.0, 240.0, 600.0);
  std::mt19937 rng(static_cast<unsigned>(interval * 1000 + idle_share * 100 + stop_s));
  int false_phases = 0, runs = 0;
  for (int k = 0; k < 20; ++k) {
    PhaseNode n = DrawPhaseNode(&rng, 8, interval, idle_share, stop_s, stop_s > 0 ? 1800 : 0, 3);
    const auto phases = fd::OwnPhases(n.lost, 8, interval, n.lost.points.front().x);
    for (const auto& p : phases) {
      CHECK(p.end_s - p.start_s >= fd::kShortOwnPhaseMinS);
      bool on_a_stop = false;
      for (const auto& s : n.stops) on_a_stop = on_a_stop || fd::Overlaps(p, s);
      false_phases += on_a_stop ? 0 : 1;
    }
    // Each stop is found whenever the node's own waits make it unlikely by chance.
    const double share = idle_share + (stop_s > 0 ? stop_s / 1800 : 0);
    const double chance = share > 0 ? std::pow(share, stop_s / interval) : 0;
    for (const auto& s : n.stops) {
      ++runs;
      if (chance > fd::kOwnPhaseChance / 1e4) continue;
      bool found = false;
      for (const auto& p : phases)
        found = found || (p.start_s <= s.start_s + interval && p.end_s >= s.end_s - interval);
      CHECK(found);
    }
  }
  // 20 nodes of 3 h: a scattered wait is taken for a phase with a chance of about 5% per node
  // (kOwnPhaseChance), so 1 of 20 is expected; 4 or more would happen by chance 1.6% of the
  // time (binomial).
  INFO("every " << interval << " s, idle " << idle_share << ", stops of " << stop_s << " s");
  CHECK(false_phases <= 3);
  CHECK(runs == (stop_s > 0 ? 20 * 6 : 0));
}

TEST_CASE(
    "own phases: none without a GPU count, from before the input, or for a node idle "
    "throughout",
    "[own_phases]") {
  std::mt19937 rng(7);
  PhaseNode n = DrawPhaseNode(&rng, 4, 10, 0.1, 600, 1800, 2);
  REQUIRE_FALSE(fd::OwnPhases(n.lost, 4, 10, n.lost.points.front().x).empty());
  CHECK(fd::OwnPhases(n.lost, 0, 10, n.lost.points.front().x).empty());
  CHECK(fd::OwnPhases(n.lost, 4, 10, n.lost.points.back().x + 10).empty());
  // Counted against more GPUs than idled, no bucket is a whole stop.
  CHECK(fd::OwnPhases(n.lost, 8, 10, n.lost.points.front().x).empty());
  Series all = n.lost;
  for (auto& p : all.points) p.y = 40;
  CHECK(fd::OwnPhases(all, 4, 10, all.points.front().x).empty());
}

TEST_CASE(
    "own phases: a node that never waits otherwise has every long stop a phase, however "
    "few its samples",
    "[own_phases]") {
  // Three samples a minute apart are likely as a run of waits at the node's idle share over
  // all (15%); but the node has no other waits, so its stops stand out by their number.
  std::mt19937 rng(11);
  const double every = GENERATE(1200.0, 1800.0);
  PhaseNode n = DrawPhaseNode(&rng, 8, 60, 0.0, 180, every, 2);
  const auto phases = fd::OwnPhases(n.lost, 8, 60, n.lost.points.front().x);
  REQUIRE(phases.size() == n.stops.size());
  for (size_t i = 0; i < phases.size(); ++i) CHECK(fd::Overlaps(phases[i], n.stops[i]));
}

TEST_CASE("own phases: short stops are phases beside long ones when the node has no other waits",
          "[own_phases]") {
  // Two long stops raise the node's idle share until two-sample stops look like chance by
  // their length; but a node with that share would scatter many short waits, and this one has
  // none.
  std::mt19937 rng(13);
  PhaseNode n = DrawPhaseNode(&rng, 8, 60, 0.0, 120, 1400, 1.1);
  for (double at : {1680.0, 3360.0})
    for (auto& p : n.lost.points)
      if (p.x >= n.lost.points.front().x + at && p.x < n.lost.points.front().x + at + 360) p.y = 80;
  const auto phases = fd::OwnPhases(n.lost, 8, 60, n.lost.points.front().x);
  for (const auto& s : n.stops) {
    bool found = false;
    for (const auto& p : phases) found = found || fd::Overlaps(p, s);
    CHECK(found);
  }
  CHECK(phases.size() == n.stops.size() + 2);
}

TEST_CASE("own phases: stops that fill most of a node's time are its pace, not phases",
          "[own_phases]") {
  // A node that otherwise never waits, stopped for `stop_s` of every 30 minutes for 3 hours:
  // up to half its time, those are phases (validations); beyond, they are how it works.
  const double stop_s = GENERATE(300.0, 800.0, 1000.0, 1500.0);
  std::mt19937 rng(static_cast<unsigned>(stop_s));
  PhaseNode n = DrawPhaseNode(&rng, 8, 10, 0.0, stop_s, 1800, 3);
  const auto phases = fd::OwnPhases(n.lost, 8, 10, n.lost.points.front().x);
  INFO("stopped " << stop_s << " s of every 1800");
  if (stop_s / 1800 <= fd::kOwnPhasesMaxShare)
    CHECK(phases.size() == n.stops.size());
  else
    CHECK(phases.empty());
}

TEST_CASE("own phases: a sample's tail cut at the start is no run to share a stop's chance with",
          "[own_phases]") {
  // A node sampled each minute that never waits after its download, stopped for its last two
  // minutes (a final evaluation). The download's last sample idled and reaches past `from_s` by
  // `tail_s` (the download ended inside it: by a bucket, half the sample, most of it), or ends
  // at `from_s`. Whatever its length under a sample, the tail is no run of its own.
  const double tail_s = GENERATE(0.0, 10.0, 30.0, 50.0);
  std::mt19937 rng(17);
  PhaseNode n = DrawPhaseNode(&rng, 8, 60, 0.0, 0, 0, 1.1);
  const double t0 = n.lost.points.front().x;
  for (auto& p : n.lost.points)
    if (p.x >= t0 + 3840 || p.x < t0 + 60) p.y = 80;
  const double from = t0 + 60 - tail_s;
  const auto phases = fd::OwnPhases(n.lost, 8, 60, from);
  INFO("the download's last sample reaches " << tail_s << " s past from_s");
  REQUIRE(phases.size() == 1);
  CHECK(phases[0].start_s == Approx(t0 + 3840));
}

TEST_CASE("own phases: with no long run, short stops stand out by how few shorter runs come",
          "[own_phases]") {
  // A node sampled every 30 s for 1.75 h that never waits but for a 90 s stop every 1900 s
  // (three validations): at its idle share it would scatter eight runs, nearly all one sample
  // long; it has none. Its stops are phases.
  std::mt19937 rng(19);
  PhaseNode n = DrawPhaseNode(&rng, 8, 30, 0.0, 90, 1900, 1.75);
  const auto phases = fd::OwnPhases(n.lost, 8, 30, n.lost.points.front().x);
  REQUIRE(phases.size() == n.stops.size());
  for (size_t i = 0; i < phases.size(); ++i) CHECK(fd::Overlaps(phases[i], n.stops[i]));
  // The same idle share scattered at random (no stop): its runs of two or three samples
  // come with its single ones, and are no phases but by chance (a Poisson tail of 5%).
  int with_phases = 0;
  for (int k = 0; k < 40; ++k) {
    PhaseNode scattered = DrawPhaseNode(&rng, 8, 30, 9.0 / 210, 0, 0, 1.75);
    with_phases += !fd::OwnPhases(scattered.lost, 8, 30, scattered.lost.points.front().x).empty();
  }
  INFO("scattered nodes with phases: " << with_phases);
  CHECK(with_phases <= 4);
}

TEST_CASE("own phases: short stops stand out by how few shorter runs come, beside a long one too",
          "[own_phases]") {
  // The node above with a 300 s stop at its end (a final evaluation): the long stop does not
  // make the short ones its pace; the node still scatters no run under a minute.
  std::mt19937 rng(23);
  PhaseNode n = DrawPhaseNode(&rng, 8, 30, 0.0, 90, 1900, 1.75);
  const double start = n.lost.points.front().x, end = n.lost.points.back().x + 10;
  for (auto& p : n.lost.points)
    if (p.x >= end - 300) p.y = 80;
  const auto phases = fd::OwnPhases(n.lost, 8, 30, start);
  for (const auto& s : n.stops) {
    bool found = false;
    for (const auto& p : phases) found = found || fd::Overlaps(p, s);
    CHECK(found);
  }
  CHECK(phases.size() == n.stops.size() + 1);
  // Beside the same long stop, a share scattered at random: its short runs are no phases but
  // by chance.
  int with_short_phases = 0;
  for (int k = 0; k < 40; ++k) {
    PhaseNode scattered = DrawPhaseNode(&rng, 8, 30, 9.0 / 210, 0, 0, 1.75);
    for (auto& p : scattered.lost.points)
      if (p.x >= end - 300) p.y = 80;
    int short_phases = 0;
    for (const auto& p : fd::OwnPhases(scattered.lost, 8, 30, start))
      short_phases += p.end_s - p.start_s < fd::kOwnPhaseMinS;
    with_short_phases += short_phases > 0;
  }
  INFO("scattered nodes with short phases: " << with_short_phases);
  CHECK(with_short_phases <= 4);
}
