// A download's idle time in the ledger (diagnosis/ledger_placer.h) where nothing measured its
// rate (no Egress metric, no byte count):
//   - A download that fit on the node's local disk moved at most the disk's size over its time.
//     Under half the NIC by that bound, it crawled: its requests' latency held it, not the
//     mode's wait at the NIC. A download that never ended is bounded over the time it ran.
#include <catch2/catch.hpp>
#include <vector>

#include "diagnosis/idle_ledger.h"
#include "diagnosis/ledger_judgement.h"
#include "tests/diagnosis/ledger_test_jobs.h"

using namespace feedcheck;
using namespace feedcheck::diagnosis;
using namespace feedcheck::diagnosis::ledger_test;

TEST_CASE("placer: a download that fit its disk and took long crawled, whatever its bytes",
          "[diagnosis][ledger]") {
  // A 60-minute download on a node with an 8 Gbit/s NIC, nothing measuring its rate, on a
  // local disk of `disk_gb` (0: unknown). 378 GB in an hour is 0.84 Gbit/s at most, under half
  // the NIC: a crawl. 3,840 GB could have come at 8.5 Gbit/s: the mode's wait, as before. The
  // log saw the download end, or never (it ran until the job stopped).
  const double disk_gb = GENERATE(0.0, 378.0, 3840.0);
  const bool finished = GENERATE(true, false);
  const int minutes = 60;
  Evidence job;
  job.series.push_back(Minutes("gpu.lost_gpu_s_by_time", std::vector<double>(minutes, 100)));
  job.timeline.push_back(
      Interval("data-runtime", "download", 0, minutes, finished ? "Success" : "unfinished"));
  LedgerJudgement j;
  j.download_state = IdleState::kStartupDownload;
  j.download_is_the_wait = true;
  j.nic_gbps = 8;
  j.local_disk_bytes = disk_gb * 1e9;
  const IdleLedger ledger = BuildIdleLedger(job, {}, j);
  INFO("a local disk of " << disk_gb << " GB; the download " << (finished ? "ended" : "ran on"));
  const bool crawled = disk_gb > 0 && disk_gb * 1e9 * 8 / (minutes * kMinute) / 1e9 < 0.5 * 8;
  CHECK(PlacedIn(ledger, crawled ? IdleState::kLatency : IdleState::kStartupDownload) ==
        Approx(100.0 * minutes));
}
