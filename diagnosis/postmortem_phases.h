// The phases of DiagnosePostmortem (postmortem_diagnosis.h) that its two files share: what the
// diagnosis reasons over, the cause as it is being settled, and the phase that states the cause
// in words (cause_statement.cpp). Internal to diagnosis/.
#pragma once

#include <string>
#include <vector>

#include "core/diagnosis_summary.h"
#include "core/evidence.h"
#include "core/finding.h"
#include "diagnosis/account_view.h"
#include "diagnosis/idle_ledger.h"
#include "diagnosis/idle_nodes.h"

namespace feedcheck::diagnosis {

// What the diagnosis reasons over, read once: the GPU time lost, what the account showed and
// the nodes that read nothing. What each cause cost is the idle ledger's (idle_ledger.h).
struct Situation {
  const Evidence* evidence = nullptr;
  const FactSet* facts = nullptr;
  GpuTimeLost gpu;
  AccountView account;
  // Figures from a loopback or emulator target (a demo's Azurite) confirm nothing about the
  // job's storage account.
  bool probes_saw_storage = true;
  std::vector<IdleNodeReadingNothing> idle_nodes;  ///< GPUs idle while they read nothing
};

// The cause as it is settled: the findings that may be it, and what else explains the time.
struct CauseChoice {
  const Finding* cause = nullptr;           // observed
  const Finding* capacity_cause = nullptr;  // arithmetic on paper
  bool served_fast = false;
  bool busy_unexplained = false;  // 503s that no named limit explains
  double busy_burst_gpu_s = -1;   // a 503 burst too short to matter: what it cost
  Bottleneck cls = Bottleneck::kNone;
  std::string rule_id, rule_title;  // copies: ranking moves the findings
};

/// The cause the idle ledger chose (`cause`, its largest storage state or what was not
/// storage), stated: by the finding of that state that observed it, else by the ledger's own
/// figures (a node's NIC, the job's writes, distance), with its confidence, the sources that
/// agree, the fix and the file that would settle an inconclusive one; sets the cause's class
/// and rule in `c`. What the cause cost is not set here: it is the ledger's share of `cause`.
void StateLedgerCause(const Situation& s, const std::vector<Finding>& findings,
                      const IdleLedger& ledger, IdleState cause, CauseChoice* c,
                      DiagnosisSummary* d);

}  // namespace feedcheck::diagnosis
