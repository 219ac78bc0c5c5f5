// The post-mortem's DiagnosisSummary as JSON and back, so `feedcheck report` re-renders a saved
// post-mortem with its GPU time, cause, confidence, estimate and node table.
#pragma once

#include <nlohmann/json.hpp>

#include "core/diagnosis_summary.h"

namespace feedcheck {

nlohmann::json DiagnosisToJson(const DiagnosisSummary& d);

/// Tolerant: a missing or mistyped field keeps its default.
DiagnosisSummary DiagnosisFromJson(const nlohmann::json& j);

}  // namespace feedcheck
