// The post-mortem's spine: how much GPU time the job lost and while the data runtime did what,
// read from the gpu.* facts the analyzers set. The sentence a report leads with, and what each
// cause cost, are the idle ledger's (ledger_text.h, idle_ledger.h).
#pragma once

#include <string>

#include "core/diagnosis_summary.h"
#include "core/fact_set.h"

namespace feedcheck::diagnosis {

/// `known` is false when no GPU samples were read.
GpuTimeLost SummarizeGpuTime(const FactSet& facts);

/// "108 GPU-minutes", "3.2 GPU-hours", "40 GPU-seconds".
std::string FormatGpuTime(double gpu_s);

/// GPU time lost while the data was loading or read (download + mount; all of it when the
/// phases are unknown).
double DataPhaseLostGpuS(const GpuTimeLost& gpu);

}  // namespace feedcheck::diagnosis
