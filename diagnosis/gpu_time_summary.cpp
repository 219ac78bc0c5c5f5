#include "diagnosis/gpu_time_summary.h"

#include "core/gpu_time_text.h"
#include "core/whole_number.h"

namespace feedcheck::diagnosis {

namespace {

double Number(const FactSet& facts, const char* key, double fallback = 0) {
  const Fact* f = facts.Find(key);
  return f && f->is_number() ? f->number() : fallback;
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
  return g;
}

std::string FormatGpuTime(double gpu_s) { return GpuTimeText(gpu_s); }

}  // namespace feedcheck::diagnosis
