// Stops seen in a mount's reads: a generator of nodes that read at some pace (their GPUs idle a
// random share of the samples), stop for validation between reads, then either read to the end
// (a final evaluation after the last read) or are fed from their cache at their loader's pace
// (validations still stopping them). The stops are found where they were written; a silence in
// which the GPUs kept working, and a cache's scattered waits, are never taken for one. A bucket
// the last sample reaches into by a sliver is no bucket of work.
// A stop at the samples' grain (one whole minute of a 110 s validation) fills its silence.
#include "diagnosis/read_silence_stops.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <random>

namespace fd = feedcheck::diagnosis;
using feedcheck::Series;

namespace {

constexpr double kT0Silence = 1.7e9, kWidthSilence = 10;

struct SilenceNode {
  Series lost;
  std::vector<fd::TimeSpan> silences;  // between reads
  std::vector<fd::TimeSpan> stops;     // written in
  double last_read = 0, end = 0;
};

struct Plan {
  double gpus = 8, interval_s = 10, idle_share = 0.5;
  double read_until_s = 3600;  // then the cache (or a final evaluation) to the end
  double end_s = 5400;
  double cache_idle_share = 0.1;  // the loader's pace from the cache; 1: a final evaluation
  double stop_s = 180, every_s = 1200;
  bool stops_idle = true;  // false: the GPUs worked through the silences
};

SilenceNode DrawSilenceNode(std::mt19937* rng, const Plan& p) {
  SilenceNode n;
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<double> lost(static_cast<size_t>(p.end_s / kWidthSilence), 0.0);
  auto stop_at = [&](double t) {
    return p.every_s > 0 && t >= p.every_s && std::fmod(t, p.every_s) < p.stop_s;
  };
  for (double t = 0; t < p.end_s; t += p.interval_s) {
    bool idle;
    if (stop_at(t))
      idle = p.stops_idle || u(*rng) < p.idle_share;
    else
      idle = u(*rng) < (t < p.read_until_s ? p.idle_share : p.cache_idle_share);
    if (!idle) continue;
    for (double b = t; b < t + p.interval_s && b < p.end_s; b += kWidthSilence)
      lost[static_cast<size_t>(b / kWidthSilence)] = p.gpus * kWidthSilence;
  }
  for (size_t i = 0; i < lost.size(); ++i)
    n.lost.points.push_back({kT0Silence + static_cast<double>(i) * kWidthSilence, lost[i]});
  for (double t = p.every_s; p.every_s > 0 && t < p.end_s; t += p.every_s) {
    n.stops.push_back({kT0Silence + t, kT0Silence + t + p.stop_s});
    // Reads every half minute: the silence runs from the read before the stop to the one after.
    if (t + p.stop_s < p.read_until_s)
      n.silences.push_back({kT0Silence + t - 15, kT0Silence + t + p.stop_s + 15});
  }
  n.last_read = kT0Silence + p.read_until_s;
  n.end = kT0Silence + p.end_s;
  return n;
}

fd::NodeReads Reads(const SilenceNode& n, bool cache_may_hold_input = true) {
  fd::NodeReads r;
  r.silences = n.silences;
  r.fence_s = 60;
  r.last_read_s = n.last_read;
  r.samples_end_s = n.end;
  r.cache_may_hold_input = cache_may_hold_input;
  return r;
}

std::vector<fd::TimeSpan> Stops(const SilenceNode& n, const Plan& p,
                                bool cache_may_hold_input = true) {
  return fd::ReadSilenceStops(n.lost, p.gpus, p.interval_s, kT0Silence,
                              Reads(n, cache_may_hold_input));
}

}  // namespace

TEST_CASE("read silence stops: stops between reads are found at any pace", "[read_silence]") {
  Plan p;
  p.interval_s = GENERATE(10.0, 60.0);
  p.idle_share = GENERATE(0.0, 0.5, 0.95);
  p.stop_s = GENERATE(90.0, 240.0);
  p.cache_idle_share = 0.0;
  std::mt19937 rng(static_cast<unsigned>(p.interval_s * 100 + p.idle_share * 10 + p.stop_s));
  for (int k = 0; k < 10; ++k) {
    const SilenceNode n = DrawSilenceNode(&rng, p);
    const auto stops = Stops(n, p);
    INFO("interval " << p.interval_s << " idle " << p.idle_share << " stop " << p.stop_s);
    // Each stop in a silence between reads is found; every stop found is one written in.
    for (const auto& s : n.stops) {
      if (s.end_s > n.last_read) continue;
      bool found = false;
      for (const auto& f : stops) found = found || fd::Overlaps(f, s);
      CHECK(found);
    }
    for (const auto& f : stops) {
      bool written = false;
      for (const auto& s : n.stops) written = written || fd::Overlaps(f, s);
      CHECK(written);
    }
  }
}

TEST_CASE("read silence stops: GPUs that worked through a silence did not stop", "[read_silence]") {
  Plan p;
  p.stops_idle = false;
  p.idle_share = GENERATE(0.1, 0.4);
  p.cache_idle_share = p.idle_share;
  std::mt19937 rng(static_cast<unsigned>(p.idle_share * 100));
  INFO("idle " << p.idle_share);
  for (int k = 0; k < 20; ++k) CHECK(Stops(DrawSilenceNode(&rng, p), p).empty());
}

