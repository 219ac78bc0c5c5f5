// libFuzzer target: PyTorch profiler traces (plain or gzip), fed whole and in small pieces, with
// small limits so the bounds (depth, event size, events, kept spans) are reached too; then the
// step figures of what was read.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "analyzers/torch_steps.h"
#include "analyzers/torch_trace.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace feedcheck::analyzers;
  std::string_view input(reinterpret_cast<const char*>(data), size);
  TraceLimits small;
  small.max_depth = 8;
  small.max_event_bytes = 512;
  small.max_events = 64;
  small.max_steps = 4;
  small.max_waits = 4;
  small.max_gpu_intervals = 8;
  TorchTrace whole = ReadTorchTraceBytes(input, "w.1700000000123.pt.trace.json");
  // The same bytes in pieces of 1..7 bytes: a unit cut anywhere reads the same.
  TorchTraceScanner scanner("rank-1.pt.trace.json", small);
  for (size_t at = 0, n = 1; at < size; at += n, n = n % 7 + 1)
    scanner.Feed(input.substr(at, std::min(n, size - at)));
  TorchTrace pieces = scanner.Finish();
  feedcheck::Evidence ev;
  AddTraceEvidence({FiguresOf(whole, "node-1"), FiguresOf(pieces, "")}, &ev);
  (void)LooksLikeTorchTrace(input, "x.json.gz");
  return 0;
}
