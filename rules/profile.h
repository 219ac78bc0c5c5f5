// A workload profile: what the user declares about the job (VM size, nodes, region, dataset
// shape, epochs, access pattern, readers, input mode, GPU demand) as a small YAML file. Each
// field becomes a declared fact with provenance file:line; the knowledge base then adds the
// node.* and account.* facts for the VM size and region.
//
//   nodes: 12
//   sku: Standard_ND96asr_v4
//   region: eastus                # storage account region
//   account: standard_gpv2        # optional storage target name from the knowledge base
//   dataset: {bytes: 2TB, files: 2000000, median_file: 500KB, dirs: 1000}
//   workload: {epochs: 3, access: shuffled_files, readers: 8, mode: ro_mount}
//   gpu: {preset: resnet50}       # or {per_gpu: 0.2GB/s} or {per_node: 12Gbit/s}
//   node: {nic: 24Gbit/s}         # optional: overrides of knowledge-base values
//   facts: {probe.throughput.gbps: 18Gbit/s}   # optional: any registered fact
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostic.h"
#include "core/fact_set.h"

namespace feedcheck::rules {

struct Profile {
  FactSet facts;               ///< declared facts, each with the file:line it came from
  std::string sku;             ///< as written, for the knowledge base
  std::string region;          ///< storage account region, as written
  std::string account;         ///< storage target name, as written
  std::string compute_region;  ///< the compute's region, as written
  Provenance compute_region_provenance;
  SourceLocation sku_location;
  SourceLocation account_location;
  SourceLocation region_location;
};

/// `account.same_region` where the profile names the compute's region and the account's region
/// is known (from the profile, a flag or the storage metrics), at the compute_region line;
/// nothing otherwise.
std::optional<Fact> SameRegionFact(const Profile& profile, std::string_view account_region);

/// A GPU input-rate preset (per GPU of the H100 class; MLPerf Storage workloads).
struct GpuPreset {
  const char* name;
  double gbytes_per_s;
  const char* source;
};
const std::vector<GpuPreset>& GpuPresets();

/// Reads a profile. Bad fields become diagnostics with file:line and are skipped; returns
/// false only when the file cannot be read or is not a YAML mapping.
bool LoadProfile(const std::string& path, Profile* out, DiagnosticList* diagnostics);
bool LoadProfileText(const std::string& name, const std::string& content, Profile* out,
                     DiagnosticList* diagnostics);

/// Facts for a declared value: "4MiB" into dataset.median_file_bytes etc. Shared with the job
/// file reader. Returns false (and fills `error`) when the value does not fit the key's unit.
bool ParseFactValue(const std::string& key, const std::string& text, Fact* out, std::string* error);

}  // namespace feedcheck::rules
