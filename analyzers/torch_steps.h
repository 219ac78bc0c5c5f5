// The training loop's own clock: per rank and per step of a PyTorch profiler trace
// (analyzers/torch_trace.h), the step's time (`ProfilerStep#N`), the time the loop waited in
// the DataLoader's `__next__`, and on GPU traces the GPU's busy and idle time inside the step and
// how much of that idle time fell while the loop waited for data. Placed on the wall clock
// (Kineto: baseTimeNanoseconds + ts, or ts when it is already the epoch; the legacy form: the
// file name's millisecond stamp, approximate) and on the node, as facts (`trace.*`), series and
// a timeline lane the post-mortem and the HTML read.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/torch_trace.h"
#include "core/evidence.h"

namespace feedcheck::analyzers {

/// How a trace's times were put on the wall clock.
enum class TraceClock {
  kBaseTime,   ///< Kineto's baseTimeNanoseconds + ts
  kEpoch,      ///< ts already microseconds since the epoch (Kineto without baseTimeNanoseconds)
  kFileStamp,  ///< the legacy form: the file name's millisecond stamp, taken as the trace's end
  kNone,       ///< not placed: the figures hold, the timeline does not
};
std::string_view TraceClockName(TraceClock clock);

struct StepFigures {
  int64_t number = 0;
  double start_epoch_s = 0;  ///< on the wall clock (the trace's own seconds when not placed)
  double step_s = 0;
  double wait_s = 0;  ///< inside the step, in the DataLoader's __next__
  // GPU traces only (gpu false: zero).
  double gpu_busy_s = 0;
  double gpu_idle_s = 0;
  double gpu_idle_in_wait_s = 0;  ///< of gpu_idle_s, while the loop waited for data
};

struct RankFigures {
  std::string
      rank;  ///< distributedInfo's rank, else from the file name ("rank-3"), else its worker
  std::string node;  ///< the job folder's node, else the legacy worker name's host, else ""
  std::string path;
  bool kineto = false;
  bool gpu = false;  ///< the trace holds GPU activity
  TraceClock clock = TraceClock::kNone;
  double offset_s = 0;             ///< epoch seconds = ts / 1e6 + offset_s
  std::vector<StepFigures> steps;  ///< in step order
  uint64_t events = 0;
  size_t more_files = 0;  ///< other files (profiling windows) of the same rank merged into this
  // Sums over the steps.
  double step_s = 0, wait_s = 0, gpu_busy_s = 0, gpu_idle_s = 0, gpu_idle_in_wait_s = 0;

  double loader_wait_fraction() const { return step_s > 0 ? wait_s / step_s : 0; }
  double gpu_idle_fraction() const { return step_s > 0 ? gpu_idle_s / step_s : 0; }
  /// Of the GPU's idle time inside the steps, the share that fell while the loop waited.
  double gpu_idle_in_wait_fraction() const {
    return gpu_idle_s > 0 ? gpu_idle_in_wait_s / gpu_idle_s : 0;
  }
  /// "#101-#105 (5 steps)", "none".
  std::string StepsCovered() const;
};

/// The traces of one rank (node and rank alike: torch.profiler writes a file per profiling
/// window) as one: their steps in step order, their sums added.
std::vector<RankFigures> MergeRankWindows(const std::vector<RankFigures>& traces);

/// The figures of one trace. `node` is the folder's node ("" for none).
RankFigures FiguresOf(const TorchTrace& trace, const std::string& node);

/// The millisecond stamp torch.profiler.tensorboard_trace_handler puts in a file's name
/// (`WORKER.1700000000123.pt.trace.json`), as epoch milliseconds; nullopt when none.
std::optional<double> FileNameStampMs(std::string_view file_name);

/// The rank a file name states ("rank-3", "rank_3", "rank3"), "" when none.
std::string RankInFileName(std::string_view file_name);

/// Facts (`trace.*`, per rank `trace.<figure>.<rank>`), per rank series (`trace.step_wait.<rank>`:
/// each step's share waited, at the step's start) and a timeline lane ("training loop": the
/// waits, at most kMaxWaitBars per rank) of `ranks`, sorted by rank.
void AddTraceEvidence(const std::vector<RankFigures>& ranks, Evidence* out);
inline constexpr size_t kMaxWaitBars = 400;

}  // namespace feedcheck::analyzers
