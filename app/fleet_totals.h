// The fleet's totals from its rows: GPU time lost by cause, the fixes ranked by the GPU time
// they win back, the storage accounts the jobs shared (one finding per account however many
// jobs it throttled), and, with a price the user gave, every figure in money.
#pragma once

#include <string>
#include <vector>

#include "core/fleet_summary.h"
#include "core/knowledge_base.h"

namespace feedcheck::app {

/// Fills the totals of `fleet` from `fleet->jobs` (which it does not reorder). The causes come
/// storage ones first (most GPU time first), then those that are not storage or not known: "none
/// found" is not ranked as a cause.
void AddFleetTotals(FleetSummary* fleet);

/// Prices the GPU time of every row and total: at `given_usd_per_gpu_hour` (--gpu-hour-price)
/// when >= 0, else each job at its VM size's pay-as-you-go price over its GPUs from `kb`.
/// `price_note` says every figure is an estimate and from which price(s); the totals add the
/// priced jobs only. Returns what could not be priced ("no public price known for SKU X: give
/// --gpu-hour-price (3 jobs)"), one line per size, for the caller to report.
std::vector<std::string> PriceFleet(double given_usd_per_gpu_hour, const KnowledgeBase& kb,
                                    FleetSummary* fleet);

}  // namespace feedcheck::app
