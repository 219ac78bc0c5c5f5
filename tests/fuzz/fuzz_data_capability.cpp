// libFuzzer target: data-capability.log lines.
#include "analyzers/data_capability_log.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  feedcheck::analyzers::DataCapabilityAnalyzer analyzer;

  feedcheck::analyzers::fuzz::Feed(analyzer, data, size);
  return 0;
}
