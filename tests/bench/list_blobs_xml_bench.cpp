// How fast one List Blobs page parses: the issue asks for a 5,000-entry page (~3 MB) in < 10 ms.
#include <benchmark/benchmark.h>

#include "tests/fakes/list_blobs_page.h"
#include "transport/list_blobs_xml.h"

namespace {

void BM_ParseListBlobsXml(benchmark::State& state) {
  const std::string xml = feedcheck::testing::ListBlobsPageXml(static_cast<int>(state.range(0)));
  feedcheck::ListPage page;
  std::string error;
  for (auto _ : state) {
    bool ok = feedcheck::ParseListBlobsXml(xml, &page, &error);
    benchmark::DoNotOptimize(ok);
    benchmark::DoNotOptimize(page.entries.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(xml.size()));
  state.counters["entries"] = static_cast<double>(page.entries.size());
  state.counters["page_bytes"] = static_cast<double>(xml.size());
}
BENCHMARK(BM_ParseListBlobsXml)->Arg(1000)->Arg(5000)->Unit(benchmark::kMillisecond);

void BM_ParseListPathsJson(benchmark::State& state) {
  std::string json = "{\"paths\":[";
  for (int i = 0; i < state.range(0); ++i) {
    if (i) json += ",";
    json += "{\"contentLength\":\"" + std::to_string(1000 + i) +
            "\",\"creationTime\":\"133215072889667419\",\"etag\":\"0x8DB147E4CC7FF5B\","
            "\"group\":\"$superuser\",\"lastModified\":\"Wed, 22 Feb 2023 02:41:28 GMT\","
            "\"name\":\"train/img_" +
            std::to_string(i) +
            ".jpg\",\"owner\":\"$superuser\",\"permissions\":\"rw-r-----\",\"expiryTime\":\"0\"}";
  }
  json += "]}";
  feedcheck::ListPage page;
  std::string error;
  for (auto _ : state) {
    bool ok = feedcheck::ParseListPathsJson(json, &page, &error);
    benchmark::DoNotOptimize(ok);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(json.size()));
}
BENCHMARK(BM_ParseListPathsJson)->Arg(5000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
