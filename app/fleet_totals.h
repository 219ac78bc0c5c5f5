// The fleet's totals from its rows: GPU time lost by cause, the fixes ranked by the GPU time
// they win back, the storage accounts the jobs shared (one finding per account however many
// jobs it throttled), and, with a price the user gave, every figure in money.
#pragma once

#include "reports/fleet_summary.h"

namespace feedcheck::app {

/// Fills the totals of `fleet` from `fleet->jobs` (which it does not reorder).
void AddFleetTotals(FleetSummary* fleet);

/// Prices the GPU time of every row and total at `usd_per_gpu_hour` (the user's price: no
/// built-in table), and says so in `price_note`. A price < 0 leaves every *_usd unset.
void PriceFleet(double usd_per_gpu_hour, FleetSummary* fleet);

}  // namespace feedcheck::app
