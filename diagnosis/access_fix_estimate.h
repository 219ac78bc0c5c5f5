// What fixing a refused access buys. The job failed because storage refused it (a credential
// that expired, a path that points at nothing, an output that already exists): the fix is a
// change to the job, not more throughput. What it recovers is computed from the GPU samples:
// the GPU time lost from the first refusal of the burst that ended the job; what it cannot
// recover (the work done before, unless the job resumes from a checkpoint) is said as plainly,
// and so is every case where the logs do not allow a figure.
#pragma once

#include "core/diagnosis_summary.h"
#include "core/evidence.h"

namespace feedcheck::diagnosis {

/// What went wrong, from the data runtime's error and the refused statuses.
enum class AccessRefusal { kCredential, kPathNotFound, kOutputExists, kUnknown };

AccessRefusal ClassifyAccessRefusal(const FactSet& facts);

/// `available` is false (and `text` says why, and what to change) when the refusal's time or
/// the GPU samples are missing, or when the job never got past reading its input (nothing
/// shows how it runs once it can read). `not_won_gpu_s`: GPU time lost that putting the access
/// right does not win back (nodes that read nothing and met no failure: their own reason).
FixEstimate EstimateAccessFix(const Evidence& evidence, const GpuTimeLost& gpu,
                              double not_won_gpu_s = 0);

}  // namespace feedcheck::diagnosis
