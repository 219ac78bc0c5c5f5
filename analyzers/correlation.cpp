#include "analyzers/correlation.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "analyzers/gpu_phases.h"
#include "analyzers/text_util.h"

namespace feedcheck::analyzers {

std::optional<double> MeanWithin(const Series& series, double start, double end) {
  double sum = 0;
  size_t n = 0;
  for (const auto& p : series.points) {
    if (p.x >= start && p.x <= end) {
      sum += p.y;
      ++n;
    }
  }
  if (n == 0) return std::nullopt;
  return sum / static_cast<double>(n);
}

namespace {

struct Window {
  double start, end;
  std::string source;
};

// Weighted mean of `series` inside the windows, and outside them after the first window ends.
struct InsideOutside {
  double inside_sum = 0, after_sum = 0;
  size_t inside_n = 0, after_n = 0;
};

InsideOutside Split(const Series& s, const std::vector<Window>& windows) {
  InsideOutside r;
  double last_end = 0;
  for (const auto& w : windows) last_end = std::max(last_end, w.end);
  for (const auto& p : s.points) {
    bool inside = std::any_of(windows.begin(), windows.end(),
                              [&](const Window& w) { return p.x >= w.start && p.x <= w.end; });
    if (inside) {
      r.inside_sum += p.y;
      ++r.inside_n;
    } else if (p.x > last_end) {
      r.after_sum += p.y;
      ++r.after_n;
    }
  }
  return r;
}

}  // namespace

std::vector<std::string> Correlate(const CorrelationInputs& in, Evidence* ev) {
  std::vector<std::string> keys;
  auto set = [&](Fact f) {
    keys.push_back(f.key);
    ev->facts.Set(std::move(f));
  };
  std::stable_sort(ev->timeline.begin(), ev->timeline.end(),
                   [](const TimelineInterval& a, const TimelineInterval& b) {
                     if (a.start_epoch_s != b.start_epoch_s)
                       return a.start_epoch_s < b.start_epoch_s;
                     return a.lane < b.lane;
                   });
  std::vector<Window> downloads;
  std::optional<double> job_start;
  for (const auto& iv : ev->timeline) {
    if (iv.lane != "data-runtime") continue;
    if (!job_start || iv.start_epoch_s < *job_start) job_start = iv.start_epoch_s;
    if (IContains(iv.label, "download") && iv.end_epoch_s > iv.start_epoch_s)
      downloads.push_back({iv.start_epoch_s, iv.end_epoch_s, iv.source});
  }
  Provenance prov{FactOrigin::kDerived, "", "", 0};
  if (!downloads.empty())
    prov.source = fmt::format("GPU samples joined with download activity ({})",
                              std::filesystem::path(downloads.front().source).filename().string());

  if (const Series* gpu = ev->FindSeries("gpu.util"); gpu && !downloads.empty()) {
    InsideOutside r = Split(*gpu, downloads);
    if (r.inside_n > 0)
      set(NumberFact("gpu.util_during_download", r.inside_sum / static_cast<double>(r.inside_n),
                     Unit::kPercent, prov));
    if (r.after_n > 0)
      set(NumberFact("gpu.util_after_download", r.after_sum / static_cast<double>(r.after_n),
                     Unit::kPercent, prov));
  }
  if (const Series* egress = ev->FindSeries("metrics.egress_gbps"); egress && !downloads.empty()) {
    // Metric buckets are a minute wide: count a bucket when it overlaps the window at all.
    std::vector<Window> widened = downloads;
    for (auto& w : widened) w.start -= 60;
    InsideOutside r = Split(*egress, widened);
    Provenance p = prov;
    p.source = "account Egress metric joined with download activity";
    if (r.inside_n > 0)
      set(NumberFact("metrics.egress_gbps_during_download",
                     r.inside_sum / static_cast<double>(r.inside_n), Unit::kGbps, p));
  }
  if (const Series* thr = ev->FindSeries("metrics.throttled_per_s"); thr && !downloads.empty()) {
    std::vector<Window> widened = downloads;
    for (auto& w : widened) w.start -= 60;
    InsideOutside r = Split(*thr, widened);
    Provenance p = prov;
    p.source = "Transactions by ResponseType joined with download activity";
    if (r.inside_n > 0)
      set(NumberFact("metrics.throttled_per_s_during_download",
                     r.inside_sum / static_cast<double>(r.inside_n), Unit::kPerSecond, p));
  }
  // How long the GPUs waited: from the job's first activity (or first GPU sample) to the first
  // busy sample.
  if (in.first_gpu_busy_epoch_s) {
    double start = in.first_gpu_sample_epoch_s.value_or(*in.first_gpu_busy_epoch_s);
    std::string from = "first GPU sample";
    if (job_start && *job_start < start) {
      start = *job_start;
      from = "first data-runtime activity";
    }
    Provenance p{FactOrigin::kDerived,
                 fmt::format("{} -> first sample >= {}% ({})", from,
                             FormatNumber(in.gpu_busy_threshold_percent),
                             std::filesystem::path(in.first_gpu_busy_source).filename().string()),
                 "", 0};
    set(NumberFact("gpu.first_busy_s", std::max(0.0, *in.first_gpu_busy_epoch_s - start),
                   Unit::kSeconds, p));
  }
  for (auto& k : AddGpuPhaseFacts(ev)) keys.push_back(std::move(k));
  return keys;
}

}  // namespace feedcheck::analyzers
