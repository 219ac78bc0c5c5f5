#include "diagnosis/ledger_writes.h"

#include <cmath>

namespace feedcheck::diagnosis::ledger {

namespace {

// The job wrote in a minute whose Ingress stood above the quiet minutes by at least this share
// of the peak's excess, and by at least 1 Gbit/s (a log file's trickle is not a checkpoint).
constexpr double kWritingIngressShare = 0.25;
constexpr double kWritingIngressFloorGbps = 1.0;
// Ingress bursts are the job's writes when its GPUs idled in them beyond their pace outside, by
// at least this share of the time they worked outside (a checkpoint of seconds stops a
// fraction of its minute).
constexpr double kBurstHoldsShare = 0.1;

}  // namespace

IngressBursts::IngressBursts(const Series* ingress, bool job_writes, const Series* lost,
                             const Series* sampled)
    : ingress_(ingress), job_writes_(job_writes) {
  hold_gpus_ = HeldGpus(lost, sampled);
}

bool IngressBursts::Writing(double t) const {
  // Above the quiet minutes, not the median: a job that checkpoints most of the time would
  // hide in it.
  return job_writes_ && hold_gpus_ && Above(t, kWritingIngressShare);
}

bool IngressBursts::AtEdge(double t) const {
  if (!job_writes_ || !ingress_.present() || !hold_gpus_) return false;
  const double w = ingress_.width();
  return Above(t, 0) && (Above(t - w, kWritingIngressShare) || Above(t + w, kWritingIngressShare));
}

bool IngressBursts::Above(double t, double share) const {
  auto in = ingress_(t);
  const double base = ingress_.tenth_percentile();
  return in && *in - base >= kWritingIngressFloorGbps &&
         *in - base >= share * (ingress_.peak() - base);
}

bool IngressBursts::HeldGpus(const Series* lost, const Series* sampled) const {
  if (!job_writes_ || !ingress_.present() || !lost || !sampled ||
      lost->points.size() != sampled->points.size())
    return true;
  double width = 0;
  for (size_t i = 1; i < lost->points.size(); ++i) {
    const double w = lost->points[i].x - lost->points[i - 1].x;
    if (w > 0 && (width == 0 || w < width)) width = w;
  }
  double in_lost = 0, in_sampled = 0, out_lost = 0, out_sampled = 0;
  for (size_t i = 0; i < lost->points.size(); ++i) {
    const double l = lost->points[i].y, s = sampled->points[i].y;
    if (!std::isfinite(l) || !std::isfinite(s) || !(s > 0)) continue;
    const bool burst = Above(lost->points[i].x + width / 2, kWritingIngressShare);
    (burst ? in_lost : out_lost) += l;
    (burst ? in_sampled : out_sampled) += s;
  }
  if (!(in_sampled > 0) || !(out_sampled > 0)) return true;
  const double in_idle = in_lost / in_sampled, out_idle = out_lost / out_sampled;
  return in_idle - out_idle >= kBurstHoldsShare * (1 - out_idle);
}

}  // namespace feedcheck::diagnosis::ledger
