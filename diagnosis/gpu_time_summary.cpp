#include "diagnosis/gpu_time_summary.h"

#include <fmt/format.h>

#include <cmath>
#include <utility>
#include <vector>

#include "core/gpu_time_text.h"
#include "core/units.h"
#include "core/whole_number.h"

namespace feedcheck::diagnosis {

namespace {

double Number(const FactSet& facts, const char* key, double fallback = 0) {
  const Fact* f = facts.Find(key);
  return f && f->is_number() ? f->number() : fallback;
}

std::string Percent(double fraction) {
  double p = fraction * 100;
  return p < 1 && p > 0 ? fmt::format("{:.1f}%", p) : fmt::format("{:.0f}%", p);
}

}  // namespace

GpuTimeLost SummarizeGpuTime(const FactSet& facts) {
  GpuTimeLost g;
  const Fact* lost = facts.Find("gpu.lost_gpu_s");
  if (!lost || !lost->is_number()) return g;
  g.known = true;
  g.gpus = WholeNumber<int>(Number(facts, "gpu.count", 1)).value_or(1);
  g.lost_gpu_s = lost->number();
  g.sampled_gpu_s = Number(facts, "gpu.sampled_gpu_s");
  g.idle_s = Number(facts, "gpu.idle_s");
  g.span_s = Number(facts, "gpu.span_s");
  g.idle_fraction = Number(facts, "gpu.idle_fraction");
  g.have_phases = facts.Find("gpu.lost_download_gpu_s") != nullptr;
  g.download_gpu_s = Number(facts, "gpu.lost_download_gpu_s");
  g.mount_gpu_s = Number(facts, "gpu.lost_mount_gpu_s");
  g.cached_gpu_s = Number(facts, "gpu.lost_cached_gpu_s");
  g.after_data_gpu_s = Number(facts, "gpu.lost_after_data_gpu_s");
  g.unknown_gpu_s = Number(facts, "gpu.lost_unknown_gpu_s", g.have_phases ? 0 : g.lost_gpu_s);
  g.headline = GpuHeadline(g);
  return g;
}

std::string FormatGpuTime(double gpu_s) { return GpuTimeText(gpu_s); }

double DataPhaseLostGpuS(const GpuTimeLost& gpu) {
  if (!gpu.have_phases) return gpu.lost_gpu_s;
  return gpu.download_gpu_s + gpu.mount_gpu_s;
}

std::string GpuHeadline(const GpuTimeLost& g) {
  if (!g.known) return "";
  std::string head =
      fmt::format("GPUs idle {} of {} ({}), {}", FormatSeconds(g.idle_s), FormatSeconds(g.span_s),
                  Percent(g.idle_fraction), FormatGpuTime(g.lost_gpu_s));
  if (g.lost_gpu_s <= 0) return head;
  if (!g.have_phases)
    return head + ": when, unknown (no data-capability.log to tell the data phase from the rest)";
  std::vector<std::pair<double, const char*>> parts = {
      {g.download_gpu_s, "while the download ran"},
      {g.mount_gpu_s, "during the mount's reads"},
      {g.cached_gpu_s, "while the mount served from its cache (storage idle)"},
      {g.after_data_gpu_s, "after the data phase (the job's own code)"},
      {g.unknown_gpu_s, "before the data runtime started"},
  };
  for (const auto& [v, what] : parts)
    if (v >= 0.95 * g.lost_gpu_s) return fmt::format("{}: all of it {}", head, what);
  std::string split;
  for (const auto& [v, what] : parts) {
    if (v <= 0.005 * g.lost_gpu_s) continue;
    split += fmt::format("{}{} {}", split.empty() ? "" : ", ", Percent(v / g.lost_gpu_s), what);
  }
  return fmt::format("{}: {}", head, split);
}

}  // namespace feedcheck::diagnosis
