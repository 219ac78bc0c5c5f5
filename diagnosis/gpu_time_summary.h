// The post-mortem's spine: how much GPU time the job lost of how much sampled, read from the
// gpu.* facts the analyzers set. Where it went (the sentence a report leads with, what each cause
// cost) is the idle ledger's alone (ledger_text.h, idle_ledger.h).
#pragma once

#include <string>

#include "core/diagnosis_summary.h"
#include "core/fact_set.h"

namespace feedcheck::diagnosis {

/// `known` is false when no GPU samples were read.
GpuTimeLost SummarizeGpuTime(const FactSet& facts);

/// "108 GPU-minutes", "3.2 GPU-hours", "40 GPU-seconds".
std::string FormatGpuTime(double gpu_s);

}  // namespace feedcheck::diagnosis
