// The post-mortem's conclusion as the generic parts of a report: the verdict, the GPU time lost
// as the headline, the findings in the order the diagnosis ranked them, and one section ("GPU
// time and cause": the time attributed to the cause, the fix, what it buys, the nodes table)
// whose JSON is the `diagnosis` object scripts and `feedcheck compare` read. No reporter knows
// the post-mortem: they lay out these parts as they do every command's.
#pragma once

#include "core/diagnosis_summary.h"
#include "diagnosis/postmortem.h"
#include "reports/report.h"

namespace feedcheck::app {

/// The key of the post-mortem's section: its JSON object's name in a saved report.
inline constexpr const char* kDiagnosisSection = "diagnosis";

/// Puts what the diagnosis concluded into `report`: evidence, verdict, findings, settings and
/// the diagnosis (PutDiagnosis).
void PutPostmortem(diagnosis::Postmortem postmortem, Report* report);

/// The headline, the ranked findings and the "GPU time and cause" section of `d`, replacing
/// a section of the same key.
void PutDiagnosis(const DiagnosisSummary& d, Report* report);

/// The diagnosis a report carries (its section's JSON, also of a saved report read back);
/// `present` false when it has none.
DiagnosisSummary DiagnosisOf(const Report& report);

/// A saved report read back carries its sections' JSON only: lays them out again (the
/// post-mortem's, the fleet's), so `feedcheck report` renders what the run rendered.
void RestoreSections(Report* report);

}  // namespace feedcheck::app
