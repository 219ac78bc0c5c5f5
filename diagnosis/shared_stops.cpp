#include "diagnosis/shared_stops.h"

#include <algorithm>
#include <cmath>

namespace feedcheck::diagnosis {

namespace {

// The span about a stop in which another node's share is weighed.
constexpr double kLocalShareS = 600;
// A node is weighed against this many others at most: enough for any coincidence to stand out.
constexpr size_t kMaxOthers = 64;

double Length(const TimeSpan& s) { return s.end_s - s.start_s; }
double Middle(const TimeSpan& s) { return (s.start_s + s.end_s) / 2; }

bool InAny(const std::vector<TimeSpan>& spans, double t) {
  return std::any_of(spans.begin(), spans.end(),
                     [&](const TimeSpan& s) { return t >= s.start_s && t < s.end_s; });
}

bool Explained(const NodeStops& n, size_t run) {
  return run < n.explained.size() && n.explained[run];
}

// The share of the node's sampled time in its runs of whole stops that nothing else explains
// (its phases too): the chance that it is stopped at a moment its stops do not choose.
double StopShare(const NodeStops& n) {
  double stopped = 0;
  for (size_t i = 0; i < n.runs.size(); ++i)
    if (!Explained(n, i)) stopped += Length(n.runs[i]);
  return n.sampled_s > 0 ? std::clamp(stopped / n.sampled_s, 0.0, 1.0) : 1.0;
}

// The node is in a run nothing else explains at t (runs sorted by start, not overlapping).
bool StoppedAt(const NodeStops& n, double t) {
  auto it = std::upper_bound(n.runs.begin(), n.runs.end(), t,
                             [](double v, const TimeSpan& s) { return v < s.start_s; });
  if (it == n.runs.begin() || t >= std::prev(it)->end_s) return false;
  return !Explained(n, static_cast<size_t>(std::prev(it) - n.runs.begin()));
}

// P(at least `m` of independent events of probabilities `q` happen): the counts up to m, the
// last holding m or more.
double AtLeast(const std::vector<double>& q, size_t m) {
  if (m == 0) return 1;
  if (m > q.size()) return 0;
  std::vector<double> ways(m + 1, 0.0);  // ways[k]: P(exactly k so far), ways[m]: m or more
  ways[0] = 1;
  for (double p : q) {
    ways[m] += ways[m - 1] * p;
    for (size_t k = m - 1; k > 0; --k) ways[k] = ways[k] * (1 - p) + ways[k - 1] * p;
    ways[0] *= 1 - p;
  }
  return std::clamp(ways[m], 0.0, 1.0);
}

// The nodes `self` is weighed against: the next kMaxOthers after it (all the others in a job of
// up to that many), so the work grows with the nodes, not their square.
std::vector<size_t> OthersOf(size_t nodes, size_t self) {
  std::vector<size_t> out;
  for (size_t k = 1; k < nodes && k <= kMaxOthers; ++k) out.push_back((self + k) % nodes);
  return out;
}

// How many of `others` are stopped at t.
size_t OthersStopped(const std::vector<NodeStops>& nodes, const std::vector<size_t>& others,
                     double t) {
  size_t m = 0;
  for (size_t b : others)
    if (StoppedAt(nodes[b], t)) ++m;
  return m;
}

// Node n's stop share about `span` (within kLocalShareS either side, outside it): a load
// every node meets at once (other clients' traffic, the account's limits) stops them all more
// often then, and a coincidence there is less of a surprise. Never under its share over all.
double LocalShare(const NodeStops& n, const TimeSpan& span, double overall) {
  const TimeSpan before{span.start_s - kLocalShareS, span.start_s};
  const TimeSpan after{span.end_s, span.end_s + kLocalShareS};
  double stopped = 0;
  // The runs that end after the window starts (sorted by start, not overlapping: by end too).
  auto first = std::upper_bound(n.runs.begin(), n.runs.end(), before.start_s,
                                [](double v, const TimeSpan& r) { return v < r.end_s; });
  for (auto it = first; it != n.runs.end() && it->start_s < after.end_s; ++it) {
    if (Explained(n, static_cast<size_t>(it - n.runs.begin()))) continue;
    for (const TimeSpan& part : {before, after})
      stopped +=
          std::max(0.0, std::min(part.end_s, it->end_s) - std::max(part.start_s, it->start_s));
  }
  const double window = std::min(2 * kLocalShareS, n.sampled_s);
  if (window < kLocalShareS) return overall;
  return std::max(overall, std::clamp(stopped / window, 0.0, 1.0));
}

}  // namespace

std::vector<std::vector<TimeSpan>> SharedStops(const std::vector<NodeStops>& nodes) {
  std::vector<std::vector<TimeSpan>> shared(nodes.size());
  if (nodes.size() < 2) return shared;
  std::vector<double> share;
  for (const auto& n : nodes) share.push_back(StopShare(n));
  // Lockstep: at the one-sample stops, seldom a phase, far more of the other nodes are stopped
  // too than their shares give (a Poisson tail: its spread is at least theirs).
  double expected = 0, coincided = 0;
  for (size_t a = 0; a < nodes.size(); ++a) {
    const std::vector<size_t> others_of = OthersOf(nodes.size(), a);
    double others = 0;
    for (size_t b : others_of) others += share[b];
    for (size_t i = 0; i < nodes[a].runs.size(); ++i) {
      const TimeSpan& r = nodes[a].runs[i];
      if (Explained(nodes[a], i) || Length(r) >= 1.5 * nodes[a].sample_s ||
          InAny(nodes[a].phases, Middle(r)))
        continue;
      expected += others;
      coincided += static_cast<double>(OthersStopped(nodes, others_of, Middle(r)));
    }
  }
  if (coincided > expected && PoissonTailAtLeast(expected, coincided) <= kOwnPhaseChance)
    return shared;
  for (size_t a = 0; a < nodes.size(); ++a) {
    const NodeStops& n = nodes[a];
    const double min_s = std::max(kSharedStopMinS, 2 * n.sample_s) - 1e-6;
    std::vector<const TimeSpan*> tried;
    for (size_t i = 0; i < n.runs.size(); ++i)
      if (!Explained(n, i) && Length(n.runs[i]) >= min_s && !InAny(n.phases, Middle(n.runs[i])))
        tried.push_back(&n.runs[i]);
    const double chance_each =
        kOwnPhaseChance / static_cast<double>(std::max<size_t>(1, tried.size()));
    double taken_s = 0;
    for (const auto& p : n.phases) taken_s += Length(p);
    for (const TimeSpan* r : tried) {
      // Another node shares the run when it was stopped at its middle too: at a moment its own
      // stops did not choose, with the chance of its stop share about then.
      const std::vector<size_t> others_of = OthersOf(nodes.size(), a);
      const size_t sharing = OthersStopped(nodes, others_of, Middle(*r));
      std::vector<double> chance;
      for (size_t b : others_of) chance.push_back(share[b]);
      // At the shares over the job first: a share about the run is never lower.
      if (AtLeast(chance, sharing) > chance_each) continue;
      for (size_t k = 0; k < others_of.size(); ++k)
        chance[k] = LocalShare(nodes[others_of[k]], *r, share[others_of[k]]);
      if (AtLeast(chance, sharing) > chance_each) continue;
      shared[a].push_back(*r);
      taken_s += Length(*r);
    }
    // Stops that fill most of the node's time are its pace, not phases.
    if (taken_s > kOwnPhasesMaxShare * n.sampled_s) shared[a].clear();
  }
  return shared;
}

}  // namespace feedcheck::diagnosis
