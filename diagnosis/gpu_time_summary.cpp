#include "diagnosis/gpu_time_summary.h"

#include "core/gpu_time_text.h"
#include "core/whole_number.h"

namespace feedcheck::diagnosis {

GpuTimeLost SummarizeGpuTime(const FactSet& facts) {
  GpuTimeLost g;
  const Fact* lost = facts.Find("gpu.lost_gpu_s");
  if (!lost || !lost->is_number()) return g;
  g.known = true;
  g.gpus = WholeNumber<int>(facts.NumberOr("gpu.count", 1)).value_or(1);
  g.lost_gpu_s = lost->number();
  g.sampled_gpu_s = facts.NumberOr("gpu.sampled_gpu_s", 0);
  g.idle_s = facts.NumberOr("gpu.idle_s", 0);
  g.span_s = facts.NumberOr("gpu.span_s", 0);
  g.idle_fraction = facts.NumberOr("gpu.idle_fraction", 0);
  return g;
}

std::string FormatGpuTime(double gpu_s) { return GpuTimeText(gpu_s); }

}  // namespace feedcheck::diagnosis
