// libFuzzer target: the tracing compact-line tokenizer, duration parser and format detection,
// one line at a time.
#include <cstdint>
#include <string_view>

#include "analyzers/format_detect.h"
#include "analyzers/timestamp.h"
#include "analyzers/tracing_line.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace feedcheck::analyzers;
  std::string_view input(reinterpret_cast<const char*>(data), size);
  TracingLine t;
  if (ParseTracingLine(input, &t)) {
    for (const auto& f : t.fields) {
      // Every field must lie inside the input.
      if (f.key.data() < input.data() || f.value.data() + f.value.size() > input.data() + size)
        __builtin_trap();
      (void)ParseTracingDurationNs(f.value);
    }
    (void)t.LeafSpan();
  }
  (void)ParseIsoDuration(input);
  (void)ParseTimestamp(input);
  (void)DetectFormat(input, "fuzz");
  return 0;
}
