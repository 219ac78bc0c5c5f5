// The read rate requests in flight allow at their latency (Little's law): a property over the
// settings, the file sizes and the modes, whether it counts the requests really in flight, and
// the facts it is refused without.
#include "diagnosis/latency_cap.h"

#include <catch2/catch.hpp>
#include <string>

namespace fd = feedcheck::diagnosis;
using feedcheck::FactOrigin;
using feedcheck::FactSet;
using feedcheck::NumberFact;
using feedcheck::Provenance;
using feedcheck::TextFact;
using feedcheck::Unit;

namespace {

Provenance Observed() {
  Provenance p;
  p.origin = FactOrigin::kObserved;
  p.source = "test";
  return p;
}

FactSet Job(double vcpus, double file_bytes, double e2e_ms) {
  FactSet f;
  f.Set(NumberFact("node.vcpus", vcpus, Unit::kCount, Observed()));
  f.Set(NumberFact("dataset.median_file_bytes", file_bytes, Unit::kBytes, Observed()));
  f.Set(NumberFact("metrics.e2e_latency_ms", e2e_ms, Unit::kMilliseconds, Observed()));
  return f;
}

}  // namespace

TEST_CASE("latency cap: threads x request bytes / end-to-end time, for every mode and size",
          "[latency_cap]") {
  const double vcpus = GENERATE(4.0, 24.0, 96.0);
  const double file = GENERATE(16e3, 500e3, 1.9e6, 2e6, 64e6, 4e9);
  const double e2e = GENERATE(3.0, 12.0, 140.0);
  const bool download = GENERATE(false, true);
  const double readers = GENERATE(0.0, 2.0, 16.0);
  FactSet f = Job(vcpus, file, e2e);
  if (readers > 0) f.Set(NumberFact("workload.readers", readers, Unit::kCount, Observed()));
  auto cap = fd::LatencyCapOf(f, download);
  CAPTURE(vcpus, file, e2e, download, readers);
  const double block = download ? fd::kAssumedDownloadRangeBytes : fd::kDefaultMountReadBlockBytes;
  if (!download && file < block && readers == 0) {
    // A small file on a mount is one request per file: its concurrency is the loop's readers.
    CHECK_FALSE(cap.has_value());
    return;
  }
  REQUIRE(cap.has_value());
  CHECK(cap->request_bytes == Approx(std::min(file, block)));
  double threads = vcpus * fd::kDefaultThreadsPerCore;
  if (!download && file < block) threads = readers;
  if (!download && file >= block && readers > 0)
    threads = std::min(threads, readers * fd::kDefaultMountPrefetchBlocks);
  CHECK(cap->threads == Approx(threads));
  CHECK(cap->gbps == Approx(threads * std::min(file, block) * 8 / (e2e / 1000) / 1e9));
  // The count is the requests really in flight, not a bound, where the readers are known or do
  // not matter: a download's threads, or a mount's threads no more than one reader prefetches.
  CHECK(cap->in_flight_known ==
        (download || readers > 0 || threads <= fd::kDefaultMountPrefetchBlocks));
  // More latency allows less; so does a smaller request.
  FactSet far = f;
  far.Set(NumberFact("metrics.e2e_latency_ms", e2e * 2, Unit::kMilliseconds, Observed()));
  auto slower = fd::LatencyCapOf(far, download);
  REQUIRE(slower);
  CHECK(slower->gbps < cap->gbps);
}

TEST_CASE("latency cap: the job's thread and block settings replace the defaults",
          "[latency_cap]") {
  FactSet f = Job(96, 64e6, 10);
  f.Set(TextFact("runtime.setting.RSLEX_DOWNLOADER_THREADS", "8", Observed()));
  f.Set(TextFact("runtime.setting.DATASET_MOUNT_READ_THREADS", "16", Observed()));
  f.Set(TextFact("runtime.setting.DATASET_MOUNT_READ_BLOCK_SIZE", "8MB", Observed()));
  auto down = fd::LatencyCapOf(f, true);
  auto mount = fd::LatencyCapOf(f, false);
  REQUIRE(down);
  REQUIRE(mount);
  CHECK(down->threads == 8);
  CHECK(down->threads_from == "RSLEX_DOWNLOADER_THREADS");
  CHECK(mount->threads == 16);
  CHECK(mount->request_bytes == Approx(8e6));
  // A prefetch depth set without the readers it multiplies: the concurrency is not known.
  f.Set(TextFact("runtime.setting.DATASET_MOUNT_READ_BUFFER_BLOCK_COUNT", "4", Observed()));
  CHECK_FALSE(fd::LatencyCapOf(f, false));
  f.Set(NumberFact("workload.readers", 2, Unit::kCount, Observed()));
  auto shallow = fd::LatencyCapOf(f, false);
  REQUIRE(shallow);
  CHECK(shallow->threads == 8);  // 2 readers x 4 blocks ahead, under the 16 threads
}

