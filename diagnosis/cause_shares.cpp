#include "diagnosis/cause_shares.h"

#include <algorithm>

namespace feedcheck::diagnosis {

namespace {

bool IsThrottle(Bottleneck b) { return IsAccountLimit(b) || b == Bottleneck::kAccountIngress; }

// The pools a class draws from, in the order it draws them.
std::vector<double*> PoolsFor(Bottleneck b, IdlePools* p) {
  if (b == Bottleneck::kNone) return {};
  // A job that storage refused lost all its idle time to it: the data never came.
  if (b == Bottleneck::kAccessFailure)
    return {&p->download_gpu_s, &p->mount_throttled_gpu_s, &p->mount_other_gpu_s,
            &p->unknown_gpu_s,  &p->after_data_gpu_s,      &p->cached_gpu_s};
  // The access mode costs the wait for the whole download, nothing else.
  if (b == Bottleneck::kAccessMode) return {&p->download_gpu_s, &p->unknown_gpu_s};
  if (IsThrottle(b)) {
    // A burst (refusals over less than half of the mount's idle time) coincided with its own
    // minutes; refusals over most of it were the mount's condition.
    double mount = p->mount_throttled_gpu_s + p->mount_other_gpu_s -
                   std::min(p->mount_unrefused_nodes_gpu_s, p->mount_other_gpu_s);
    if (p->throttle_times_known && mount > 0 && p->mount_throttled_gpu_s < 0.5 * mount)
      return {&p->download_gpu_s, &p->mount_throttled_gpu_s, &p->unknown_gpu_s};
  }
  return {&p->download_gpu_s, &p->mount_throttled_gpu_s, &p->mount_other_gpu_s, &p->unknown_gpu_s};
}

double Draw(Bottleneck b, IdlePools* pools) {
  // Throttling never draws the idle time of nodes that were not refused: it stays for others.
  const double kept =
      IsThrottle(b) ? std::clamp(pools->mount_unrefused_nodes_gpu_s, 0.0, pools->mount_other_gpu_s)
                    : 0.0;
  pools->mount_other_gpu_s -= kept;
  double got = 0;
  for (double* pool : PoolsFor(b, pools)) {
    got += *pool;
    *pool = 0;
  }
  pools->mount_other_gpu_s += kept;
  pools->mount_unrefused_nodes_gpu_s =
      std::min(IsThrottle(b) ? kept : pools->mount_unrefused_nodes_gpu_s, pools->mount_other_gpu_s);
  return got;
}

}  // namespace

std::vector<IdleNodeReadingNothing> NodesIdleReadingNothing(const std::vector<NodeRow>& rows,
                                                            double busy_percent) {
  std::vector<IdleNodeReadingNothing> out;
  if (rows.size() < 2) return out;
  for (const auto& r : rows)
    if (r.reads == 0 && r.gpu_util_mean >= 0 && r.gpu_util_mean < busy_percent &&
        r.gpu_lost_gpu_s > 0)
      out.push_back({r.node, r.gpu_lost_gpu_s, r.gpu_util_mean, r});
  // Every node idle and reading nothing is a job that never started its work, not one node.
  if (out.size() == rows.size()) out.clear();
  return out;
}

IdlePools PoolsOf(const GpuTimeLost& gpu, const FactSet& facts,
                  const std::vector<IdleNodeReadingNothing>& idle_nodes) {
  IdlePools p;
  if (!gpu.known) return p;
  if (!gpu.have_phases) {
    p.unknown_gpu_s = gpu.lost_gpu_s;
  } else {
    const Fact* thr = facts.Find("gpu.lost_throttled_gpu_s");
    double throttled =
        thr && thr->is_number() ? std::clamp(thr->number(), 0.0, gpu.mount_gpu_s) : 0.0;
    p.throttle_times_known = thr && thr->is_number();
    p.download_gpu_s = gpu.download_gpu_s;
    p.mount_throttled_gpu_s = throttled;
    p.mount_other_gpu_s = gpu.mount_gpu_s - throttled;
    const Fact* unrefused = facts.Find("gpu.lost_mount_unrefused_nodes_gpu_s");
    if (unrefused && unrefused->is_number())
      p.mount_unrefused_nodes_gpu_s = std::clamp(unrefused->number(), 0.0, p.mount_other_gpu_s);
    p.unknown_gpu_s = gpu.unknown_gpu_s;
    p.after_data_gpu_s = gpu.after_data_gpu_s;
    p.cached_gpu_s = gpu.cached_gpu_s;
  }
  auto take = [&](double* pool, double want) {
    double got = std::clamp(want, 0.0, *pool);
    *pool -= got;
    p.not_storage_gpu_s += got;
    return got;
  };
  for (const auto& n : idle_nodes) {
    double left = std::max(0.0, n.lost_gpu_s);
    // Where the node's own idle buckets fell against the job's phases.
    if (n.row.phases_known && gpu.have_phases) {
      const NodeRow& r = n.row;
      left -= take(&p.download_gpu_s, r.lost_download_gpu_s);
      left -= take(&p.mount_throttled_gpu_s, r.lost_throttled_gpu_s);
      left -= take(&p.mount_other_gpu_s, r.lost_mount_gpu_s - r.lost_throttled_gpu_s);
      left -= take(&p.cached_gpu_s, r.lost_cached_gpu_s);
      left -= take(&p.after_data_gpu_s, r.lost_after_data_gpu_s);
      left -= take(&p.unknown_gpu_s, r.lost_unknown_gpu_s);
      // A node never refused: its mount time was among the unrefused nodes'.
      if (r.lost_throttled_gpu_s <= 0)
        p.mount_unrefused_nodes_gpu_s =
            std::max(0.0, p.mount_unrefused_nodes_gpu_s - r.lost_mount_gpu_s);
    }
    // Otherwise (or what rounding left): a node that read nothing idled through the others'
    // reads (mount), else through a phase not known.
    for (double* pool : {&p.mount_other_gpu_s, &p.unknown_gpu_s, &p.mount_throttled_gpu_s,
                         &p.download_gpu_s, &p.after_data_gpu_s, &p.cached_gpu_s})
      left -= take(pool, left);
  }
  p.mount_unrefused_nodes_gpu_s = std::min(p.mount_unrefused_nodes_gpu_s, p.mount_other_gpu_s);
  return p;
}

double CoincidentGpuS(const Finding& f, const IdlePools& pools) {
  IdlePools copy = pools;
  return Draw(f.bottleneck, &copy);
}

IdlePools LeftAfter(Bottleneck symptom, IdlePools pools) {
  Draw(symptom, &pools);
  return pools;
}

double AllocateShares(const Finding* cause, std::vector<Finding>* findings, IdlePools pools) {
  double total = 0;
  auto give = [&](Finding* f) {
    f->impact_gpu_s = Draw(f->bottleneck, &pools);
    total += f->impact_gpu_s;
  };
  for (auto& f : *findings)
    if (cause && f.rule_id == cause->rule_id && f.bottleneck == cause->bottleneck) give(&f);
  for (auto& f : *findings) {
    if (cause && f.rule_id == cause->rule_id && f.bottleneck == cause->bottleneck) continue;
    if (!f.secondary && f.bottleneck != Bottleneck::kNone) give(&f);
  }
  for (auto& f : *findings) {
    if (!f.secondary || f.bottleneck == Bottleneck::kNone) continue;
    if (f.secondary_note.rfind("cost ", 0) == 0)
      give(&f);
    else
      f.impact_gpu_s = 0;
  }
  return total;
}

}  // namespace feedcheck::diagnosis
