#include "analyzers/gpu_phases.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "analyzers/series_at.h"
#include "analyzers/text_util.h"

namespace feedcheck::analyzers {

namespace {

struct Span {
  double start, end;
};

// Storage refusals are logged per request and the metrics per minute, while the GPUs recover a
// sample or two after the last refusal: a throttling interval covers this much more each side.
constexpr double kThrottlePadS = 60;
// A mount minute in which the account served less than this (and refused nothing) served the
// job from the mount's cache: under 2% of the job's peak egress, or 10 Mbit/s.
constexpr double kCachedEgressShare = 0.02;
constexpr double kCachedEgressFloorGbps = 0.01;
// Egress at this share of the account's limit or more is at the limit.
constexpr double kEgressAtLimitShare = 0.9;

bool Inside(const std::vector<Span>& spans, double t) {
  return std::any_of(spans.begin(), spans.end(),
                     [&](const Span& s) { return t >= s.start && t < s.end; });
}

}  // namespace

double CachedEgressBelowGbps(const Series* egress, double egress_limit_gbps) {
  if (!egress) return kCachedEgressFloorGbps;
  double peak = 0, below_limit = 0;
  for (const auto& p : egress->points) {
    if (!std::isfinite(p.y)) continue;
    peak = std::max(peak, p.y);
    if (!(egress_limit_gbps > 0 && p.y >= kEgressAtLimitShare * egress_limit_gbps))
      below_limit = std::max(below_limit, p.y);
  }
  return std::max(kCachedEgressFloorGbps,
                  kCachedEgressShare * (below_limit > 0 ? below_limit : peak));
}

std::optional<GpuPhaseSplit> SplitGpuTimeByPhase(const Evidence& ev) {
  const Series* lost = ev.FindSeries("gpu.lost_gpu_s_by_time");
  if (!lost) return std::nullopt;
  std::vector<Span> downloads;
  std::optional<double> first_data, mount_start, upload_start;
  for (const auto& iv : ev.timeline) {
    if (iv.lane != "data-runtime") continue;
    bool download = IContains(iv.label, "download");
    bool mount = !download && IContains(iv.label, "mount");
    bool upload = IContains(iv.label, "upload");
    if (download && iv.end_epoch_s > iv.start_epoch_s)
      downloads.push_back({iv.start_epoch_s, iv.end_epoch_s});
    if (mount && (!mount_start || iv.start_epoch_s < *mount_start)) mount_start = iv.start_epoch_s;
    if (upload && (!upload_start || iv.start_epoch_s < *upload_start))
      upload_start = iv.start_epoch_s;
    if ((download || mount) && (!first_data || iv.start_epoch_s < *first_data))
      first_data = iv.start_epoch_s;
  }
  std::vector<Span> throttled;
  for (const auto& iv : ev.timeline)
    if (iv.lane == "storage" && iv.end_epoch_s >= iv.start_epoch_s)
      throttled.push_back({iv.start_epoch_s - kThrottlePadS, iv.end_epoch_s + kThrottlePadS});
  // Merged from several files out of order, the series is not read per minute (SeriesAt).
  SeriesAt egress(ev.FindSeries("metrics.egress_gbps"));
  const double cached_below_gbps = CachedEgressBelowGbps(
      ev.FindSeries("metrics.egress_gbps"), ev.facts.Number("account.egress_gbps").value_or(0));
  GpuPhaseSplit split;
  split.have_phases = !downloads.empty() || mount_start.has_value();
  split.have_throttle_times = !throttled.empty();
  double last_download_end = 0;
  for (const auto& d : downloads) last_download_end = std::max(last_download_end, d.end);
  // Wall-clock length of the downloads, overlaps merged.
  std::vector<Span> merged = downloads;
  std::sort(merged.begin(), merged.end(),
            [](const Span& a, const Span& b) { return a.start < b.start; });
  double covered_until = -1e300;
  for (const auto& d : merged) {
    double from = std::max(d.start, covered_until);
    if (d.end > from) split.download_wall_s += d.end - from;
    covered_until = std::max(covered_until, d.end);
  }
  double width = lost->points.size() >= 2 ? lost->points[1].x - lost->points[0].x : 10;
  for (size_t i = 1; i < lost->points.size(); ++i)
    width = std::min(width, lost->points[i].x - lost->points[i - 1].x);
  if (width <= 0) width = 10;
  for (const auto& p : lost->points) {
    if (p.y <= 0) continue;
    double mid = p.x + width / 2;
    if (!split.have_phases || !first_data || mid < *first_data) {
      split.unknown_gpu_s += p.y;
    } else if (Inside(downloads, mid)) {
      split.download_gpu_s += p.y;
    } else if (mount_start && mid >= *mount_start && (!upload_start || mid < *upload_start)) {
      bool refused = Inside(throttled, mid);
      auto served = egress(mid);
      if (!refused && served && *served < cached_below_gbps) {
        split.cached_gpu_s += p.y;
      } else {
        split.mount_gpu_s += p.y;
        if (refused) split.throttled_gpu_s += p.y;
      }
    } else if ((!downloads.empty() && mid >= last_download_end) ||
               (upload_start && mid >= *upload_start)) {
      split.after_data_gpu_s += p.y;
    } else {
      split.unknown_gpu_s += p.y;  // between two downloads, or before the mount
    }
  }
  return split;
}

std::vector<std::string> AddGpuPhaseFacts(Evidence* ev) {
  std::vector<std::string> keys;
  auto split = SplitGpuTimeByPhase(*ev);
  if (!split) return keys;
  const Fact* lost_fact = ev->facts.Find("gpu.lost_gpu_s");
  Provenance p{FactOrigin::kDerived, "GPU time lost joined with the data-runtime activities", "",
               0};
  if (lost_fact) p.file = lost_fact->provenance.file;
  auto set = [&](std::string key, double v) {
    keys.push_back(key);
    ev->facts.Set(NumberFact(std::move(key), v, Unit::kSeconds, p));
  };
  if (split->have_phases) {
    set("gpu.lost_download_gpu_s", split->download_gpu_s);
    set("gpu.lost_mount_gpu_s", split->mount_gpu_s);
    set("gpu.lost_cached_gpu_s", split->cached_gpu_s);
    if (split->have_throttle_times) set("gpu.lost_throttled_gpu_s", split->throttled_gpu_s);
    set("gpu.lost_after_data_gpu_s", split->after_data_gpu_s);
  }
  set("gpu.lost_unknown_gpu_s", split->unknown_gpu_s);
  const Fact* count = ev->facts.Find("gpu.count");
  if (split->have_phases && count && count->is_number() && count->number() > 0)
    set("gpu.idle_download_s", split->download_gpu_s / count->number());
  return keys;
}

}  // namespace feedcheck::analyzers
