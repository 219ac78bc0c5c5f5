// Joins what the sources said into one story: the timeline sorted across lanes (data-runtime,
// gpu, storage) and cross-source facts: GPU utilisation while the data runtime downloaded and
// after, how long the GPUs waited for their first busy sample from the job's first activity,
// and the account's egress and throttling during the download.
#pragma once

#include <optional>

#include "core/evidence.h"

namespace feedcheck::analyzers {

struct CorrelationInputs {
  double gpu_busy_threshold_percent = 10;
  std::optional<double> first_gpu_sample_epoch_s;
  std::optional<double> first_gpu_busy_epoch_s;
  std::string first_gpu_busy_source;  ///< "file:line" of that sample
};

/// Adds correlation facts to `evidence` (which holds every source's facts, series and
/// timeline) and sorts its timeline by start time. Returns the keys it set.
std::vector<std::string> Correlate(const CorrelationInputs& inputs, Evidence* evidence);

/// Mean of the series' y over x in [start, end], each point weighted equally; nullopt when no
/// point falls inside.
std::optional<double> MeanWithin(const Series& series, double start, double end);

}  // namespace feedcheck::analyzers
