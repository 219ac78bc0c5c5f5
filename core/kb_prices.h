// The knowledge base's prices: a VM size's pay-as-you-go price fields and the `read_prices`
// rows (read operations per 10,000 on a blob access tier). Every price names its region, the
// date it was read and its public source; a price without them is an error at file:line.
#pragma once

#include <yaml-cpp/yaml.h>

#include <optional>

#include "core/kb_row_reader.h"
#include "core/knowledge_base.h"

namespace feedcheck {

/// Reads price_usd_per_hour, price_region, price_as_of, price_source of a vm_sizes row into
/// `vm`. All four or none; false (with a diagnostic) when some are missing or bad.
bool ReadVmPrice(const YAML::Node& row, kb::RowReader* r, kb::FileReader* file, VmSize* vm);

/// One `read_prices` row: tier, usd_per_10k_reads, region, as_of, source, note (optional).
std::optional<StorageReadPrice> ReadStorageReadPrice(const YAML::Node& row, kb::FileReader* file);

}  // namespace feedcheck
