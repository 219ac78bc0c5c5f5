#include "diagnosis/periodic_stops.h"

#include <algorithm>
#include <cmath>

namespace feedcheck::diagnosis {

namespace {

constexpr double kInfinity = 1e300;
// Runs of one sample are tried only where so few that a chain's window would hold one at most
// this share of the time (a node that seldom idles).
constexpr double kSingleSampleWindowShare = 0.25;

// P(X >= m) for X binomial with `n` draws of chance `h`.
double BinomialTailAtLeast(int n, int m, double h) {
  if (m <= 0) return 1;
  if (m > n || !(h > 0)) return 0;
  if (h >= 1) return 1;
  double tail = 0;
  for (int x = m; x <= n; ++x)
    tail += std::exp(std::lgamma(n + 1.0) - std::lgamma(x + 1.0) - std::lgamma(n - x + 1.0) +
                     x * std::log(h) + (n - x) * std::log1p(-h));
  return std::min(1.0, tail);
}

// A chain of points (run starts or ends) at one period from the pair (i, j): the windows after
// j a period apart (the period refined by each point found), how many held a point, and which.
struct Chain {
  int windows = 0;
  int hits = 0;
  double period_s = 0;
  std::vector<size_t> members;
};

Chain Walk(const std::vector<double>& at, const std::vector<bool>& used, size_t i, size_t j,
           double tolerance_s, double last_s) {
  Chain c;
  c.members = {i, j};
  double period = at[j] - at[i];
  for (int k = 2;; ++k) {
    const double centre = at[i] + k * period;
    if (centre - tolerance_s > last_s) break;
    ++c.windows;
    auto it = std::lower_bound(at.begin(), at.end(), centre - tolerance_s);
    size_t best = at.size();
    for (; it != at.end() && *it <= centre + tolerance_s; ++it) {
      const auto n = static_cast<size_t>(it - at.begin());
      if (used[n]) continue;
      if (best == at.size() || std::abs(*it - centre) < std::abs(at[best] - centre)) best = n;
    }
    if (best == at.size()) continue;
    ++c.hits;
    c.members.push_back(best);
    period = (at[best] - at[i]) / k;  // steps vary a little: follow them
  }
  c.period_s = period;
  return c;
}

}  // namespace

std::vector<TimeSpan> PeriodicStops(const Series& lost, double gpus, double sample_interval_s,
                                    double from_s, const std::vector<TimeSpan>& taken) {
  std::vector<TimeSpan> stops;
  const auto& pts = lost.points;
  if (!(gpus > 0) || pts.size() < 2) return stops;
  double width = 0;
  const std::vector<TimeSpan> all_runs = WholeStopRuns(lost, gpus, from_s, &width);
  if (!(width > 0) || all_runs.size() < 3) return stops;
  const double sample_s = std::max(width, sample_interval_s);
  const double begin_s = std::max(from_s, pts.front().x), end_s = pts.back().x + width;
  const double span_s = end_s - begin_s;
  if (!(span_s > 3 * kPeriodicStopMinPeriodS)) return stops;
  // The shortest run that can recur as a stop of its own (one sample, where samples are that
  // far apart); the lengths tried from two samples on leave out the node's typical runs (too
  // many to stand out at any period).
  const double shortest_s = std::max(kPeriodicStopMinS, sample_s) - 1e-6;
  const double two_samples_s = std::max(kPeriodicStopMinS, 2 * sample_s) - 1e-6;
  std::vector<TimeSpan> runs;
  for (const auto& r : all_runs) {
    bool in_taken = false;
    for (const auto& t : taken) in_taken = in_taken || (r.start_s < t.end_s && t.start_s < r.end_s);
    if (!in_taken && r.end_s - r.start_s >= shortest_s) runs.push_back(r);
  }
  // A tolerance of a sample and a half either way: the bucket a sample falls in, and steps
  // that take a little longer or shorter.
  const double tolerance_s = 1.5 * sample_s;
  const double window_share = 2 * tolerance_s / span_s;
  // The tests: the runs at least a length long (from the shortest, by half again: a few
  // lengths cover every scale), by their starts and by their ends (a run may begin with one
  // of the loader's waits, or end with one). Each test's points, and the pairs it tries.
  struct Test {
    std::vector<double> at;
    std::vector<size_t> run;
    double hit_chance = 0;
    bool by_end = false;  // the runs' ends, not their starts
  };
  std::vector<Test> tests;
  double pairs = 0;
  for (double length_s = shortest_s; tests.size() < 10;
       length_s = length_s < two_samples_s ? two_samples_s : length_s * 1.5) {
    std::vector<size_t> longer;
    for (size_t k = 0; k < runs.size(); ++k)
      if (runs[k].end_s - runs[k].start_s >= length_s) longer.push_back(k);
    const auto n = static_cast<double>(longer.size());
    if (n < 3) break;
    // So many that a window would hold one about half the time: nothing can stand out (and
    // the pairs stay few: at most span / window of them).
    if (n * window_share > 0.5) continue;
    // Runs of one sample only where they are rare: their many pairs would otherwise dilute
    // every other test's chance.
    if (length_s < two_samples_s && n * window_share > kSingleSampleWindowShare) continue;
    // A one-sample run ends where it starts, a sample later: its ends are the same test.
    const int ends = length_s < two_samples_s ? 1 : 2;
    for (int end = 0; end < ends; ++end) {
      Test t;
      t.by_end = end == 1;
      for (size_t k : longer) {
        t.at.push_back(end ? runs[k].end_s : runs[k].start_s);
        t.run.push_back(k);
      }
      // A window holds one of the other runs, at random over the span, with this chance.
      t.hit_chance = 1 - std::pow(1 - window_share, n - 2);
      for (size_t i = 0; i < t.at.size(); ++i)
        for (size_t j = i + 1; j < t.at.size(); ++j) {
          const double period = t.at[j] - t.at[i];
          if (period >= kPeriodicStopMinPeriodS && t.at[j] + period - tolerance_s <= end_s)
            pairs += 1;
        }
      tests.push_back(std::move(t));
    }
  }
  if (!(pairs > 0)) return stops;
  const double chance = kOwnPhaseChance / pairs;
  // The most unlikely chain first, and again among the runs left: a chain at half the period
  // (every other window one of the loader's waits) is then left without its stops.
  std::vector<bool> recurring(runs.size(), false);
  for (size_t n = 0; n < tests.size(); ++n) {
    const Test& t = tests[n];
    for (;;) {
      std::vector<bool> used(t.at.size());
      for (size_t k = 0; k < t.at.size(); ++k) used[k] = recurring[t.run[k]];
      Chain best;
      double best_chance = chance;
      for (size_t i = 0; i < t.at.size(); ++i)
        for (size_t j = i + 1; j < t.at.size(); ++j) {
          const double period = t.at[j] - t.at[i];
          if (used[i] || used[j] || period < kPeriodicStopMinPeriodS ||
              t.at[j] + period - tolerance_s > end_s)
            continue;
          Chain c = Walk(t.at, used, i, j, tolerance_s, end_s);
          const double p = BinomialTailAtLeast(c.windows, c.hits, t.hit_chance);
          if (c.hits >= 1 && p <= best_chance) {
            best_chance = p;
            best = std::move(c);
          }
        }
      if (best.members.empty()) break;
      double shortest_member_s = kInfinity;
      for (size_t m : best.members) {
        recurring[t.run[m]] = true;
        shortest_member_s =
            std::min(shortest_member_s, runs[t.run[m]].end_s - runs[t.run[m]].start_s);
      }
      // Its period found, a run that holds a whole stop where one is due is one, though it
      // starts (or ends) further off: a wait of the loader's ran into it.
      const double due_s = shortest_member_s - 2 * tolerance_s;
      if (!(due_s > 0)) continue;
      const double first = t.at[best.members.front()];
      const double back = std::floor((first - begin_s) / best.period_s);
      for (double k = -back; first + k * best.period_s <= end_s; k += 1) {
        const double at = first + k * best.period_s;
        const double from = t.by_end ? at - shortest_member_s : at;
        for (size_t r = 0; r < runs.size(); ++r)
          if (runs[r].start_s <= from + tolerance_s && runs[r].end_s >= from + due_s + tolerance_s)
            recurring[r] = true;
      }
    }
  }
  for (size_t k = 0; k < runs.size(); ++k)
    if (recurring[k]) stops.push_back(runs[k]);
  return stops;
}

}  // namespace feedcheck::diagnosis
