// libFuzzer target: rslex.log lines (tracing compact format) through the rslex analyzer.
#include "analyzers/rslex_log.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  feedcheck::analyzers::RslexLogAnalyzer analyzer;

  feedcheck::analyzers::fuzz::Feed(analyzer, data, size);
  return 0;
}
