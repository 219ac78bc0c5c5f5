#include "probes/concurrency_sweep.h"

#include <algorithm>
#include <cmath>

namespace feedcheck {

std::vector<double> IntervalGbps(const std::vector<SeriesPoint>& samples, double interval_s) {
  std::vector<double> out;
  if (samples.size() < 2 || !(interval_s > 0)) return out;
  size_t start = 0;
  for (size_t i = 1; i < samples.size(); ++i) {
    double dt = samples[i].x - samples[start].x;
    if (dt < interval_s) continue;
    out.push_back((samples[i].y - samples[start].y) * 8 / dt / 1e9);
    start = i;
  }
  double tail_s = samples.back().x - samples[start].x;
  if (start + 1 < samples.size() && tail_s >= interval_s / 2)
    out.push_back((samples.back().y - samples[start].y) * 8 / tail_s / 1e9);
  return out;
}

double NoiseBandGbps(const std::vector<double>& v) {
  if (v.size() < 2) return 0;
  double mean = 0;
  for (double x : v) mean += x;
  mean /= static_cast<double>(v.size());
  double ss = 0;
  for (double x : v) ss += (x - mean) * (x - mean);
  double sd = std::sqrt(ss / static_cast<double>(v.size() - 1));
  return 2 * sd / std::sqrt(static_cast<double>(v.size()));
}

namespace {

// Outside the noise means the two bands do not overlap: their sum, not the (narrower) band of
// the difference, so a sweep calls a gain real only at about 3 standard errors.
double CombinedBand(const StepRate& a, const StepRate& b) { return a.noise_gbps + b.noise_gbps; }

}  // namespace

StepGain CompareSteps(const StepRate& lower, const StepRate& higher, double min_gain) {
  double diff = higher.gbps - lower.gbps;
  double band = CombinedBand(lower, higher);
  if (diff > band && diff >= min_gain * lower.gbps) return StepGain::kGained;
  if (-diff > band && -diff >= min_gain * lower.gbps) return StepGain::kLost;
  return StepGain::kWithin;
}

RunMerge MergeRuns(const StepRate& first, const StepRate& second, double min_gain) {
  switch (CompareSteps(first, second, min_gain)) {
    case StepGain::kGained:
      return RunMerge::kKeepSecond;
    case StepGain::kLost:
      return RunMerge::kKeepFirst;
    case StepGain::kWithin:
      break;
  }
  return RunMerge::kPool;
}

bool MiddleFellShort(const StepRate& middle, const StepRate& upper, double min_gain) {
  return CompareSteps(middle, upper, min_gain) == StepGain::kGained;
}

size_t KneeOf(const std::vector<StepRate>& steps, double min_gain) {
  if (steps.empty()) return 0;
  size_t best = 0;
  for (size_t i = 1; i < steps.size(); ++i)
    if (steps[i].gbps > steps[best].gbps) best = i;
  for (size_t i = 0; i < best; ++i) {
    double shortfall = steps[best].gbps - steps[i].gbps;
    if (shortfall <= std::max(CombinedBand(steps[i], steps[best]), min_gain * steps[best].gbps))
      return i;
  }
  return best;
}

}  // namespace feedcheck