TEST_CASE("latency cap: refused without latency, size or threads; nonsense settings ignored",
          "[latency_cap]") {
  CHECK_FALSE(fd::LatencyCapOf(FactSet{}, true));
  FactSet no_latency = Job(8, 64e6, 10);
  no_latency.Erase("metrics.e2e_latency_ms");
  CHECK_FALSE(fd::LatencyCapOf(no_latency, true));
  for (const char* bad : {"-3", "0", "nan", "lots", ""}) {
    FactSet f = Job(8, 64e6, 10);
    f.Set(TextFact("runtime.setting.RSLEX_DOWNLOADER_THREADS", bad, Observed()));
    auto cap = fd::LatencyCapOf(f, true);
    REQUIRE(cap);
    CAPTURE(bad);
    CHECK(cap->threads == 32);  // the default, 8 cores x 4
  }
}

TEST_CASE("latency cap: the facts name their sources and appear only for a known mode",
          "[latency_cap]") {
  FactSet f = Job(8, 64e6, 10);
  fd::AddLatencyCapFacts(&f);
  CHECK_FALSE(f.Find("runtime.latency_cap_gbps"));  // no mode: nothing to say
  f.Set(TextFact("runtime.mode", "download", Observed()));
  fd::AddLatencyCapFacts(&f);
  const auto* cap = f.Find("runtime.latency_cap_gbps");
  REQUIRE(cap);
  CHECK(cap->provenance.origin == FactOrigin::kDerived);
  CHECK(cap->provenance.source.find("NUMBER_OF_CPU_CORES x 4") != std::string::npos);
  CHECK(f.Number("runtime.read_threads") == Approx(32));
}

TEST_CASE("latency cap: the reads' own size in the request log before the account's mean",
          "[latency_cap]") {
  // No file size declared. The account's mean bytes per request carry other workloads' 4 MiB
  // blocks; the request log's median GetBlob is the job's 24 KB files.
  FactSet f;
  f.Set(NumberFact("node.vcpus", 24, Unit::kCount, Observed()));
  f.Set(NumberFact("metrics.e2e_latency_ms", 20, Unit::kMilliseconds, Observed()));
  f.Set(NumberFact("metrics.bytes_per_request", 3.8e6, Unit::kBytes, Observed()));
  f.Set(NumberFact("workload.readers", 4, Unit::kCount, Observed()));
  auto mean_only = fd::LatencyCapOf(f, false);
  REQUIRE(mean_only);
  CHECK(mean_only->request_bytes == Approx(fd::kDefaultMountReadBlockBytes));  // block-sized
  CHECK(fd::ReadRequestBytes(f) == Approx(3.8e6));
  f.Set(NumberFact("metrics.bloblog.read_bytes_p50", 24e3, Unit::kBytes, Observed()));
  CHECK(fd::ReadRequestBytes(f) == Approx(24e3));
  auto logged = fd::LatencyCapOf(f, false);
  REQUIRE(logged);
  // One request per file, the readers in flight: 4 x 24 KB / 20 ms.
  CHECK(logged->request_bytes == Approx(24e3));
  CHECK(logged->threads == 4);
  CHECK(logged->gbps == Approx(4 * 24e3 * 8 / 0.020 / 1e9));
  // The job's declared files still come first; a nonsense size is not a size.
  FactSet declared = f;
  declared.Set(NumberFact("dataset.median_file_bytes", 64e6, Unit::kBytes, Observed()));
  CHECK(fd::LatencyCapOf(declared, false)->request_bytes ==
        Approx(fd::kDefaultMountReadBlockBytes));
  f.Set(NumberFact("metrics.bloblog.read_bytes_p50", -1, Unit::kBytes, Observed()));
  CHECK(fd::ReadRequestBytes(f) == Approx(3.8e6));
}
