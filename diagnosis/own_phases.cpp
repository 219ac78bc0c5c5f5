#include "diagnosis/own_phases.h"

#include <algorithm>
#include <cmath>

namespace feedcheck::diagnosis {

namespace {

// A bucket in which all the GPUs idled, allowing for a sample that straddles its edge.
constexpr double kStoppedShare = 0.98;

}  // namespace

double PoissonTailAtLeast(double mean, double n) {
  if (n <= 0) return 1;
  if (!(mean > 0)) return 0;
  if (n <= mean) return 1;  // about half or more: never a surprise
  // 1 - P(X < n), summed in logs (the mean may be large).
  double below = 0, log_term = -mean;
  for (double i = 0; i < n; ++i) {
    below += std::exp(log_term);
    log_term += std::log(mean) - std::log(i + 1);
  }
  return std::max(0.0, 1 - below);
}

double PoissonTailAtMost(double mean, double n) {
  if (n < 0) return 0;
  if (!(mean > 0) || n >= mean) return 1;  // about half or more: never a surprise
  double at_most = 0, log_term = -mean;
  for (double i = 0; i <= n; ++i) {
    at_most += std::exp(log_term);
    log_term += std::log(mean) - std::log(i + 1);
  }
  return std::min(1.0, at_most);
}

bool WholeStop(double lost_gpu_s, double full_gpu_s) {
  return std::isfinite(lost_gpu_s) && lost_gpu_s >= kStoppedShare * full_gpu_s;
}

std::vector<TimeSpan> WholeStopRuns(const Series& lost, double gpus, double from_s,
                                    double* width_s) {
  std::vector<TimeSpan> runs;
  const auto& pts = lost.points;
  double width = 0;
  for (size_t i = 1; i < pts.size(); ++i) {
    const double w = pts[i].x - pts[i - 1].x;
    if (w > 0 && (width == 0 || w < width)) width = w;
  }
  *width_s = width;
  if (!(gpus > 0) || !(width > 0)) return runs;
  const double full = gpus * width;
  auto stopped = [&](const SeriesPoint& p) { return p.x >= from_s && WholeStop(p.y, full); };
  for (size_t i = 0; i < pts.size();) {
    if (!stopped(pts[i])) {
      ++i;
      continue;
    }
    size_t j = i + 1;
    while (j < pts.size() && stopped(pts[j]) && pts[j].x - pts[j - 1].x <= width * (1 + 1e-9)) ++j;
    runs.push_back({pts[i].x, pts[j - 1].x + width});
    i = j;
  }
  return runs;
}

std::vector<TimeSpan> OwnPhases(const Series& lost, double gpus, double sample_interval_s,
                                double from_s) {
  std::vector<TimeSpan> phases;
  const auto& pts = lost.points;
  if (!(gpus > 0) || pts.size() < 2) return phases;
  double width = 0;
  // The runs of whole stops.
  std::vector<TimeSpan> runs = WholeStopRuns(lost, gpus, from_s, &width);
  if (!(width > 0)) return phases;
  const double full = gpus * width;
  const double sample_s = std::max(width, sample_interval_s);
  // A run under half a sample, or under a whole one from `from_s` on, is a sample's tail cut
  // by `from_s` (the download's last sample, which idled until it ended): no stop of its own,
  // and no run among which a stop's chance is shared. Its buckets count in the pace.
  runs.erase(std::remove_if(runs.begin(), runs.end(),
                            [&](const TimeSpan& r) {
                              const double len = r.end_s - r.start_s;
                              const bool cut_tail = r.start_s <= from_s + width && len < sample_s;
                              return len < sample_s / 2 || cut_tail;
                            }),
             runs.end());
  auto long_run = [&](const TimeSpan& r) { return r.end_s - r.start_s >= kOwnPhaseMinS; };
  // The node's idle share, outside the runs marked phases.
  std::vector<bool> phase(runs.size(), false);
  auto pace_outside = [&](double* buckets_out) {
    double idle = 0, buckets = 0;
    size_t r = 0;
    for (const auto& p : pts) {
      if (p.x < from_s || !std::isfinite(p.y)) continue;
      while (r < runs.size() && runs[r].end_s <= p.x) ++r;
      if (r < runs.size() && p.x >= runs[r].start_s && phase[r]) continue;
      idle += std::clamp(p.y / full, 0.0, 1.0);
      buckets += 1;
    }
    *buckets_out = buckets;
    return buckets > 0 ? idle / buckets : 1.0;
  };
  double buckets = 0;
  const double share = pace_outside(&buckets);
  // Idle throughout: no ordinary pace to stand out from.
  if (!(buckets > 0) || share >= 1) return phases;
  // Does the node stop more often than its waits explain? Scattered at its idle share, it would
  // have about samples x share x (1 - share) runs, each as long as a phase with chance
  // share^(samples in a phase - 1). Far more long runs than that, or far fewer short ones (a
  // Poisson tail within the phase chance), and its ordinary pace is counted outside them: every
  // long run starts as a phase and is given back when likely at that pace. Else the pace starts
  // from its idle share over all, and only runs unlikely at it become phases (a node that waits
  // often is never told its waits were phases by a pace its phases lowered).
  const double samples = buckets * width / sample_s;
  const double phase_samples = std::ceil(kOwnPhaseMinS / sample_s - 1e-9);
  const double expected_long =
      samples * share * (1 - share) * std::pow(share, std::max(0.0, phase_samples - 1));
  const auto long_runs = static_cast<double>(std::count_if(runs.begin(), runs.end(), long_run));
  // Or far fewer short runs than its share would scatter: its idle time is its stops.
  const double expected_short =
      samples * share * (1 - share) * (1 - std::pow(share, std::max(0.0, phase_samples - 1)));
  const double short_runs = static_cast<double>(runs.size()) - long_runs;
  const bool stops_stand_out =
      long_runs > 0 && (PoissonTailAtLeast(expected_long, long_runs) <= kOwnPhaseChance ||
                        PoissonTailAtMost(expected_short, short_runs) <= kOwnPhaseChance);
  const double chance_each =
      kOwnPhaseChance / static_cast<double>(std::max<size_t>(1, runs.size()));
  auto unlikely = [&](const TimeSpan& r, double pace) {
    // A run under way goes on with the chance of one more idle sample.
    return pace <= 0 || std::pow(pace, (r.end_s - r.start_s) / sample_s - 1) <= chance_each;
  };
  for (size_t k = 0; k < runs.size(); ++k) phase[k] = stops_stand_out && long_run(runs[k]);
  for (bool moved = true; moved;) {
    moved = false;
    const double pace = pace_outside(&buckets);
    if (!(buckets > 0)) break;
    for (size_t k = 0; k < runs.size(); ++k) {
      if (!long_run(runs[k]) || phase[k] == unlikely(runs[k], pace)) continue;
      // Down from all long runs, runs are only given back; up from none, only taken out.
      if (phase[k] != stops_stand_out) continue;
      phase[k] = !phase[k];
      moved = true;
    }
  }
  // The shorter stops stand out as long ones do by their number: far fewer runs under
  // kShortOwnPhaseMinS than the node's idle share would scatter (a Poisson tail within the
  // phase chance), so its idle time is in its stops (three 90 s validations on a node sampled
  // every 30 s that never waits otherwise), with or without a long stop beside them (a final
  // evaluation raises the share, not the scattered runs: the share is the one outside them).
  const double stop_samples = std::ceil(kShortOwnPhaseMinS / sample_s - 1e-9);
  bool short_stops_stand_out = false;
  if (stop_samples >= 2) {
    // At the node's share outside the long stops found (theirs is no scattered time).
    double outside = 0;
    const double pace = pace_outside(&outside);
    const double expected_shorter =
        outside * width / sample_s * pace * (1 - pace) * (1 - std::pow(pace, stop_samples - 1));
    const auto shorter = static_cast<double>(std::count_if(runs.begin(), runs.end(), [](auto& r) {
      return r.end_s - r.start_s < kShortOwnPhaseMinS - 1e-6;
    }));
    short_stops_stand_out = shorter < static_cast<double>(runs.size()) &&
                            PoissonTailAtMost(expected_shorter, shorter) <= kOwnPhaseChance;
  }
  // Each of them a phase where, at the pace outside them all, a run that long is unlikely as
  // one of the node's runs (the loader's chance runs of a minute beside real stops are not).
  auto short_stop = [&](size_t k) {
    const double len = runs[k].end_s - runs[k].start_s;
    return !phase[k] && len >= kShortOwnPhaseMinS - 1e-6 && !long_run(runs[k]);
  };
  std::vector<size_t> short_stops;
  for (size_t k = 0; k < runs.size(); ++k)
    if (short_stop(k)) short_stops.push_back(k);
  if (short_stops_stand_out) {
    for (size_t k : short_stops) phase[k] = true;
    const double pace = pace_outside(&buckets);
    for (size_t k : short_stops) phase[k] = buckets > 0 && unlikely(runs[k], pace);
  }
  // Else a shorter stop is one where the node's pace outside its phases would make a run that
  // long anywhere in its samples with chance at most kShortOwnPhaseChance (a minute-long
  // validation on a node that otherwise seldom waits): the runs of m idle samples expected at
  // random, samples x (1 - pace) x pace^m, are that few. A tenth of the long runs' chance: the
  // node makes many more short runs than long ones, so many more chances to be wrong.
  const double pace = pace_outside(&buckets);
  for (size_t k : short_stops) {
    if (phase[k] || !(buckets > 0)) continue;
    const double len = runs[k].end_s - runs[k].start_s;
    phase[k] = samples * (1 - pace) * std::pow(pace, len / sample_s) <= kShortOwnPhaseChance;
  }
  // Phases interrupt the work; stops that fill most of the node's time are the work's own pace
  // (a node starving for its input), not phases.
  double stopped_s = 0;
  for (size_t k = 0; k < runs.size(); ++k)
    if (phase[k]) stopped_s += runs[k].end_s - runs[k].start_s;
  double span_s = 0;
  for (const auto& p : pts)
    if (p.x >= from_s && std::isfinite(p.y)) span_s += width;
  if (stopped_s > kOwnPhasesMaxShare * span_s) return phases;
  for (size_t k = 0; k < runs.size(); ++k)
    if (phase[k]) phases.push_back(runs[k]);
  return phases;
}

}  // namespace feedcheck::diagnosis
