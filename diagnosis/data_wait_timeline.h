// The steps' data-wait share on the wall clock, for the timeline beside GPU utilisation: for each
// profiled step, the share of its time the ranks' loops waited in the DataLoader's `__next__`
// (their steps of that number together), in percent, at the step's start, so it reads on the
// same 0-100 axis as GPU utilisation. Its title says what the traces covered (which steps, how
// many ranks): profilers record a few steps at a time. Computed here; the HTML only draws it.
#pragma once

#include <optional>
#include <vector>

#include "analyzers/torch_steps.h"
#include "core/evidence.h"

namespace feedcheck::diagnosis {

/// The key of the series in the report's evidence.
inline constexpr const char* kDataWaitSeries = "trace.data_wait_percent";

/// The series over the ranks placed on the wall clock (a trace without a clock cannot be
/// lined up with GPU samples); nullopt when none is, or none has a step.
std::optional<Series> DataWaitTimeline(const std::vector<analyzers::RankFigures>& ranks);

}  // namespace feedcheck::diagnosis
