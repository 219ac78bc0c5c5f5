// The job measured apart from the account's other clients (diagnosis/ledger_placer.h): what its
// own requests moved, from the minutes it read less its quiet minutes' level.
//   - The job's bytes per request are the median over its reading minutes of its Egress over
//     its Transactions above the others': a minute of another client's burst (thousands of
//     large requests) does not stand for an hour of its small ones, and a minute at the
//     account's limit measures the account, not the job.
#include <catch2/catch.hpp>
#include <vector>

#include "diagnosis/idle_ledger.h"
#include "diagnosis/ledger_judgement.h"
#include "tests/diagnosis/ledger_test_jobs.h"

using namespace feedcheck;
using namespace feedcheck::diagnosis;
using namespace feedcheck::diagnosis::ledger_test;

TEST_CASE("placer: another client's burst does not make the job's small requests large",
          "[diagnosis][ledger]") {
  // A download from minute 10 to 40 of files of 58 KB on 32 threads (8 vCPUs x 4) at 116 ms
  // end to end: Little's law allows 0.128 Gbit/s, and the node read at that. Then the job
  // trains from its local copy to minute 70 (quiet minutes: all others'). Another client reads
  // 11 Gbit/s in 4 MiB blocks throughout (330 requests/s); in `burst` minutes of the download
  // it reads `burst_gbps`, up to the account's 50 Gbit/s limit. The account's mean says 2.5 MB
  // a request; the job's own minutes say 58 KB, burst or not: the download crawled at its
  // latency cap.
  const int burst = GENERATE(0, 1, 3);
  const double burst_gbps = GENERATE(30.0, 50.0);
  const int minutes = 70;
  const double job_gbps = 0.128, file_bytes = 58e3, others_gbps = 11, others_rps = 330;
  Evidence job;
  std::vector<double> lost(minutes, 0), egress(minutes), requests(minutes);
  for (int i = 0; i < minutes; ++i) {
    const bool reading = i >= 10 && i < 40;
    const bool bursting = i >= 20 && i < 20 + burst;
    lost[i] = reading ? 100 : 0;
    egress[i] = bursting ? burst_gbps : others_gbps + (reading ? job_gbps : 0);
    requests[i] = (bursting ? burst_gbps * 1e9 / 8 / 4194304 : others_rps) +
                  (reading ? job_gbps * 1e9 / 8 / file_bytes : 0);
  }
  job.series.push_back(Minutes("gpu.lost_gpu_s_by_time", lost));
  job.series.push_back(Minutes("metrics.egress_gbps", egress));
  job.series.push_back(Minutes("metrics.requests_per_s", requests));
  job.timeline.push_back(Interval("data-runtime", "download", 10, 40, "Success"));
  job.timeline.push_back(Interval("reads", "span closes", 10.2, 39.8, "rslex"));
  // The runtime's own log was read (its quiet minutes are known quiet).
  job.facts.Set(NumberFact("runtime.non_success_responses", 0, Unit::kCount, Provenance{}));
  job.facts.Set(TextFact("runtime.mode", "download", Provenance{}));
  job.facts.Set(NumberFact("node.vcpus", 8, Unit::kCount, Provenance{}));
  job.facts.Set(NumberFact("metrics.e2e_latency_ms", 116, Unit::kMilliseconds, Provenance{}));
  job.facts.Set(NumberFact("metrics.bytes_per_request", 2.5e6, Unit::kBytes, Provenance{}));
  LedgerJudgement j;
  j.download_state = IdleState::kStartupDownload;
  j.download_is_the_wait = true;
  j.nic_gbps = 8;
  j.egress_limit_gbps = 50;
  j.latency_cap_gbps = 32 * 2.5e6 * 8 / 0.116 / 1e9;  // the account's mean's: 5.5 Gbit/s
  const IdleLedger ledger = BuildIdleLedger(job, {}, j);
  INFO(burst << " minutes of another client's burst to " << burst_gbps << " Gbit/s");
  CHECK(PlacedIn(ledger, IdleState::kLatency) == Approx(30 * 100.0));
  CHECK(PlacedIn(ledger, IdleState::kStartupDownload) == 0);
}
