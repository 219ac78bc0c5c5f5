#include "diagnosis/latency_cap.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "analyzers/text_util.h"
#include "core/units.h"

namespace feedcheck::diagnosis {

namespace {

// A setting's value as a positive number: "32", or a size such as "4MB" when `size` is true.
std::optional<double> SettingNumber(const FactSet& facts, const std::string& name, bool size) {
  const Fact* f = facts.Find("runtime.setting." + name);
  if (!f || !f->is_text()) return std::nullopt;
  std::optional<double> v = size ? ParseBytes(f->text()) : std::nullopt;
  if (!v) v = analyzers::ParseDouble(f->text());
  if (!v || !std::isfinite(*v) || *v <= 0) return std::nullopt;
  return v;
}

std::optional<bool> DownloadMode(const FactSet& facts) {
  for (const char* key : {"runtime.mode", "workload.mode"})
    if (const Fact* f = facts.Find(key); f && f->is_text()) {
      if (f->text() == "download") return true;
      if (f->text() == "mount" || analyzers::IContains(f->text(), "mount")) return false;
    }
  return std::nullopt;
}

}  // namespace

std::optional<double> ReadRequestBytes(const FactSet& facts) {
  for (const char* key : {"metrics.bloblog.read_bytes_p50", "metrics.bytes_per_request"})
    if (auto bytes = facts.Number(key); bytes && std::isfinite(*bytes) && *bytes > 0) return bytes;
  return std::nullopt;
}

std::optional<LatencyCap> LatencyCapOf(const FactSet& facts, bool download) {
  LatencyCap cap;
  const char* threads_setting =
      download ? "RSLEX_DOWNLOADER_THREADS" : "DATASET_MOUNT_READ_THREADS";
  if (auto t = SettingNumber(facts, threads_setting, false)) {
    cap.threads = std::floor(*t);
    cap.threads_from = threads_setting;
  } else if (auto vcpus = facts.Number("node.vcpus"); vcpus && *vcpus > 0) {
    cap.threads = *vcpus * kDefaultThreadsPerCore;
    cap.threads_from = "NUMBER_OF_CPU_CORES x 4";
  }
  const double block = download ? kAssumedDownloadRangeBytes
                                : SettingNumber(facts, "DATASET_MOUNT_READ_BLOCK_SIZE", true)
                                      .value_or(kDefaultMountReadBlockBytes);
  // The job's own files first: the account's bytes per request also average other workloads'.
  std::optional<double> file = facts.Number("dataset.median_file_bytes");
  if (!file) file = facts.Number("dataset.mean_file_bytes");
  // The reads' own size is a block at most: within a tenth of the block, the files are larger
  // than it.
  bool block_sized = false;
  if (!file) {
    file = ReadRequestBytes(facts);
    block_sized = file && *file >= 0.9 * block;
  }
  if (!file || !std::isfinite(*file) || *file <= 0) return std::nullopt;
  cap.request_bytes = std::min(*file, block);
  if (!download) {
    // A mount's threads prefetch blocks inside a file, a few blocks ahead of each reader; a
    // file under one block is one request, and as many are in flight as the training loop's
    // readers ask for at once.
    const std::optional<double> readers = facts.Number("workload.readers");
    const std::optional<double> depth =
        SettingNumber(facts, "DATASET_MOUNT_READ_BUFFER_BLOCK_COUNT", false);
    if (*file < block && !block_sized) {
      if (!readers || !(*readers >= 1)) return std::nullopt;
      cap.threads = std::floor(*readers);
      cap.threads_from = "the workload's readers (one request per file)";
      cap.in_flight_known = true;
    } else if (readers && *readers >= 1) {
      const double ahead = std::floor(*readers) * depth.value_or(kDefaultMountPrefetchBlocks);
      if (ahead < cap.threads) {
        cap.threads = ahead;
        cap.threads_from = "readers x DATASET_MOUNT_READ_BUFFER_BLOCK_COUNT";
      }
      cap.in_flight_known = true;
    } else if (depth) {
      return std::nullopt;  // a prefetch depth set, the readers it multiplies unknown
    } else {
      // One reader already keeps this many blocks ahead of it: no fewer readers leave a
      // thread idle.
      cap.in_flight_known = cap.threads <= kDefaultMountPrefetchBlocks;
    }
  } else {
    cap.in_flight_known = true;
  }
  cap.e2e_ms = facts.Number("metrics.e2e_latency_ms").value_or(0);
  if (!(cap.threads >= 1) || !(cap.e2e_ms > 0) || !std::isfinite(cap.e2e_ms)) return std::nullopt;
  cap.gbps = cap.threads * cap.request_bytes * 8 / (cap.e2e_ms / 1000) / 1e9;
  return cap;
}

std::optional<LatencyCap> LatencyCapForJob(const FactSet& facts) {
  std::optional<bool> download = DownloadMode(facts);
  if (!download) return std::nullopt;
  return LatencyCapOf(facts, *download);
}

void AddLatencyCapFacts(FactSet* facts) {
  std::optional<LatencyCap> cap = LatencyCapForJob(*facts);
  if (!cap) return;
  Provenance p;
  p.origin = FactOrigin::kDerived;
  p.source = fmt::format("{} threads ({}) x {:.0f} bytes per request / {:.1f} ms end to end",
                         cap->threads, cap->threads_from, cap->request_bytes, cap->e2e_ms);
  facts->Set(NumberFact("runtime.read_threads", cap->threads, Unit::kCount, p));
  facts->Set(NumberFact("runtime.request_bytes", cap->request_bytes, Unit::kBytes, p));
  facts->Set(NumberFact("runtime.latency_cap_gbps", cap->gbps, Unit::kGbps, p));
}

}  // namespace feedcheck::diagnosis
