// What fixing the cause would buy, from the supply model (core/supply_model.h): the data phase
// sped up by what the fix adds (more accounts, more threads, no wait for a download), and the
// GPU idle share that leaves. Always an estimate, with its assumptions spelled out.
#pragma once

#include "core/bottleneck.h"
#include "core/diagnosis_summary.h"
#include "core/fact_set.h"

namespace feedcheck::diagnosis {

/// `available` is false (and `text` says why) when the facts do not allow an estimate.
FixEstimate EstimateFix(Bottleneck cause, const FactSet& facts, const GpuTimeLost& gpu);

/// A straggler that catches up: the data phase ends when the slow node's download takes as long
/// as the others' (`slow_s` -> `others_s`), everything else equal.
FixEstimate EstimateCatchUp(const FactSet& facts, const GpuTimeLost& gpu, const std::string& node,
                            double slow_s, double others_s);

}  // namespace feedcheck::diagnosis
