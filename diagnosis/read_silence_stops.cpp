#include "diagnosis/read_silence_stops.h"

#include <algorithm>
#include <cmath>

namespace feedcheck::diagnosis {

namespace {

// A bucket that lost under this share of its GPU time holds a sliver of a sample: one GPU idle
// for a tenth of the bucket is more.
constexpr double kSliverShare = 0.01;

}  // namespace

std::vector<TimeSpan> ReadSilenceStops(const Series& lost, double gpus, double sample_interval_s,
                                       double from_s, NodeReads reads) {
  const auto& silences = reads.silences;
  const auto& fence_s = reads.fence_s;
  const auto& last_read_s = reads.last_read_s;
  const double samples_end_s = reads.samples_end_s;
  std::vector<TimeSpan> stops;
  const auto& pts = lost.points;
  if (!(gpus > 0) || pts.size() < 2) return stops;
  double width = 0;
  for (size_t i = 1; i < pts.size(); ++i) {
    const double w = pts[i].x - pts[i - 1].x;
    if (w > 0 && (width == 0 || w < width)) width = w;
  }
  if (!(width > 0)) return stops;
  const double full = gpus * width;
  auto stopped = [&](const SeriesPoint& p) { return p.x >= from_s && WholeStop(p.y, full); };
  auto in = [&](const SeriesPoint& p, const TimeSpan& s) {
    const double mid = p.x + width / 2;  // a bucket straddling an edge by under half counts in
    return mid >= s.start_s && mid <= s.end_s;
  };
  // The buckets in time order (as the ledger keeps them): each silence looks only at its own,
  // so a log of thousands of silences costs no more than one pass each over theirs.
  const bool sorted = std::is_sorted(pts.begin(), pts.end(),
                                     [](const auto& a, const auto& b) { return a.x < b.x; });
  // The runs of whole stops whose buckets lie in `s`, and the time they cover.
  auto stops_in = [&](const TimeSpan& s, double* covered) {
    std::vector<TimeSpan> runs;
    *covered = 0;
    auto from = pts.begin();
    if (sorted)
      from = std::lower_bound(pts.begin(), pts.end(), s.start_s - width,
                              [](const SeriesPoint& p, double x) { return p.x < x; });
    for (auto it = from; it != pts.end(); ++it) {
      const SeriesPoint& p = *it;
      if (sorted && p.x > s.end_s) break;
      if (!in(p, s) || !stopped(p)) continue;
      if (!runs.empty() && p.x <= runs.back().end_s + width * 1e-9)
        runs.back().end_s = p.x + width;
      else
        runs.push_back({p.x, p.x + width});
      *covered += width;
    }
    return runs;
  };
  // Between two reads: the reads went on after it, so no cache held the input then. The stop
  // is one run (the node's scattered waits at the silence's edges are not part of it).
  for (const auto& s : silences) {
    double covered = 0;
    auto runs = stops_in(s, &covered);
    if (runs.empty()) continue;
    const auto longest = std::max_element(
        runs.begin(), runs.end(),
        [](const auto& a, const auto& b) { return a.end_s - a.start_s < b.end_s - b.start_s; });
    // Or nearly all of it at the samples' grain: a stop shows as the samples wholly inside it,
    // and one sample each side may be only partly idle (a 110 s validation holds one whole
    // sample of a minute).
    const double run_s = longest->end_s - longest->start_s;
    const double silence_s = s.end_s - s.start_s;
    const double sample_s = std::max(width, sample_interval_s);
    if (run_s >= kSilenceStoppedShare * silence_s || silence_s <= run_s + 2 * sample_s)
      stops.push_back(*longest);
  }
  // From the last read to the end of the samples: the job stopped reading for good, perhaps
  // because its cache held all of its input and served the rest at the loader's pace. A stop
  // then idles every sample of it, which that pace (no slower than the node's while it read)
  // makes unlikely.
  if (!fence_s || !last_read_s || !std::isfinite(samples_end_s) ||
      !(samples_end_s - *last_read_s > *fence_s))
    return stops;
  const TimeSpan last{*last_read_s, samples_end_s};
  double idle = 0, buckets = 0, in_last = 0, stopped_in_last = 0;
  for (const auto& p : pts) {
    if (p.x < from_s || !std::isfinite(p.y)) continue;
    if (in(p, last)) {
      // A bucket a sample reaches into by a sliver (its time stamp a few ms past the grid)
      // holds a sliver of its loss: neither a stop nor work.
      if (p.y > 0 && p.y < kSliverShare * full) continue;
      in_last += 1;
      stopped_in_last += stopped(p) ? 1 : 0;
    } else if (p.x < last.start_s) {
      idle += std::clamp(p.y / full, 0.0, 1.0);
      buckets += 1;
    }
  }
  if (!(buckets > 0) || !(in_last > 0)) return stops;
  if (stopped_in_last == in_last) {
    const double samples = in_last * width / std::max(width, sample_interval_s);
    if (!reads.cache_may_hold_input || std::pow(idle / buckets, samples) <= kOwnPhaseChance) {
      double covered = 0;
      auto runs = stops_in(last, &covered);
      stops.insert(stops.end(), runs.begin(), runs.end());
    }
    return stops;
  }
  // Fed from the cache, the node has a pace of its own (its loader's): its stops then stand
  // out from that pace, not from the one it had while it read.
  Series tail;
  for (const auto& p : pts)
    if (in(p, last)) tail.points.push_back(p);
  for (const auto& p : OwnPhases(tail, gpus, sample_interval_s, from_s)) stops.push_back(p);
  return stops;
}

}  // namespace feedcheck::diagnosis
