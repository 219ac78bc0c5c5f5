// A multi-node job read as one cluster: the per-node table from what each node's own files
// showed (read once, by the analyzers: analyzers/job_nodes.h), and the node that held the
// others back (the straggler) is named. No file is read here.
#pragma once

#include <string>
#include <vector>

#include "analyzers/job_nodes.h"
#include "core/diagnosis_summary.h"
#include "core/fact_set.h"

namespace feedcheck::diagnosis {

/// One row per node of `nodes` (what each node folder's files showed); empty unless there are
/// two or more. Their GPU time lost is split by the idle ledger (PutLedgerOnNodes).
std::vector<NodeRow> NodeRowsOf(const std::vector<analyzers::NodeEvidence>& nodes);

/// Rows from the per-node GPU facts (gpu.node_*) of the whole job, for nodes not in `rows` yet
/// (a job folder with one GPU file per node but one set of logs).
void AddGpuNodeRows(const FactSet& facts, std::vector<NodeRow>* rows);

/// Each row's GPU time lost and its states from the ledger's own per-node account, when it was
/// kept per node (`ledger.nodes`): the node's figure is the sum of its states, so the rows sum to
/// the job's GPU time lost. Rows of a ledger kept for the job as a whole keep their GPU samples'.
void PutLedgerOnNodes(const LedgerSummary& ledger, std::vector<NodeRow>* rows);

/// The rows in the order of their GPU time lost, largest first (not known: last; equals keep
/// their order): a table cut to its first rows shows the nodes that cost the most.
void OrderByGpuTimeLost(std::vector<NodeRow>* rows);

/// Marks the node whose download took well longer than the others' (else whose GPUs were far
/// less busy) and returns why ("node-2: download 21 min 4 s, the others 8 min 30 s"), or "".
std::string MarkStraggler(std::vector<NodeRow>* rows);

}  // namespace feedcheck::diagnosis
