// Small made-up jobs for the ledger's tests (the placer's rules, the mount cache's): minutes of
// a series from a fixed start, timeline intervals in minutes, a mount, an 8-GPU mount with its
// reads, a job that writes, a mount past half its cache.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/evidence.h"
#include "diagnosis/idle_ledger.h"

namespace feedcheck::diagnosis::ledger_test {

inline constexpr double kStart = 1.7e9;
inline constexpr double kMinute = 60;

inline Series Minutes(const std::string& key, const std::vector<double>& values) {
  Series s;
  s.key = key;
  for (size_t i = 0; i < values.size(); ++i)
    s.points.push_back({kStart + kMinute * static_cast<double>(i), values[i]});
  return s;
}

inline TimelineInterval Interval(const std::string& lane, const std::string& label, double from_min,
                                 double to_min, const std::string& status) {
  TimelineInterval iv;
  iv.lane = lane;
  iv.label = label;
  iv.start_epoch_s = kStart + kMinute * from_min;
  iv.end_epoch_s = kStart + kMinute * to_min;
  iv.status = status;
  return iv;
}

// A mount of `minutes` minutes whose GPUs lost 100 GPU-s every minute (never a whole stop: no
// GPU count is given, so no stop is looked for).
inline Evidence Mount(int minutes) {
  Evidence job;
  job.series.push_back(Minutes("gpu.lost_gpu_s_by_time", std::vector<double>(minutes, 100)));
  job.timeline.push_back(Interval("data-runtime", "mount", -0.1, 0, "Success"));
  return job;
}

// A mount on a node of 8 GPUs that lost `lost[i]` GPU-s in minute i, its log's read spans
// closing from minute `reads_from` to `reads_to` (one span: they closed every half minute).
inline Evidence EightGpuMount(const std::vector<double>& lost, double reads_from, double reads_to) {
  Evidence job;
  job.series.push_back(Minutes("gpu.lost_gpu_s_by_time", lost));
  job.timeline.push_back(Interval("data-runtime", "mount", -0.1, 0, "Success"));
  job.timeline.push_back(Interval("reads", "span closes", reads_from, reads_to, "rslex"));
  job.facts.Set(NumberFact("gpu.count", 8, Unit::kCount, Provenance{}));
  return job;
}

// Node `name` of a multi-node mount: its own GPU series (100 GPU-s lost every minute for
// `minutes`), its mount activity, which also goes on the job's timeline under its name.
inline analyzers::NodeEvidence MountNode(Evidence* job, const std::string& name, int minutes) {
  Series lost = Minutes("gpu.lost_gpu_s_by_time", std::vector<double>(minutes, 100));
  lost.node = name;
  TimelineInterval mount = Interval("data-runtime", "mount", -0.1, 0, "Success");
  mount.node = name;
  job->timeline.push_back(mount);
  analyzers::NodeEvidence n;
  n.node = name;
  n.evidence.series.push_back(lost);
  n.evidence.timeline.push_back(mount);
  return n;
}

inline double PlacedIn(const IdleLedger& ledger, IdleState s) { return ledger.Of(s); }

// A job that writes through storage (a checkpoint) on an account of 100 Gbit/s egress and
// 60 Gbit/s ingress, its mount served fast.
inline LedgerJudgement WritingJob() {
  LedgerJudgement j;
  j.egress_limit_gbps = 100;
  j.ingress_limit_gbps = 60;
  j.job_writes = true;
  j.mount_state = IdleState::kNotStorage;
  return j;
}

// A mount of 20 minutes whose node read 10 Gbit/s for its first 5 (its first epoch, filling
// the cache's cap), then `after_gbps` from storage; the job's evidence blames the cache, which
// holds half the input, and names `uncached` for the mount without it.
inline std::pair<Evidence, LedgerJudgement> HalfCachedMount(double after_gbps, IdleState uncached) {
  Evidence job = Mount(20);
  std::vector<double> egress;
  for (int i = 0; i < 20; ++i) egress.push_back(i < 5 ? 10 : after_gbps);
  job.series.push_back(Minutes("metrics.egress_gbps", egress));
  LedgerJudgement j;
  j.mount_state = IdleState::kCacheRereads;
  j.mount_state_uncached = uncached;
  j.mount_cache_cap_bytes = 10e9 / 8 * 60 * 5 - 1;
  j.mount_cache_miss_share = 0.5;
  return {job, j};
}

// A 20-minute job that downloads its input for the first 10 minutes and then trains, writing
// its outputs (an rw_mount), losing 100 GPU-s every minute; its data runtime logged refusals
// `refused` (their line's words, from and to minute), and the judgement names the limit `met`.
struct LoggedRefusal {
  std::string label;
  double from_min = 0;
  double to_min = 0;
};
inline std::pair<Evidence, LedgerJudgement> DownloadThenWrites(
    IdleState met, const std::vector<LoggedRefusal>& refused) {
  Evidence job;
  job.series.push_back(Minutes("gpu.lost_gpu_s_by_time", std::vector<double>(20, 100)));
  job.facts.Set(TextFact("runtime.setting.AZUREML_DATASET_HTTP_RETRY_COUNT", "3", {}));
  job.timeline.push_back(Interval("data-runtime", "download", 0, 10, "Success"));
  for (const auto& r : refused)
    job.timeline.push_back(Interval("storage", r.label, r.from_min, r.to_min, "rslex"));
  LedgerJudgement j;
  j.throttle_state = met;
  j.job_writes = true;
  return {job, j};
}

}  // namespace feedcheck::diagnosis::ledger_test
