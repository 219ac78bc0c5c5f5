// libFuzzer target: the tracing compact-line tokenizer, duration parser and format detection,
// one line at a time. It also checks the fast paths against the plain ones: a field looked up
// by name is the tokenizer's first field of that name, and a head read through the cache is
// the head the scan reads.
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
      auto found = FindTracingField(t.fields_text, f.key);
      if (!found) __builtin_trap();
      for (const auto& g : t.fields)
        if (g.key == f.key) {
          if (found->data() != g.value.data() || found->size() != g.value.size()) __builtin_trap();
          break;
        }
    }
    (void)t.LeafSpan();
    // Twice through one cache: the second read is a hit when the head was cached.
    static TracingLineCache cache;
    for (int pass = 0; pass < 2; ++pass) {
      TracingLine h;
      if (!ParseTracingHead(input, &h, &cache)) __builtin_trap();
      if (h.spans != t.spans || h.target != t.target || h.message != t.message ||
          h.fields_text != t.fields_text || h.level != t.level || h.has_time != t.has_time ||
          (h.has_time && h.epoch_s != t.epoch_s))
        __builtin_trap();
    }
  }
  (void)ParseIsoDuration(input);
  (void)ParseTimestamp(input);
  (void)DetectFormat(input, "fuzz");
  return 0;
}
