#include "probes/disk_probe.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <random>

#include "core/diagnostic_codes.h"
#include "probes/block_device.h"
#include "probes/disk_io.h"

namespace feedcheck {

namespace {

double Gbps(uint64_t bytes, double seconds) {
  return seconds > 0 ? static_cast<double>(bytes) * 8 / seconds / 1e9 : 0;
}

std::string UniqueFileName(const std::string& dir) {
  std::random_device rd;
  return (std::filesystem::path(dir) /
          fmt::format(".feedcheck-disk-{}-{:08x}.tmp", ::getpid(), rd()))
      .string();
}

}  // namespace

uint64_t PlanDiskFileBytes(const DiskProbeOptions& options, const ProbeBudget& budget,
                           uint64_t free_bytes) {
  uint64_t bytes = options.file_bytes;
  bytes = std::min(bytes, budget.max_bytes / 2);
  bytes = std::min(bytes, free_bytes / 2);
  uint64_t block = std::max<uint64_t>(4096, options.block_bytes);
  return bytes / block * block;
}

ProbeResult RunDiskProbe(const DiskProbeOptions& options, const ProbeBudget& budget,
                         CleanupRegistry* cleanup, const ProgressFn& progress) {
  ProbeResult result;
  result.probe = "disk";
  auto t0 = std::chrono::steady_clock::now();
  auto say = [&](const std::string& s) {
    if (progress) progress(s);
  };
  std::error_code ec;
  if (options.path.empty() || !std::filesystem::is_directory(options.path, ec)) {
    result.status = ProbeStatus::kUnreachable;
    result.message = options.path + ": not a directory";
    return result;
  }

  std::string device_error;
  DeviceDescription dev = DescribePath(options.path, options.sys_root, &device_error);
  auto free_bytes = FreeBytes(options.path);
  uint64_t file_bytes = PlanDiskFileBytes(options, budget, free_bytes.value_or(0));
  std::string params =
      fmt::format("probe disk (path={}, file={}, block={}, {} threads x {} random reads)",
                  options.path, FormatBytes(static_cast<double>(file_bytes)),
                  FormatBytes(static_cast<double>(options.block_bytes)), options.random_threads,
                  FormatBytes(static_cast<double>(options.random_io_bytes)));
  Provenance prov{FactOrigin::kMeasured, params, "", 0, "", -1};
  FactSet& facts = result.evidence.facts;

  if (!dev.kind.empty()) {
    facts.Set(TextFact("probe.disk.kind", dev.kind, prov));
    facts.Set(TextFact("probe.disk.device", dev.device, prov));
    facts.Set(TextFact("probe.disk.fstype", dev.fstype, prov));
    facts.Set(TextFact("probe.disk.mount_point", dev.mount_point, prov));
    for (const auto& note : dev.notes)
      result.evidence.diagnostics.Add(
          {codes::kDiskDeviceNote, DiagnosticSeverity::kNote, note, {}, "disk", ""});
  } else {
    result.evidence.diagnostics.Add({codes::kDiskDeviceUnknown,
                                     DiagnosticSeverity::kWarning,
                                     "device not identified: " + device_error,
                                     {},
                                     "disk",
                                     ""});
  }
  if (free_bytes)
    facts.Set(
        NumberFact("probe.disk.free_bytes", static_cast<double>(*free_bytes), Unit::kBytes, prov));
  if (file_bytes < 16 * options.block_bytes || file_bytes < (8ull << 20)) {
    result.status = ProbeStatus::kFailed;
    result.message = fmt::format("not enough budget or free space for a test file (would be {})",
                                 FormatBytes(static_cast<double>(file_bytes)));
    return result;
  }

  // Each phase gets a third of the time budget, the random reads at most their own duration.
  double phase_s = std::max(0.5, budget.duration_s / 3);
  std::string file = UniqueFileName(options.path);
  ScopedCleanup remove_file(cleanup, "remove " + file, [file] { RemoveFile(file); });

  say(fmt::format("writing {} to {}", FormatBytes(static_cast<double>(file_bytes)), options.path));
  DiskIoResult w = SequentialWrite(file, file_bytes, options.block_bytes, phase_s, options.direct);
  result.bytes_received += w.bytes;
  if (!w.note.empty())
    result.evidence.diagnostics.Add(
        {codes::kDiskWriteNote, DiagnosticSeverity::kNote, w.note, {}, "disk", ""});
  if (!w.error.empty() || w.bytes == 0) {
    result.status = ProbeStatus::kFailed;
    result.message = w.error.empty() ? "nothing written" : w.error;
    return result;
  }
  facts.Set(NumberFact("probe.disk.write_gbps", Gbps(w.bytes, w.seconds), Unit::kGbps, prov));
  facts.Set(BoolFact("probe.disk.direct_io", w.direct, prov));
  bool partial = w.stopped;

  if (!StopRequested()) {
    say("reading it back");
    DiskIoResult r = SequentialRead(file, options.block_bytes, phase_s, options.direct);
    result.bytes_received += r.bytes;
    if (r.error.empty() && r.bytes > 0) {
      facts.Set(NumberFact("probe.disk.read_gbps", Gbps(r.bytes, r.seconds), Unit::kGbps, prov));
    } else {
      partial = true;
      result.message = r.error;
    }
    partial = partial || r.stopped;
  }

  if (!StopRequested()) {
    say(fmt::format("random {} reads, {} threads",
                    FormatBytes(static_cast<double>(options.random_io_bytes)),
                    options.random_threads));
    DiskIoResult rr = RandomRead(file, w.bytes, options.random_io_bytes, options.random_threads,
                                 std::min(phase_s, options.random_duration_s), options.direct);
    if (rr.error.empty() && rr.seconds > 0 && rr.operations > 0) {
      facts.Set(NumberFact("probe.disk.random_read_iops",
                           static_cast<double>(rr.operations) / rr.seconds, Unit::kPerSecond,
                           prov));
    } else {
      partial = true;
      if (result.message.empty()) result.message = rr.error;
    }
  }

  if (StopRequested()) {
    partial = true;
    result.message = "stopped by a signal";
  }
  result.status = partial ? ProbeStatus::kPartial : ProbeStatus::kOk;
  if (partial && result.message.empty())
    result.message = "time budget reached before the whole file was written or read";
  result.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return result;
}

}  // namespace feedcheck
