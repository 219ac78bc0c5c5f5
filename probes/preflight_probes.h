// The probes of a pre-flight check, run one after another inside one stated budget. Listing goes
// first (it says whether the target answers at all, and what the data looks like), then latency,
// small files and a throughput sweep; then the node's own side: the NIC that routes to the target
// and, when a cache directory is named, the cache disk. Each stage gets its share of what is left
// of the time budget (storage stages also of the requests and bytes), so whatever a stage does not
// use goes to the stages after it, and the stages together can never spend more than the whole.
// An unreachable target ends the run at once. The disk stage's bytes are local writes and reads
// of its own test file, sized by `disk.file_bytes`: they are not storage bytes and do not count
// against --max-bytes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "probes/cleanup_registry.h"
#include "probes/disk_probe.h"
#include "probes/http_probe_env.h"
#include "probes/latency_probe.h"
#include "probes/list_probe.h"
#include "probes/nic_probe.h"
#include "probes/smallfile_probe.h"
#include "probes/throughput_probe.h"

namespace feedcheck {

enum class PreflightStage { kList, kLatency, kSmallFiles, kThroughput, kNic, kDisk };

std::string_view PreflightStageName(PreflightStage stage);
/// "list", "latency", "smallfiles", "throughput", "nic", "disk"; false for anything else.
bool ParsePreflightStage(std::string_view name, PreflightStage* out);
/// Whether the stage talks to the storage target (and so spends requests and bytes); nic and
/// disk look at this node only.
bool IsStorageStage(PreflightStage stage);

/// What share of the budget left a stage may take, per limit. Shares are relative to the stages
/// still to run, so a stage left out gives its share to the others.
struct StageShare {
  double time = 1;
  double requests = 1;
  double bytes = 1;
};
StageShare DefaultStageShare(PreflightStage stage);

struct PreflightProbeOptions {
  ProbeBudget budget{120, 50000, 64ull << 30};
  std::vector<PreflightStage> stages = {PreflightStage::kList, PreflightStage::kLatency,
                                        PreflightStage::kSmallFiles, PreflightStage::kThroughput};
  ListProbeOptions list;
  LatencyProbeOptions latency;
  SmallFileOptions smallfiles;
  ThroughputProbeOptions throughput;
  NicProbeOptions nic;    ///< host: the target's (RunPreflightProbes fills it in when empty)
  DiskProbeOptions disk;  ///< path: the cache directory; file_bytes: its test file
  CleanupRegistry* cleanup = nullptr;  ///< the disk stage registers its test file here
};

struct PreflightStageResult {
  PreflightStage stage = PreflightStage::kList;
  ProbeBudget budget;  ///< what the stage was given
  bool ran = false;    ///< false: no budget was left for it (result says so)
  ProbeResult result;
};

struct PreflightProbeResult {
  ProbeStatus status = ProbeStatus::kOk;
  std::string message;  ///< why not ok: the first stage that failed, or the stop; redacted
  std::vector<PreflightStageResult> stages;
  Evidence evidence;  ///< every stage's evidence; probe.errors.* summed over the stages
  uint64_t requests_sent = 0;
  uint64_t bytes_received = 0;
  double elapsed_s = 0;
};

/// The budget of the next stage: its share of `left`, relative to the shares of the stages still
/// to run (`share_sum` includes this stage's). Never more than `left`.
ProbeBudget StageBudget(const ProbeBudget& left, const StageShare& share,
                        const StageShare& share_sum);

/// Runs the stages against a storage target (Azure Blob, ADLS, the emulator, a plain URL).
PreflightProbeResult RunPreflightProbes(const HttpProbeEnv& env,
                                        const PreflightProbeOptions& options);
/// The same on a local or mounted directory: listing and small files (throughput and latency are
/// storage-protocol probes and are left out, with a note).
PreflightProbeResult RunLocalPreflightProbes(const std::string& dir,
                                             const PreflightProbeOptions& options,
                                             const ProgressFn& progress);

/// Whole-run status from the stages': unreachable when the first request found nobody, ok when
/// every stage measured what it set out to, partial when some did, failed when none did. Storage
/// stages decide unreachable and failed: a NIC described or a disk measured is no pre-flight of
/// a target that never answered.
ProbeStatus CombineStageStatus(const std::vector<PreflightStageResult>& stages);

}  // namespace feedcheck
