// libFuzzer target: quantities as users write them ("4MiB", "1.5 Gbit/s", "200ms") through
// core/units parsing and every formatter, and rules ParseFactValue for a few fact keys.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/units.h"
#include "rules/profile.h"

using namespace feedcheck;

// A parsed quantity is a finite number: the parsers reject "1e400" and must not hand out an
// infinity that only appears after scaling ("1e308TB") to the calculators.
static void CheckFinite(double v) {
  if (!std::isfinite(v)) __builtin_trap();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  std::string error;
  if (auto q = ParseQuantity(input, &error)) {
    CheckFinite(q->value);
    for (int u = static_cast<int>(Unit::kCount); u <= static_cast<int>(Unit::kBool); ++u) {
      (void)FormatValue(q->value, static_cast<Unit>(u));
      (void)Convert(q->value, q->unit, static_cast<Unit>(u));
    }
    (void)FormatNumber(q->value);
    (void)FormatNumber(q->value, 6);
  }
  if (auto bytes = ParseBytes(input, &error)) {
    CheckFinite(*bytes);
    (void)FormatBytes(*bytes);
    (void)FormatBytes(*bytes, true);
  }
  if (auto bps = ParseBitsPerSecond(input, &error)) {
    CheckFinite(*bps);
    (void)FormatBitRate(*bps);
    (void)FormatByteRate(*bps / 8);
  }
  if (auto s = ParseSeconds(input, &error)) {
    CheckFinite(*s);
    (void)FormatSeconds(*s);
  }
  (void)UnitFromName(input);
  const std::string text(input);
  for (const char* key : {"dataset.median_file_bytes", "node.nic_gbps", "workload.epochs",
                          "probe.latency.ttfb_p50_ms", "account.same_region", "node.sku"}) {
    Fact fact;
    if (rules::ParseFactValue(key, text, &fact, &error) && fact.is_number())
      CheckFinite(fact.number());
  }
  return 0;
}
