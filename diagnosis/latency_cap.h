// The read rate a node's requests in flight allow at the latency they met (Little's law): the
// data runtime's threads x the bytes one request moves / one request's end-to-end time. A node
// reading at about this rate is held by its requests' latency (a distant account, small files,
// few threads); one reading well below it was not asking for more (its loader, its own code).
#pragma once

#include <optional>
#include <string>

#include "core/fact_set.h"

namespace feedcheck::diagnosis {

/// The runtime's documented defaults ("Access data in a job", Azure Machine Learning
/// documentation, the download and mount settings tables).
inline constexpr double kDefaultThreadsPerCore = 4;         // RSLEX_DOWNLOADER_THREADS, mount
inline constexpr double kDefaultMountReadBlockBytes = 2e6;  // DATASET_MOUNT_READ_BLOCK_SIZE
inline constexpr double kDefaultMountPrefetchBlocks = 32;   // DATASET_MOUNT_READ_BUFFER_BLOCK_COUNT
/// A download reads a large file in ranged GETs; rslex does not log their size. 4 MiB is the
/// Azure Storage SDKs' default chunk of a ranged download (an assumption, stated as one).
inline constexpr double kAssumedDownloadRangeBytes = 4.0 * 1024 * 1024;

struct LatencyCap {
  double gbps = 0;           ///< per node
  double threads = 0;        ///< requests in flight per node
  double request_bytes = 0;  ///< what one request moves
  double e2e_ms = 0;         ///< one request's end-to-end time (SuccessE2ELatency)
  std::string threads_from;  ///< the setting, or "NUMBER_OF_CPU_CORES x 4"
  /// The requests really in flight, not a bound on them: a download's threads, a mount's
  /// readers known, or a mount's large files read by no more threads than one reader
  /// prefetches (then every count of readers keeps them all busy).
  bool in_flight_known = false;
};

/// What one of the job's reads moved, where no file size is declared: the blob logs' median
/// GetBlob response (per request: a few other clients' large reads do not move it), else the
/// account's bytes per request (Egress over Transactions, a mean over every client). None when
/// neither was read.
std::optional<double> ReadRequestBytes(const FactSet& facts);

/// The cap for the job's input mode (`download`: true for a download, false for a mount), from
/// the facts: the requests in flight (a download's threads; a mount's threads, or its readers x
/// the prefetch depth when fewer, or for files under one block the readers alone), the job's
/// file size (else ReadRequestBytes) capped by the read block, and the
/// account's SuccessE2ELatency. None when any of them is unknown.
std::optional<LatencyCap> LatencyCapOf(const FactSet& facts, bool download);

/// The cap for the job's input mode as the facts say it (runtime.mode, else workload.mode);
/// none when the mode is not known.
std::optional<LatencyCap> LatencyCapForJob(const FactSet& facts);

/// Adds `runtime.read_threads`, `runtime.request_bytes` and `runtime.latency_cap_gbps` (derived
/// facts, so that reports show the figures the ledger used) for the job's input mode.
void AddLatencyCapFacts(FactSet* facts);

}  // namespace feedcheck::diagnosis
