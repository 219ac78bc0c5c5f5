// libFuzzer target: generic metrics CSV.
#include "analyzers/metrics_csv.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  feedcheck::analyzers::MetricsCsvAnalyzer analyzer;

  feedcheck::analyzers::fuzz::Feed(analyzer, data, size);
  return 0;
}
