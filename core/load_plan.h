// Sizing a dataset read offline: GET and List request counts, best-case load times over the NIC
// and over the node's share of account egress, whether it fits on the local disk, a lower bound
// per epoch, and the request overhead of small files (pure arithmetic, no I/O).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/fact_set.h"

namespace feedcheck {

/// Azure Blob returns at most 5,000 entries per List page (blobs and prefixes alike).
inline constexpr double kListPageEntries = 5000;
/// The guide's read block and small-file threshold ("files smaller than a 4-MB block").
inline constexpr double kDefaultBlockBytes = 4.0 * 1024 * 1024;
inline constexpr double kSmallFileBytes = 4.0 * 1024 * 1024;
/// DATASET_RESERVED_FREE_DISK_SPACE default: the data runtime never fills the last 150 MB of the
/// disk. Taken as 150 MiB, the larger reading, so "fits" errs on the safe side.
inline constexpr double kRuntimeReservedDiskBytes = 150.0 * 1024 * 1024;
/// Assumed time per GET request when none is given: a typical in-region Blob time to first
/// byte. `feedcheck probe latency` measures the real one; `--request-latency-ms` sets it.
inline constexpr double kDefaultRequestLatencyMs = 10;

/// The dataset shape and the machine; absent values are nullopt.
struct PlanInput {
  std::optional<double> dataset_bytes;
  std::optional<double> files;
  std::optional<double> mean_file_bytes;
  std::optional<double> median_file_bytes;
  std::optional<double> dirs;
  std::optional<double> files_per_dir;
  double block_bytes = kDefaultBlockBytes;
  std::optional<double> nic_gbps;          ///< from --sku or --nic-gbps
  std::optional<double> local_disk_bytes;  ///< from --sku
  int nodes = 1;
  std::optional<double> account_egress_gbps;
  std::optional<double> account_requests_per_s;
  double epochs = 1;
  std::optional<double> request_latency_ms;  ///< nullopt: kDefaultRequestLatencyMs, marked assumed
};

struct PlanResult {
  // Shape, completed from what was given.
  double dataset_bytes = 0;
  double files = 0;
  double mean_file_bytes = 0;
  std::optional<double> dirs;  ///< set when a dirs x files layout is known
  std::optional<double> files_per_dir;
  double block_bytes = kDefaultBlockBytes;
  int nodes = 1;
  double epochs = 1;

  // Requests.
  double requests_per_file = 1;   ///< 1 below one block, else ceil(mean / block)
  double get_requests = 0;        ///< files x requests_per_file
  double list_requests_flat = 0;  ///< ceil(files / 5,000), at least 1
  double list_requests_walk = 0;  ///< directory walk (equals flat when no layout is known)
  bool walk_from_layout = false;

  // Time and space.
  std::optional<double> load_s_nic;         ///< bytes over the NIC
  std::optional<double> load_s_share;       ///< bytes over account egress / nodes
  std::optional<double> usable_disk_bytes;  ///< local disk minus the runtime's reserve
  std::optional<bool> fits_on_disk;
  std::optional<double> epoch_s_min;  ///< one pass over the data by all nodes together
  std::string epoch_bound;  ///< what sets epoch_s_min: "NIC", "account egress", "request rate"

  // Small files.
  double request_latency_ms = kDefaultRequestLatencyMs;
  bool latency_assumed = true;
  double request_overhead_s =
      0;  ///< get_requests x latency, summed (divide by concurrent requests)
  double small_file_basis_bytes = 0;
  std::string small_file_basis;  ///< "median" or "mean"
  bool small_files = false;      ///< basis < 4 MiB
};

/// Pages to list one directory of `entries` entries: ceil(entries / 5,000), at least 1 (an empty
/// directory still costs one request).
double ListPages(double entries);
/// Directory-by-directory walk of `dirs` directories of `files_per_dir` files under one parent:
/// the parent's pages (its entries are the dirs) plus each directory's pages.
/// 1,000,000 x 10 -> 200 + 1,000,000 = 1,000,200; 1,000 x 10,000 -> 1 + 1,000 x 2 = 2,001.
double WalkListRequests(double dirs, double files_per_dir);
/// GET requests for `files` files of `file_bytes` read in `block_bytes` blocks.
double GetRequests(double files, double file_bytes, double block_bytes);

/// Fills `out`; false with a message naming the flag when the shape is incomplete or
/// contradictory.
bool ComputePlan(const PlanInput& input, PlanResult* out, std::string* error);

/// Adds the plan.* facts (origin derived; provenance `source`).
void AddPlanFacts(const PlanResult& result, const std::string& source, FactSet* facts);

}  // namespace feedcheck
