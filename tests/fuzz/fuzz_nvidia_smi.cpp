// libFuzzer target: nvidia-smi --query-gpu CSV.
#include "analyzers/gpu_util.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  feedcheck::analyzers::GpuUtilAnalyzer analyzer;
  analyzer.SetNextFile(feedcheck::analyzers::GpuFileFormat::kNvidiaSmiCsv, "");
  feedcheck::analyzers::fuzz::Feed(analyzer, data, size);
  return 0;
}
