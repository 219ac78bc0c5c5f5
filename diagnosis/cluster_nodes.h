// A multi-node job read as one cluster: the job folder with one subfolder per node
// (job/<node>/system_logs/..., job/<node>/gpu/...) is read node by node for the per-node table,
// and the node that held the others back (the straggler) is named.
#pragma once

#include <string>
#include <vector>

#include "analyzers/line_analyzer.h"
#include "core/evidence.h"
#include "core/fact_set.h"
#include "reports/diagnosis_summary.h"

namespace feedcheck::diagnosis {

/// One row per node subfolder of `job_dir` that holds anything readable; empty unless there
/// are two or more. With `job` (the whole job's evidence), a node whose GPU samples are in its
/// folder gets its GPU time lost split by the job's phases (its buckets against the job's
/// timeline and the account's egress).
std::vector<NodeRow> ReadNodeFolders(const std::string& job_dir,
                                     const analyzers::AnalyzerOptions& options,
                                     const Evidence* job = nullptr);

/// Rows from the per-node GPU facts (gpu.node_*) of the whole job, for nodes not in `rows` yet
/// (a job folder with one GPU file per node but one set of logs).
void AddGpuNodeRows(const FactSet& facts, std::vector<NodeRow>* rows);

/// Marks the node whose download took well longer than the others' (else whose GPUs were far
/// less busy) and returns why ("node-2: download 21 min 4 s, the others 8 min 30 s"), or "".
std::string MarkStraggler(std::vector<NodeRow>* rows);

}  // namespace feedcheck::diagnosis
