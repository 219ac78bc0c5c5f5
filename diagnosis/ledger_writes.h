// When a job that writes through storage was writing, from the account's Ingress: its bursts
// above the account's quiet minutes (a checkpoint), and only where they held the job's GPUs (a
// checkpoint stops training; a burst the GPUs worked through was another client's). Used by the
// idle ledger's placer (diagnosis/ledger_placer); nothing else.
#pragma once

#include "analyzers/series_at.h"
#include "core/evidence.h"

namespace feedcheck::diagnosis::ledger {

class IngressBursts {
 public:
  /// `ingress`: the account's Ingress (metrics.ingress_gbps); `job_writes`: the job's definition
  /// writes through storage; `lost`, `sampled`: the job's GPU-seconds lost and sampled per
  /// bucket (gpu.lost_gpu_s_by_time, gpu.sampled_gpu_s_by_time). Any may be null.
  IngressBursts(const Series* ingress, bool job_writes, const Series* lost, const Series* sampled);

  /// The metric is there to say when the job wrote.
  bool present() const { return ingress_.present(); }
  /// A burst at t: Ingress above the quiet minutes (its 10th percentile) by 1 Gbit/s and by a
  /// quarter of the peak's excess, for a job that writes, where the bursts held its GPUs.
  bool Writing(double t) const;
  /// t lies in a minute above the quiet ones (by any amount) next to a burst: a checkpoint's
  /// first or last minute, which carries only part of its bytes.
  bool AtEdge(double t) const;
  /// The bursts held the job's GPUs: they idled in the burst minutes beyond their pace outside
  /// them, by a tenth of the time they worked outside (true with nothing to compare).
  bool HoldGpus() const { return hold_gpus_; }

 private:
  bool Above(double t, double share) const;
  bool HeldGpus(const Series* lost, const Series* sampled) const;

  analyzers::SeriesAt ingress_;
  bool job_writes_ = false;
  bool hold_gpus_ = true;
};

}  // namespace feedcheck::diagnosis::ledger
