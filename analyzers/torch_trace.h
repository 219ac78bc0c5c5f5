// PyTorch profiler traces (torch.profiler; PyTorch docs, "torch.profiler", and the Chrome Trace
// Event Format, https://docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU):
// `.pt.trace.json` and `.json.gz`, one per rank, read by a streaming scanner over the bytes, so
// memory stays flat whatever the file's size. Two forms:
// - Kineto (GPU builds): an object with `traceEvents` (events with `cat`: `cpu_op`,
//   `user_annotation`, `kernel`, `gpu_memcpy`, `gpu_memset`, ...), `distributedInfo.rank`, and
//   `baseTimeNanoseconds` where the writer adds it (`ts` is then relative to it; without it
//   `ts` is microseconds since the epoch);
// - legacy Chrome trace (builds without Kineto, e.g. Debian 12's python3-torch 1.13): a
//   top-level array of events, `ts` in microseconds since the profiler started, no `cat`.
// Only what the step analysis needs is kept (analyzers/torch_steps.h): the `ProfilerStep#N`
// spans, the DataLoader's `__next__` spans and the GPU's busy intervals, each bounded. A trace
// cut short is read up to the cut (A240 names the byte); hostile input (nesting deeper than the
// limit, numbers out of range, more events than the limit, an event larger than the limit) stops
// the read with an error naming the byte (A241).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/input_file.h"
#include "core/diagnostic.h"

namespace feedcheck::analyzers {

/// Microseconds on the trace's own clock (`ts`).
struct TraceInterval {
  double start_us = 0;
  double end_us = 0;
};

struct TraceStep {
  int64_t number = 0;  ///< N of ProfilerStep#N
  double start_us = 0;
  double end_us = 0;
};

struct TraceLimits {
  int max_depth = 64;                    ///< nesting inside the document
  size_t max_event_bytes = 4 << 20;      ///< one event (its args included)
  uint64_t max_events = 2'000'000'000;   ///< events read before the rest is refused
  size_t max_steps = 100'000;            ///< ProfilerStep spans kept
  size_t max_waits = 1'000'000;          ///< DataLoader __next__ spans kept
  size_t max_gpu_intervals = 2'000'000;  ///< merged GPU busy intervals kept
};

/// What one trace file held, bounded by TraceLimits.
struct TorchTrace {
  std::string path;
  bool kineto = false;  ///< the object form with traceEvents
  bool legacy = false;  ///< the top-level array form
  std::optional<int64_t> rank;
  std::optional<int64_t> world_size;
  std::optional<int64_t> base_time_ns;  ///< baseTimeNanoseconds
  uint64_t bytes = 0;                   ///< uncompressed bytes scanned
  uint64_t events = 0;                  ///< events read
  uint64_t malformed_events = 0;        ///< events skipped (a field of the wrong type or range)
  uint64_t gpu_events = 0;              ///< kernels, copies and sets on GPU streams
  uint64_t dropped = 0;                 ///< spans past a TraceLimits bound, not kept
  std::vector<TraceStep> steps;         ///< in the order read
  std::vector<TraceInterval> loader_waits;
  std::vector<TraceInterval> gpu_busy;  ///< sorted, merged (after Finish)
  std::optional<double> first_ts_us;    ///< earliest event start
  std::optional<double> last_end_us;    ///< latest event end
  bool complete = false;                ///< the document closed
  bool stopped = false;                 ///< reading stopped at an error (hostile or unreadable)
  std::optional<uint64_t> cut_at_byte;  ///< where a trace cut short ends
  DiagnosticList diagnostics{20};
};

/// The scanner: feed the (uncompressed) document in pieces of any size, then Finish.
class TorchTraceScanner {
 public:
  explicit TorchTraceScanner(std::string path, TraceLimits limits = {});
  /// Scans the next bytes; false once reading stopped at an error (the rest is ignored).
  bool Feed(std::string_view bytes);
  /// The end of the input: a document not closed is a trace cut short (A240 names the byte).
  TorchTrace Finish();

 private:
  enum class State {
    kStart,
    kKey,
    kValue,
    kSkip,
    kAfterValue,
    kArrayFirst,
    kEvent,
    kAfterEvent,
    kDone
  };
  enum class Unit { kDone, kMore, kFail };
  void Run();
  Unit StepState();
  Unit ParseEvent(size_t* pos);
  Unit ParseTopValue(size_t* pos);
  Unit SkipIncrementally();
  void Stop(std::string message, uint64_t at_byte);
  void AddEvent();
  void Merge();
  uint64_t ByteAt(size_t pos) const { return consumed_ + pos; }

  TraceLimits limits_;
  TorchTrace trace_;
  std::string buf_;
  size_t pos_ = 0;
  uint64_t consumed_ = 0;  // bytes dropped from the front of buf_
  size_t want_ = 0;        // bytes a unit needs before it is tried again
  State state_ = State::kStart;
  std::string key_;
  bool in_events_object_ = false;  // the events array is the object's traceEvents
  // The incremental skip of a top-level value (INFO lists, deviceProperties, ...).
  int skip_depth_ = 0;
  bool skip_in_string_ = false;
  bool skip_escape_ = false;
  bool skip_scalar_ = false;
  // The event being read.
  struct Event {
    std::string_view name, ph, cat;
    std::string name_buf, cat_buf;
    double ts = 0, dur = 0;
    bool has_ts = false, has_dur = false;
    bool bad = false;
  } ev_;
  size_t gpu_merged_upto_ = 0;
};

/// Reads a whole trace file: gzip (by its magic bytes) or plain JSON, in 256 KiB pieces.
TorchTrace ReadTorchTrace(InputFile file, const TraceLimits& limits = {});
/// Reads `bytes` as a whole file would be read (gzip or plain): for tests and the fuzzer.
TorchTrace ReadTorchTraceBytes(std::string_view bytes, const std::string& path,
                               const TraceLimits& limits = {});

/// Whether `head` (a file's first bytes, maybe gzip) and `file_name` look like a profiler trace.
bool LooksLikeTorchTrace(std::string_view head, std::string_view file_name);

}  // namespace feedcheck::analyzers
