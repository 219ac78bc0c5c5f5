// An input that failed as the node's disk filled: not an access failure (storage served what was
// asked), but a critical finding of its own that says which mode to use, by the activity that
// failed: a download did not fit the disk; under a mount the job's own files or the cache filled
// it.
#include <catch2/catch.hpp>
#include <string>

#include "core/evidence.h"
#include "diagnosis/account_view.h"
#include "diagnosis/idle_ledger.h"
#include "diagnosis/ledger_judgement.h"

using namespace feedcheck;
using namespace feedcheck::diagnosis;

namespace {

Evidence FailedInput(const std::string& activity, bool disk_full) {
  Evidence ev;
  TimelineInterval iv;
  iv.lane = "data-runtime";
  iv.label = activity;
  iv.start_epoch_s = 1.7e9;
  iv.end_epoch_s = 1.7e9 + 1152;
  iv.status = "Failure";
  ev.timeline.push_back(iv);
  ev.facts.Set(NumberFact("runtime.activity_failures", 1, Unit::kCount, {}));
  // A refusal-free failure the data runtime explained with an error code.
  ev.facts.Set(TextFact("runtime.stream_error", "ScriptExecution.StreamAccess.Unexpected", {}));
  if (disk_full)
    ev.facts.Set(NumberFact("runtime.disk_full_lines", 1, Unit::kCount,
                            {FactOrigin::kObserved, "", "rslex.log.2026-06-03-14", 812}));
  ev.facts.Set(NumberFact("node.local_disk_bytes", 2948.0 * (1ull << 30), Unit::kBytes, {}));
  return ev;
}

}  // namespace

TEST_CASE("full disk: a failed input whose disk filled is no access failure",
          "[diagnosis][full_disk]") {
  const std::string activity = GENERATE(std::string("download"), std::string("mount"));
  INFO(activity);
  // Without the disk's words the same failure is storage access's.
  CHECK(InputNeverRead(FailedInput(activity, false)));
  CHECK_FALSE(InputFailedOnFullDisk(FailedInput(activity, false)));
  const Evidence full = FailedInput(activity, true);
  CHECK_FALSE(InputNeverRead(full));
  REQUIRE(InputFailedOnFullDisk(full));
  const Finding f = FullDiskFinding(full);
  CHECK(f.severity == Severity::kCritical);
  CHECK(f.bottleneck == Bottleneck::kAccessMode);
  CHECK(f.message.find("rslex.log.2026-06-03-14:812") != std::string::npos);
  CHECK(f.message.find("2.88 TiB") != std::string::npos);
  if (activity == "download") {
    CHECK(f.message.find("ro_mount") != std::string::npos);
    CHECK(f.title == "The input did not fit the node's local disk");
  } else {
    CHECK(f.message.find("DATASET_MOUNT_CACHE_SIZE") != std::string::npos);
    CHECK(f.message.find("ro_mount") == std::string::npos);
  }
}

TEST_CASE("full disk: a download the log never saw end, its disk full, failed on it too",
          "[diagnosis][full_disk]") {
  // The job was stopped as the copy failed: data-capability.log has no ActivityCompleted.
  Evidence ev = FailedInput("download", true);
  ev.timeline[0].status = "unfinished";
  ev.timeline[0].end_epoch_s = ev.timeline[0].start_epoch_s;
  REQUIRE(InputFailedOnFullDisk(ev));
  CHECK(FullDiskFinding(ev).title == "The input did not fit the node's local disk");
  CHECK_FALSE(InputNeverRead(ev));
}

TEST_CASE("full disk: a disk that filled after the input succeeded is no input failure",
          "[diagnosis][full_disk]") {
  Evidence ev = FailedInput("download", true);
  ev.timeline[0].status = "Success";
  CHECK_FALSE(InputFailedOnFullDisk(ev));
}

TEST_CASE("full disk: a download that outgrew the disk is the input mode's, however it read",
          "[diagnosis][full_disk]") {
  // A 20-minute download that crawled (its requests' latency held its pace) and failed as it
  // filled the disk at minute 15; the GPUs sampled on to minute 20 with nothing to train on.
  // All of it is the download's: at any pace the input would not have fit, so a faster copy
  // (its latency lifted) would only have filled the disk sooner. The cause is the input mode.
  constexpr double kStart = 1.7e9;
  Evidence job;
  Series lost;
  lost.key = "gpu.lost_gpu_s_by_time";
  for (int m = 0; m < 20; ++m) lost.points.push_back({kStart + 60.0 * m, 100});
  job.series.push_back(lost);
  TimelineInterval dl;
  dl.lane = "data-runtime";
  dl.label = "download";
  dl.start_epoch_s = kStart;
  dl.end_epoch_s = kStart + 15 * 60;
  dl.status = "Failure";
  job.timeline.push_back(dl);
  LedgerJudgement j;
  j.download_state = IdleState::kLatency;
  j.download_outgrew_disk_s = dl.end_epoch_s;
  j.download_cannot_fit = true;
  const IdleLedger ledger = BuildIdleLedger(job, {}, j);
  CHECK(ledger.Of(IdleState::kLatency) == 0);
  CHECK(ledger.Of(IdleState::kStartupDownload) == Approx(20 * 100));
  CHECK(ChooseLedgerCause(ledger, false, std::nullopt, false, true) == IdleState::kStartupDownload);
  // A download that could fit: the crawl's pace is its latency's.
  j.download_outgrew_disk_s.reset();
  j.download_cannot_fit = false;
  CHECK(BuildIdleLedger(job, {}, j).Of(IdleState::kLatency) == Approx(15 * 100));
}

TEST_CASE("full disk: a download of an input larger than the local disk cannot fit at any pace",
          "[diagnosis][full_disk]") {
  // No disk filled yet (the job ended first), but the profile's input is larger than the VM
  // size's local disk: a download copies all of it to each node, so it could never finish.
  auto judge = [](const char* mode, double input_gib, bool disk_known) {
    Evidence ev;
    ev.facts.Set(TextFact("workload.mode", mode, {}));
    ev.facts.Set(NumberFact("dataset.bytes", input_gib * (1ull << 30), Unit::kBytes, {}));
    if (disk_known)
      ev.facts.Set(NumberFact("node.local_disk_bytes", 2948.0 * (1ull << 30), Unit::kBytes, {}));
    return JudgeEvidence(ev, {}, ViewAccount(ev.facts), {}).download_cannot_fit;
  };
  CHECK(judge("download", 4000, true));
  CHECK_FALSE(judge("download", 2000, true));   // it fits
  CHECK_FALSE(judge("ro_mount", 4000, true));   // a mount reads as the job goes
  CHECK_FALSE(judge("download", 4000, false));  // no disk size to weigh it against
}
