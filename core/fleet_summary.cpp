#include "core/fleet_summary.h"

#include <algorithm>
#include <functional>
#include <numeric>

namespace feedcheck {
namespace {

// Places of each job when sorted by `less` (stable: folder order breaks ties).
std::vector<int> Ranks(size_t n, const std::function<bool(size_t, size_t)>& less) {
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), less);
  std::vector<int> rank(n);
  for (size_t place = 0; place < n; ++place) rank[order[place]] = static_cast<int>(place);
  return rank;
}

}  // namespace

void SetFleetOrders(FleetSummary* f) {
  const auto& jobs = f->jobs;
  const size_t n = jobs.size();
  // Numbers ascending, unknown (< 0) last whichever way the table is read.
  auto by_number = [&](double FleetJob::*field) {
    return Ranks(n, [&, field](size_t a, size_t b) {
      double x = jobs[a].*field, y = jobs[b].*field;
      if ((x < 0) != (y < 0)) return y < 0;
      return x < y;
    });
  };
  auto by_int = [&](int FleetJob::*field) {
    return Ranks(n, [&, field](size_t a, size_t b) {
      int x = jobs[a].*field, y = jobs[b].*field;
      if ((x < 0) != (y < 0)) return y < 0;
      return x < y;
    });
  };
  auto by_text = [&](std::string FleetJob::*field) {
    return Ranks(n, [&, field](size_t a, size_t b) { return jobs[a].*field < jobs[b].*field; });
  };
  f->sort_columns = {{"job", by_text(&FleetJob::job)},
                     {"nodes", by_int(&FleetJob::nodes)},
                     {"gpus", by_int(&FleetJob::gpus)},
                     {"duration_s", by_number(&FleetJob::duration_s)},
                     {"gpu_lost_gpu_s", by_number(&FleetJob::gpu_lost_gpu_s)},
                     {"cause", by_text(&FleetJob::cause)},
                     {"confidence", by_text(&FleetJob::confidence)},
                     {"won_back_gpu_s", by_number(&FleetJob::won_back_gpu_s)},
                     {"loader_wait_fraction", by_number(&FleetJob::loader_wait_fraction)}};
  f->by_gpu_lost.resize(n);
  std::iota(f->by_gpu_lost.begin(), f->by_gpu_lost.end(), 0);
  std::stable_sort(f->by_gpu_lost.begin(), f->by_gpu_lost.end(), [&](size_t a, size_t b) {
    const FleetJob& x = jobs[a];
    const FleetJob& y = jobs[b];
    if (x.diagnosed != y.diagnosed) return x.diagnosed;
    if ((x.gpu_lost_gpu_s < 0) != (y.gpu_lost_gpu_s < 0)) return y.gpu_lost_gpu_s < 0;
    return x.gpu_lost_gpu_s > y.gpu_lost_gpu_s;
  });
}

std::string CauseKind(const std::string& cause) {
  if (cause == "none found" || cause == "not storage" || cause == kFleetOtherIdle ||
      cause == "own code" || cause == "the job's own phases")
    return "not storage";
  if (cause == "inconclusive" || cause == "unknown" || cause.empty()) return "unknown";
  return "storage";
}

StorageSplit SplitByStorage(const FleetSummary& f) {
  StorageSplit split;
  for (const auto& c : f.causes) {
    const std::string kind = CauseKind(c.cause);
    double* to = kind == "storage"       ? &split.storage_gpu_s
                 : kind == "not storage" ? &split.not_storage_gpu_s
                                         : &split.unknown_gpu_s;
    *to += c.gpu_lost_gpu_s;
    if (kind == "storage" && c.gpu_lost_gpu_s > split.top_storage_gpu_s) {
      split.top_storage_cause = c.cause;
      split.top_storage_jobs = c.jobs;
      split.top_storage_gpu_s = c.gpu_lost_gpu_s;
    }
  }
  return split;
}

}  // namespace feedcheck
