// Stops at a declared checkpoint cadence, by a generator: a node's stops of its own are drawn as
// checkpoints at a cadence (each drifting from it by up to a share of it, the chain's starts
// each a cadence after the last) mixed with validations at a period of their own and stray stops
// at random times. With the cadence declared, the checkpoints are found and the stops at other
// periods are not, unless a partner falls a cadence away by chance; nor is the node's wait for
// its first batch, a cadence before the first checkpoint.
#include "diagnosis/checkpoint_stops.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <random>

namespace fd = feedcheck::diagnosis;

namespace {

bool Has(const std::vector<fd::TimeSpan>& found, const fd::TimeSpan& s) {
  for (const auto& f : found)
    if (f.start_s == s.start_s && f.end_s == s.end_s) return true;
  return false;
}

}  // namespace

TEST_CASE("checkpoint stops: a chain at the declared cadence, not stops at other periods",
          "[diagnosis][ledger][checkpoint]") {
  const unsigned seed = GENERATE(range(1u, 41u));
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(0, 1);
  const double every_s = 60 * (20 + 40 * unit(rng));  // 20-60 min
  const double interval_s = unit(rng) < 0.5 ? 30 : 60;
  const double hours = 3;
  const double drift = fd::kCheckpointDriftShare * 0.9;  // each within the allowed drift
  std::vector<fd::TimeSpan> checkpoints, others, all;
  for (double t = every_s; t < hours * 3600; t += every_s * (1 + drift * (2 * unit(rng) - 1)))
    checkpoints.push_back({t, t + 60 + 600 * unit(rng)});
  // Validations at a period of their own: each is taken only where a stop starts a cadence
  // away from it by chance.
  const double period = 60 * (15 + 45 * unit(rng));
  const double phase = period * unit(rng);
  for (double t = phase; t < hours * 3600; t += period) others.push_back({t, t + 120});
  all = checkpoints;
  all.insert(all.end(), others.begin(), others.end());
  // The node's wait for its first batch, as its input starts (t = 0): a cadence before the
  // first checkpoint, and never one.
  const fd::TimeSpan first_batch{0, 90};
  all.push_back(first_batch);
  const auto found = fd::CheckpointStops(all, every_s, interval_s, 0);
  INFO("seed " << seed << ", cadence " << every_s << " s, validation every " << period << " s");
  CHECK_FALSE(Has(found, first_batch));
  if (checkpoints.size() >= 2)
    for (const auto& c : checkpoints) CHECK(Has(found, c));
  const double tol =
      std::max(fd::kCheckpointDriftShare * every_s, fd::kCheckpointStartSamples * interval_s);
  auto candidate = [&](const fd::TimeSpan& s) { return s.start_s >= tol; };
  for (const auto& v : others) {
    bool partner = false;
    for (const auto& s : all)
      for (double side : {-1.0, 1.0})
        partner |= candidate(s) && std::fabs(s.start_s - (v.start_s + side * every_s)) <= tol;
    CHECK(Has(found, v) == (candidate(v) && partner));
  }
}

TEST_CASE("checkpoint stops: none without a cadence, alone, or finer than the samples",
          "[diagnosis][ledger][checkpoint]") {
  const std::vector<fd::TimeSpan> pair = {{0, 300}, {1800, 2100}};
  const double before = -1e9;  // the input started long before
  CHECK(fd::CheckpointStops(pair, 1800, 60, before).size() == 2);
  CHECK(fd::CheckpointStops(pair, 0, 60, before).empty());
  CHECK(fd::CheckpointStops(pair, NAN, 60, before).empty());
  CHECK(fd::CheckpointStops({{0, 300}}, 1800, 60, before).empty());
  // Two stops 1800 s apart and a declared 3,600 s cadence: no pair at it.
  CHECK(fd::CheckpointStops(pair, 3600, 60, before).empty());
  // A 180 s cadence sampled every 60 s: the drift (2 samples) reaches past half of it.
  CHECK(fd::CheckpointStops({{0, 30}, {180, 210}}, 180, 60, before).empty());
  CHECK(fd::CheckpointStops({{0, 30}, {180, 210}}, 180, 10, before).size() == 2);
  // The first stop as the input starts is the wait for the first batch, a cadence before the
  // other by chance: neither is a checkpoint.
  CHECK(fd::CheckpointStops(pair, 1800, 60, 0).empty());
}

TEST_CASE("checkpoint stops: short runs at the cadence beyond chance, not a busy node's waits",
          "[diagnosis][ledger][checkpoint]") {
  // Nodes sampled every 30 or 60 s for 4 hours whose GPUs stop in runs of a sample or two at
  // random times (a loader's waits, at a drawn rate), some also for a checkpoint of under a
  // minute at a cadence of 20-40 minutes. A node that stops rarely (under 2 runs an hour)
  // mostly shows its checkpoints (the test is conservative: the rate of chance pairs counts
  // the checkpoints' runs too); one whose random runs alone would pair at the cadence shows
  // none, and a node without checkpoints is rarely taken to have them (the chance allowed is
  // 5%).
  int quiet_found = 0, quiet = 0, false_alarms = 0, without = 0;
  for (unsigned seed = 1; seed <= 400; ++seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> unit(0, 1);
    const double interval = unit(rng) < 0.5 ? 30 : 60, end = 4 * 3600;
    const double every = 60 * (20 + 20 * unit(rng));
    const bool checkpoints = seed % 2 == 0;
    const double waits_per_hour = unit(rng) < 0.5 ? 0.5 + 1.5 * unit(rng) : 10 + 50 * unit(rng);
    std::vector<fd::TimeSpan> runs;
    std::exponential_distribution<double> gap(waits_per_hour / 3600);
    for (double t = 300 + gap(rng); t < end; t += gap(rng)) {
      const double at = std::floor(t / interval) * interval;
      runs.push_back({at, at + interval * (unit(rng) < 0.7 ? 1 : 2)});
    }
    if (checkpoints)
      for (double t = every; t < end; t += every) {
        const double at = std::floor(t / interval) * interval;
        runs.push_back({at, at + interval});
      }
    std::sort(runs.begin(), runs.end(),
              [](const fd::TimeSpan& a, const fd::TimeSpan& b) { return a.start_s < b.start_s; });
    const auto found = fd::RecurringCheckpointRuns(runs, every, interval, 0, end);
    const bool is_quiet = waits_per_hour < 5;
    if (checkpoints && is_quiet && end / every >= 3) {
      ++quiet;
      quiet_found += !found.empty();
    }
    if (!checkpoints) {
      ++without;
      false_alarms += !found.empty();
    }
  }
  INFO(quiet_found << " of " << quiet << " quiet nodes' checkpoints found; " << false_alarms
                   << " of " << without << " nodes without checkpoints taken to have them");
  CHECK(quiet > 40);
  CHECK(quiet_found >= 0.65 * quiet);
  CHECK(false_alarms <= 0.1 * without);
}
