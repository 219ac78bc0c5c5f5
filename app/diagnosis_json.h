// The post-mortem's DiagnosisSummary as JSON and back: the `diagnosis` object of its report,
// which scripts read and from which `feedcheck report` lays a saved post-mortem out again (its
// GPU time, cause, confidence, estimate and node table).
#pragma once

#include <nlohmann/json.hpp>

#include "core/diagnosis_summary.h"

namespace feedcheck {

nlohmann::json DiagnosisToJson(const DiagnosisSummary& d);

/// Tolerant: a missing or mistyped field keeps its default.
DiagnosisSummary DiagnosisFromJson(const nlohmann::json& j);

}  // namespace feedcheck
