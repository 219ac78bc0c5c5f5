// The fleet's FleetSummary as JSON and back: one object per job ("jobs") and the totals
// ("totals": by cause, fixes ranked, accounts), so a script reads a fleet's post-mortem and
// `feedcheck report` re-renders a saved one.
#pragma once

#include <nlohmann/json.hpp>

#include "core/fleet_summary.h"

namespace feedcheck {

/// Unknown figures (< 0 in the model) are null; money only when a price was given.
nlohmann::json FleetToJson(const FleetSummary& fleet);

/// Tolerant: a missing or mistyped field keeps its default.
FleetSummary FleetFromJson(const nlohmann::json& j);

}  // namespace feedcheck
