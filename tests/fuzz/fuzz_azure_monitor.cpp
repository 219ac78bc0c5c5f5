// libFuzzer target: Azure Monitor metrics JSON documents.
#include "analyzers/azure_monitor_metrics.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  feedcheck::analyzers::AzureMonitorMetricsAnalyzer analyzer;

  feedcheck::analyzers::fuzz::Feed(analyzer, data, size);
  return 0;
}
