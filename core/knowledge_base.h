// The knowledge base: VM sizes and storage targets loaded from data/*.yaml (every row citing its
// source), plus user override files. Rows become facts with provenance "knowledge base".
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostic.h"
#include "core/fact_set.h"

namespace feedcheck {

/// One Azure VM size. Sizes in bytes, rates in Gbit/s (1e9 bit/s).
struct VmSize {
  std::string name;  ///< "Standard_ND96asr_v4"
  int vcpus = 0;
  int gpus = 0;
  std::string gpu_model;  ///< "A100 40GB"; empty for CPU sizes
  double ram_bytes = 0;
  double local_disk_bytes = 0;  ///< temp/NVMe disk the data runtime can cache to; 0 when none
  double nic_gbps = 0;          ///< expected network bandwidth, all NICs together
  std::string source;           ///< where the figures come from
  std::string file;             ///< YAML file the row was read from
  int line = 0;                 ///< 1-based line of the row in `file`
  std::string note;             ///< optional caveat ("the size page lists no bandwidth")
  /// Retired sizes stay known (old jobs and logs name them) but are flagged wherever used.
  std::string retired_on;      ///< "2025-09-30"; empty while the size is offered
  std::string retired_source;  ///< the public retirement notice
  /// The whole VM's pay-as-you-go price (Linux) where and when it was seen, citing its source;
  /// < 0: no public price known (money then needs --gpu-hour-price).
  double price_usd_per_hour = -1;
  std::string price_region;  ///< "eastus"
  std::string price_as_of;   ///< "2026-11-09": the date the figure was read
  std::string price_source;  ///< the public page or data set (title, URL)
};

/// The price of read operations on one blob access tier (standard GPv2, LRS), per 10,000
/// operations, where and when it was seen, citing its source.
struct StorageReadPrice {
  std::string name;  ///< the access tier: "hot", "cool"
  double usd_per_10k_reads = 0;
  std::string region;
  std::string as_of;
  std::string source;
  std::string note;
  std::string file;
  int line = 0;
};

/// One storage target profile. A limit of 0 means "no published limit".
struct StorageTarget {
  std::string name;  ///< "standard_gpv2", "standard_gpv2_legacy_120", ...
  std::string kind;  ///< account.kind: standard_gpv2 | premium_block_blob | azure_files_premium |
                     ///< netapp_files
  double egress_gbps = 0;
  double ingress_gbps = 0;
  double requests_per_s = 0;
  std::string source;
  std::string file;
  int line = 0;
  std::string note;
};

class KnowledgeBase {
 public:
  /// Row name for standard GPv2 in the listed regions, and elsewhere.
  static constexpr std::string_view kStandardListed = "standard_gpv2";
  static constexpr std::string_view kStandardOther = "standard_gpv2_other_regions";
  /// A standard GPv2 account with a hierarchical namespace: the standard limits of its region.
  static constexpr std::string_view kAdlsGen2 = "adls_gen2";

  /// Loads the embedded knowledge base (data/*.yaml compiled in), each file replaced by
  /// data_dir's file of the same name when data_dir holds one, then each override file (rows with
  /// the same name replace built-ins, new rows add, listed regions add). Bad rows become
  /// diagnostics with file:line and are skipped; the rest is kept. Returns false when any error was
  /// met (the good rows are still loaded into `out`).
  static bool Load(const std::string& data_dir, const std::vector<std::string>& override_files,
                   KnowledgeBase* out, DiagnosticList* diagnostics);

  /// Loads one YAML file's rows into this knowledge base (replacing rows of the same name).
  /// Rows and diagnostics name the file as `display_path` when given (built-ins say
  /// "data/vm_sizes.yaml", the same on every machine and in the source tree).
  bool LoadFile(const std::string& path, DiagnosticList* diagnostics,
                const std::string& display_path = "");
  /// The same for a file's text, named `shown` in rows and diagnostics.
  bool LoadText(const std::string& shown, const std::string& text, DiagnosticList* diagnostics);

  /// Case-insensitive; the "Standard_" prefix is optional ("nd96asr_v4").
  const VmSize* FindVm(std::string_view name) const;
  /// Near-miss size names for an unknown one, best first.
  std::vector<std::string> SuggestVm(std::string_view name) const;
  /// Case-insensitive: "standard_gpv2", "standard_gpv2_legacy_120", ...
  const StorageTarget* FindTarget(std::string_view name) const;
  /// Read-operation price of an access tier ("hot", "cool"), case-insensitive; null if unknown.
  const StorageReadPrice* FindReadPrice(std::string_view tier) const;
  std::vector<std::string> SuggestTarget(std::string_view name) const;
  /// Listed region -> standard_gpv2 (200/60 Gbit/s, 40,000 req/s), else
  /// standard_gpv2_other_regions (50/25, 20,000).
  const StorageTarget& TargetForRegion(std::string_view region) const;
  /// "eastus", "East US", "east-us" are all accepted.
  bool IsListedRegion(std::string_view region) const;
  /// A listed region or one of `other_regions` (every Azure region the knowledge base knows).
  bool IsKnownRegion(std::string_view region) const;
  /// Near-miss region names ("eastus" for "eastuss"), normalised, best first.
  std::vector<std::string> SuggestRegion(std::string_view region) const;

  /// node.sku, node.vcpus, node.gpus, node.gpu_model, node.ram_bytes, node.nic_gbps,
  /// node.local_disk_bytes with provenance "knowledge base: <file>:<line> <name>".
  void AddNodeFacts(const VmSize& vm, FactSet* facts) const;
  /// account.kind and the published limits (absent limits are not added).
  void AddAccountFacts(const StorageTarget& t, FactSet* facts) const;

  const std::vector<VmSize>& vms() const { return vms_; }
  const std::vector<StorageTarget>& targets() const { return targets_; }
  const std::vector<StorageReadPrice>& read_prices() const { return read_prices_; }
  const std::vector<std::string>& listed_regions() const { return listed_regions_; }

 private:
  std::vector<VmSize> vms_;
  std::vector<StorageTarget> targets_;
  std::vector<StorageReadPrice> read_prices_;
  std::vector<std::string> listed_regions_;
  std::vector<std::string> other_regions_;
};

/// "Standard_NC6s_v3 (retired 2025-09-30)" for a retired size, else the name.
std::string VmLabel(const VmSize& vm);

/// "East US" -> "eastus": lower case, no spaces, '-' or '_'.
std::string NormalizeRegion(std::string_view region);

}  // namespace feedcheck
