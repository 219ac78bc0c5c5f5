#include "app/probe_host.h"

#include <fmt/format.h>

#include "app/cluster_choice.h"
#include "app/fact_gathering.h"
#include "app/probe_report.h"
#include "core/redact.h"
#include "core/units.h"
#include "probes/budget_tracker.h"
#include "probes/disk_probe.h"
#include "probes/nic_probe.h"

namespace feedcheck::app {
namespace {

// Gbit/s to MB/s (10^6 bytes per second), the unit fio and dd print.
double MegabytesPerSecond(double gbps) { return gbps * 1e9 / 8 / 1e6; }

}  // namespace

Outcome RunProbeDisk(const DiskRequest& r, const ProbeCallbacks& callbacks) {
  DiagnosticList diagnostics;
  DiskProbeOptions o;
  o.path = r.path;
  ProbeBudget budget;
  if (!ParseProbeBudget(r.session, &budget, &diagnostics))
    return Stopped(ExitStatus::kUsage, std::move(diagnostics));
  std::string error;
  auto file = ParseBytes(r.file_size, &error);
  if (!file || *file < double(8 << 20))
    return StoppedOnFlag(std::move(diagnostics),
                         "--file-size '" + r.file_size + "': at least 8MiB");
  auto block = ParseBytes(r.block_size, &error);
  if (!block || *block < 4096 || *block > double(64 << 20))
    return StoppedOnFlag(std::move(diagnostics),
                         "--block-size '" + r.block_size + "': from 4KiB to 64MiB");
  auto rd = ParseSeconds(r.random_duration, &error);
  if (!rd || *rd <= 0)
    return StoppedOnFlag(std::move(diagnostics), "--random-duration '" + r.random_duration + "'");
  if (r.random_threads < 1 || r.random_threads > 256)
    return StoppedOnFlag(std::move(diagnostics), "--random-threads must be from 1 to 256");
  o.file_bytes = static_cast<uint64_t>(*file);
  o.block_bytes = static_cast<uint64_t>(*block);
  o.random_duration_s = *rd;
  o.random_threads = r.random_threads;
  o.direct = !r.no_direct;
  callbacks.Notice(fmt::format(
      "probe disk: {}; budget {}; writes one test file of up to {} (removed afterwards)", o.path,
      DescribeBudget(budget), FormatBytes(static_cast<double>(o.file_bytes))));
  CleanupRegistry own;
  CleanupRegistry* registry = r.cleanup ? r.cleanup : &own;
  ProbeResult result = RunDiskProbe(o, budget, registry, callbacks.progress);
  registry->RunAll();

  ProbeTargetInfo target{o.path, "local_path", ""};
  Report report = StartProbeReport(result, target);
  const FactSet& f = result.evidence.facts;
  if (auto w = f.NumberIn("probe.disk.write_gbps", Unit::kGbps))
    AddNumberResult("write_mb_s", MegabytesPerSecond(*w), "MB/s", "Sequential write", &report);
  if (auto rd_gbps = f.NumberIn("probe.disk.read_gbps", Unit::kGbps))
    AddNumberResult("read_mb_s", MegabytesPerSecond(*rd_gbps), "MB/s", "Sequential read", &report);
  AddFactResult(f, "probe.disk.random_read_iops", "random_read_iops", "4 KiB random reads",
                &report);
  AddNumberResult("random_threads", o.random_threads, "", "Random-read queue depth", &report);
  AddFactResult(f, "probe.disk.direct_io", "direct_io", "Page cache bypassed", &report);
  AddFactResult(f, "probe.disk.device", "device", "Device", &report);
  AddFactResult(f, "probe.disk.kind", "kind", "Kind", &report);
  AddFactResult(f, "probe.disk.free_bytes", "free_bytes", "Free space", &report);
  AddRunResult(result, target, &report);
  return FinishProbe(std::move(report), result, target, std::move(diagnostics));
}

Outcome RunProbeNic(const NicRequest& r, const ProbeCallbacks&) {
  DiagnosticList diagnostics;
  NicProbeOptions o;
  o.interface = r.interface;
  o.root = r.root;
  if (!r.target.empty()) {
    Target t;
    std::string error;
    if (!ParseTarget(r.target, {}, &t, &error))
      return StoppedOnFlag(std::move(diagnostics),
                           "target '" + RedactUrl(r.target) + "': " + error);
    if (t.kind != TargetKind::kLocalPath) o.host = t.HostName();
  }
  if (!r.sku.empty() || !r.nic_gbps.empty()) {
    KnowledgeBase kb;
    if (!LoadKnowledgeBase(r.knowledge, &kb, &diagnostics))
      return Stopped(ExitStatus::kInputError, std::move(diagnostics));
    NodeChoice node;
    FlagError err;
    if (!ResolveNode(kb, r.sku, r.nic_gbps, &node, &err))
      return StoppedOnFlag(std::move(diagnostics), err.message);
    o.expected_gbps = node.nic_gbps;
    o.expected_source = NicSource(node);
  }
  ProbeResult result = RunNicProbe(o);
  ProbeTargetInfo target{r.target.empty() ? "(default route)" : RedactUrl(r.target), "nic", ""};
  Report report = StartProbeReport(result, target);
  const FactSet& f = result.evidence.facts;
  AddFactResult(f, "probe.nic.link_gbps", "link_gbps", "Link speed", &report);
  AddFactResult(f, "probe.nic.expected_gbps", "expected_gbps", "The VM size should get", &report);
  AddFactResult(f, "probe.nic.interface", "interface", "Interface", &report);
  AddFactResult(f, "probe.nic.driver", "driver", "Driver", &report);
  AddFactResult(f, "probe.nic.mtu", "mtu", "MTU", &report);
  AddFactResult(f, "probe.nic.accelerated", "accelerated", "Accelerated networking", &report);
  AddRunResult(result, target, &report);
  return FinishProbe(std::move(report), result, target, std::move(diagnostics));
}

}  // namespace feedcheck::app
