// libFuzzer target: StorageBlobLogs CSV and JSON lines.
#include "analyzers/storage_blob_logs.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  feedcheck::analyzers::StorageBlobLogsAnalyzer analyzer;

  feedcheck::analyzers::fuzz::Feed(analyzer, data, size);
  return 0;
}
