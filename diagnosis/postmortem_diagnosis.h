// The post-mortem's conclusion, from the rules' findings and what was observed: the GPU time
// lost, the one cause with a confidence (confirmed when two independent sources agree, likely
// with one, inconclusive naming the file that would settle it), the findings ordered by the GPU
// time they cost, advice that contradicts the cause marked secondary, and what the fix buys.
#pragma once

#include <vector>

#include "analyzers/job_nodes.h"
#include "core/diagnosis_summary.h"
#include "diagnosis/postmortem.h"
#include "rules/rule_set.h"

namespace feedcheck::diagnosis {

/// Under this share of GPU time lost while data loaded, storage did not cost the job: the
/// verdict is "none found".
inline constexpr double kBusyIdleFraction = 0.10;

/// workload.mode from the mode the data runtime used (runtime.mode: download -> download,
/// mount -> ro_mount) unless a profile declared one, so the input-mode rules read what the
/// job did.
void AddObservedWorkloadFacts(FactSet* facts);

/// Evaluates `rules` over postmortem->evidence.facts and writes the conclusion into
/// `postmortem`: findings (impact set, ordered by it, contradicted or contradicting ones
/// secondary), rules not evaluated, the settings of the primary findings, the verdict and
/// postmortem->diagnosis. `nodes`: the per-node rows of a multi-node job (may be empty).
void DiagnosePostmortem(const rules::RuleSet& rules, std::vector<NodeRow> nodes,
                        Postmortem* postmortem);
/// The same, with what each node folder showed (`node_evidence`, analyzers/job_nodes.h), so the
/// idle ledger charges each node's idle time by what that node met.
void DiagnosePostmortem(const rules::RuleSet& rules, std::vector<NodeRow> nodes,
                        const std::vector<analyzers::NodeEvidence>& node_evidence,
                        Postmortem* postmortem);

}  // namespace feedcheck::diagnosis
