// The idle ledger (diagnosis/idle_ledger.h) on drawn jobs: what it keeps beside its states. Of
// its not_storage time, the GPU-seconds that fell in mount minutes in which the account served
// next to nothing are counted as the mount's cache (what the none-found fix's wording reads).
#include "diagnosis/idle_ledger.h"

#include <catch2/catch.hpp>
#include <random>

using namespace feedcheck;
using namespace feedcheck::diagnosis;

namespace {

constexpr double kStart = 1.7e9;
constexpr double kMinute = 60;

Series MakeSeries(const std::string& key, std::vector<SeriesPoint> points) {
  Series s;
  s.key = key;
  s.points = std::move(points);
  return s;
}

// One mount of `minutes` minutes; each minute its GPUs lost `lost[i]` GPU-s while the account
// served `egress[i]` Gbit/s.
Evidence MountJob(const std::vector<double>& lost, const std::vector<double>& egress) {
  Evidence job;
  std::vector<SeriesPoint> lost_points, egress_points;
  for (size_t i = 0; i < lost.size(); ++i) {
    lost_points.push_back({kStart + kMinute * static_cast<double>(i), lost[i]});
    egress_points.push_back({kStart + kMinute * static_cast<double>(i), egress[i]});
  }
  job.series.push_back(MakeSeries("gpu.lost_gpu_s_by_time", lost_points));
  job.series.push_back(MakeSeries("metrics.egress_gbps", egress_points));
  TimelineInterval mount;
  mount.lane = "data-runtime";
  mount.label = "mount";
  mount.start_epoch_s = kStart - 1;
  mount.end_epoch_s = kStart + kMinute * static_cast<double>(lost.size());
  mount.status = "Success";
  job.timeline.push_back(mount);
  return job;
}

}  // namespace

TEST_CASE("the ledger counts the not_storage time a mount served from its cache",
          "[diagnosis][ledger]") {
  std::mt19937 rng(GENERATE(1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u));
  std::uniform_real_distribution<double> gpu_s(0, 480);
  std::bernoulli_distribution quiet(0.4);
  const int minutes = 30;
  std::vector<double> lost(minutes), egress(minutes);
  double quiet_lost = 0, total = 0;
  for (int i = 0; i < minutes; ++i) {
    lost[i] = gpu_s(rng);
    // A quiet minute: under 2% of the job's peak (10 Gbit/s); else the account served it.
    const bool q = quiet(rng) && i != 0;
    egress[i] = i == 0 ? 10 : q ? 0.1 : 2 + 8 * gpu_s(rng) / 480;
    total += lost[i];
    if (q) quiet_lost += lost[i];
  }
  const Evidence job = MountJob(lost, egress);
  // Storage served the job fast wherever it served it: every idle minute is not storage's.
  LedgerJudgement served_fast;
  served_fast.mount_state = IdleState::kNotStorage;
  const IdleLedger ledger = BuildIdleLedger(job, {}, served_fast);
  INFO("quiet " << quiet_lost << " of " << total);
  CHECK(ledger.lost_gpu_s == Approx(total));
  CHECK(ledger.Of(IdleState::kNotStorage) == Approx(total));
  CHECK(ledger.cached_gpu_s == Approx(quiet_lost).margin(1e-6));
  // Nothing known of the mount's other minutes: only the quiet ones are placed (the cache).
  LedgerJudgement unknown;
  const IdleLedger unplaced = BuildIdleLedger(job, {}, unknown);
  CHECK(unplaced.Of(IdleState::kNotStorage) == Approx(quiet_lost).margin(1e-6));
  CHECK(unplaced.cached_gpu_s == Approx(quiet_lost).margin(1e-6));
  CHECK(unplaced.Of(IdleState::kUnknown) == Approx(total - quiet_lost).margin(1e-6));
}