TEST_CASE(
    "read silence stops: fed from its cache, a node's stops stand out from its loader's "
    "pace",
    "[read_silence]") {
  Plan p;
  p.idle_share = 0.7;
  p.cache_idle_share = GENERATE(0.0, 0.3, 0.86);
  std::mt19937 rng(static_cast<unsigned>(p.cache_idle_share * 100));
  int found_after = 0, written_after = 0;
  for (int k = 0; k < 20; ++k) {
    const SilenceNode n = DrawSilenceNode(&rng, p);
    const auto stops = Stops(n, p);
    INFO("cache idle " << p.cache_idle_share);
    for (const auto& f : stops) {
      bool written = false;
      for (const auto& s : n.stops) written = written || fd::Overlaps(f, s);
      CHECK(written);  // never a run of the loader's waits
    }
    for (const auto& s : n.stops) {
      if (s.start_s < n.last_read) continue;
      written_after += 1;
      for (const auto& f : stops)
        if (fd::Overlaps(f, s)) {
          found_after += 1;
          break;
        }
    }
  }
  // A loader that idles its GPUs most of the time hides a three-minute stop in its waits.
  if (p.cache_idle_share < 0.5) CHECK(found_after == written_after);
}

TEST_CASE("read silence stops: a final evaluation after the last read", "[read_silence]") {
  Plan p;
  p.every_s = 0;
  p.cache_idle_share = 1;  // every sample after the last read idle
  p.read_until_s = 5400 - 300;
  p.interval_s = 60;
  // At a pace of 30% idle, five idle minutes in a row are a stop; at 95%, they are the pace,
  // unless a capped cache too small for the input rules out its serving the node then.
  p.idle_share = GENERATE(0.3, 0.95);
  const bool cache_may_hold_input = GENERATE(true, false);
  // The last sample's time stamp a few ms past the grid: it reaches into one more bucket by a
  // sliver, which holds a sliver of its loss (no bucket of work).
  const bool sliver = GENERATE(false, true);
  std::mt19937 rng(static_cast<unsigned>(p.idle_share * 100));
  for (int k = 0; k < 10; ++k) {
    SilenceNode n = DrawSilenceNode(&rng, p);
    fd::NodeReads reads = Reads(n, cache_may_hold_input);
    if (sliver) {
      n.lost.points.push_back({n.end, p.gpus * 0.014});
      reads.samples_end_s = n.end + kWidthSilence;
    }
    INFO((sliver ? "a sliver bucket at the end" : "no sliver"));
    const auto stops = fd::ReadSilenceStops(n.lost, p.gpus, p.interval_s, kT0Silence, reads);
    if (p.idle_share < 0.5 || !cache_may_hold_input) {
      REQUIRE(stops.size() == 1);
      CHECK(stops[0].start_s == n.last_read);
      CHECK(stops[0].end_s == n.end);
    } else {
      CHECK(stops.empty());
    }
  }
  // No fence, no GPU count: nothing.
  const SilenceNode n = DrawSilenceNode(&rng, p);
  fd::NodeReads no_fence = Reads(n);
  no_fence.fence_s.reset();
  no_fence.silences.clear();
  CHECK(fd::ReadSilenceStops(n.lost, p.gpus, 60, kT0Silence, no_fence).empty());
  CHECK(fd::ReadSilenceStops(n.lost, 0, 60, kT0Silence, Reads(n)).empty());
}

TEST_CASE("read silence stops: a stop at the samples' grain, one whole minute in its silence",
          "[read_silence]") {
  // A node sampled once a minute (Azure ML's metric: a minute's mean), otherwise busy, stopped
  // for 110 s from 30 s into a minute: only the next minute is wholly idle, the minutes either
  // side partly (above the busy threshold). Its reads fall silent from 15 s before the stop to
  // 15 s after it: 140 s, of which the idle minute is under half. At the samples' grain the
  // silence is the stop; a silence a good deal longer than the minute and a sample each side
  // holds a stop only where the run covers half of it.
  const double extra_s = GENERATE(0.0, 300.0);
  Series lost;
  const double start = 1200 + 30;  // the stop, from 30 s into minute 20
  for (int b = 0; b < 360; ++b) {
    const double t = b * kWidthSilence;
    lost.points.push_back({kT0Silence + t, t >= 1260 && t < 1320 ? 8 * kWidthSilence : 0.0});
  }
  fd::NodeReads reads;
  reads.silences.push_back({kT0Silence + start - 15, kT0Silence + start + 110 + 15 + extra_s});
  reads.fence_s = 60;
  reads.last_read_s = kT0Silence + 3500;
  reads.samples_end_s = kT0Silence + 3600;
  const auto stops = fd::ReadSilenceStops(lost, 8, 60, kT0Silence, reads);
  INFO("silence " << 140 + extra_s << " s");
  if (extra_s == 0) {
    REQUIRE(stops.size() == 1);
    CHECK(stops[0].start_s == kT0Silence + 1260);
    CHECK(stops[0].end_s == kT0Silence + 1320);
  } else {
    CHECK(stops.empty());
  }
}
