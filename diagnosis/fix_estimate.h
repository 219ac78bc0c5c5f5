// What fixing the cause would buy, from the supply model (core/supply_model.h): the data phase
// sped up by what the fix adds (more accounts, more threads, no wait for a download), and the
// GPU idle share that leaves. Always an estimate, with its assumptions spelled out.
#pragma once

#include "core/bottleneck.h"
#include "core/diagnosis_summary.h"
#include "core/fact_set.h"

namespace feedcheck::diagnosis {

/// What the idle ledger tells the replay: the GPU time the cause's state held (negative: no
/// ledger; the fix moves that time only, the rest of the data phase waits as before), and the
/// account's Egress that was other clients' (0: none shown; it stays when the limit is lifted).
struct LedgerReplay {
  double cause_gpu_s = -1;
  double others_egress_gbps = 0;
};

/// `available` is false (and `text` says why) when the facts do not allow an estimate.
FixEstimate EstimateFix(Bottleneck cause, const FactSet& facts, const GpuTimeLost& gpu,
                        const LedgerReplay& replay = {});

/// A straggler that catches up: the data phase ends when the slow node's download takes as long
/// as the others' (`slow_s` -> `others_s`), everything else equal.
FixEstimate EstimateCatchUp(const FactSet& facts, const GpuTimeLost& gpu, const std::string& node,
                            double slow_s, double others_s);

}  // namespace feedcheck::diagnosis
