// Every analyzer meets the same hostile inputs: empty, binary garbage, a truncated last line,
// CRLF, a line over 1 MiB, invalid UTF-8. None may crash; bad lines are counted, good ones kept.
#include <catch2/catch.hpp>
#include <functional>
#include <memory>
#include <random>

#include "analyzers/azure_monitor_metrics.h"
#include "analyzers/data_capability_log.h"
#include "analyzers/gpu_util.h"
#include "analyzers/metrics_csv.h"
#include "analyzers/rslex_log.h"
#include "analyzers/storage_blob_logs.h"
#include "test_util.h"

using namespace feedcheck;
using namespace feedcheck::analyzers;
using namespace feedcheck::analyzers::test;

namespace {
using Factory = std::function<std::unique_ptr<LineAnalyzer>()>;
std::vector<std::pair<std::string, Factory>> AllAnalyzers() {
  return {
      {"rslex", [] { return std::make_unique<RslexLogAnalyzer>(); }},
      {"data-capability", [] { return std::make_unique<DataCapabilityAnalyzer>(); }},
      {"azure-monitor", [] { return std::make_unique<AzureMonitorMetricsAnalyzer>(); }},
      {"metrics-csv", [] { return std::make_unique<MetricsCsvAnalyzer>(); }},
      {"blob-logs", [] { return std::make_unique<StorageBlobLogsAnalyzer>(); }},
      {"nvidia-smi", [] { return std::make_unique<GpuUtilAnalyzer>(); }},
      {"dcgm",
       [] {
         auto g = std::make_unique<GpuUtilAnalyzer>();
         g->SetNextFile(GpuFileFormat::kDcgmText, "");
         return g;
       }},
  };
}

std::string Garbage(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::string s(n, '\0');
  for (auto& c : s) c = static_cast<char>(rng() & 0xff);
  return s;
}
}  // namespace

TEST_CASE("empty input: no facts, no crash", "[analyzers][robustness]") {
  for (auto& [name, make] : AllAnalyzers()) {
    INFO(name);
    auto a = make();
    Evidence ev = Run(*a, "");
    CHECK(a->stats().lines == 0);
    CHECK(a->stats().malformed <= 1);  // the JSON analyzer says an empty document is not JSON
  }
}

TEST_CASE("binary garbage is counted, never crashes", "[analyzers][robustness]") {
  for (auto& [name, make] : AllAnalyzers()) {
    for (unsigned seed = 1; seed <= 5; ++seed) {
      INFO(name << " seed " << seed);
      auto a = make();
      std::string g = Garbage(200000, seed);
      Evidence ev = Run(*a, g);
      CHECK(a->stats().lines > 0);
      CHECK(ev.diagnostics.kept().size() <= 51);  // bounded, whatever the input
    }
  }
}

TEST_CASE("a line over 1 MiB is skipped and counted; the rest is analyzed",
          "[analyzers][robustness]") {
  std::string log =
      "2024-05-01T09:52:04.000000Z  WARN rslex_http_stream::http_client::response: non-successful "
      "response Status: 503 x\r\n" +
      std::string(1'200'000, 'A') +
      "\r\n2024-05-01T09:52:05.000000Z  WARN rslex_http_stream::http_client::response: "
      "non-successful response Status: 503 y\r\n"
      "2024-05-01T09:52:06.000000Z  WARN rslex_http_stream::http_client::response: "
      "non-successful response Status: \xff\xfe 503";  // invalid UTF-8, truncated last line
  RslexLogAnalyzer a;
  Evidence ev = Run(a, log, "r.log");
  CHECK(a.stats().lines == 4);
  CHECK(a.stats().too_long == 1);
  CHECK(a.stats().malformed == 1);
  CHECK(Num(ev, "runtime.http_errors.503") == 2);
  CHECK(Num(ev, "runtime.http_errors.unknown") == 1);  // the cut status is not guessed
  CHECK(ev.diagnostics.kept()[0].location.line == 2);
  CHECK(ev.diagnostics.kept()[0].message.find("longer than") != std::string::npos);
}

TEST_CASE("a truncated last line is reported as such", "[analyzers][robustness]") {
  DataCapabilityAnalyzer a;
  Evidence ev = Run(a,
                    "INFO 2023-05-18 17:14:47,790 x.py:1 [1] - ActivityStarted, download\n"
                    "INFO 2023-05-18 17:14:50,295 x.py:1 [1] - ActivityCompleted: Activity=down",
                    "dc.log");
  CHECK(a.stats().malformed == 1);
  REQUIRE(!ev.diagnostics.kept().empty());
  CHECK(ev.diagnostics.kept()[0].message.find("truncated") != std::string::npos);
}

TEST_CASE("CRLF files parse like LF files", "[analyzers][robustness]") {
  const char* lf =
      "timestamp, index, utilization.gpu [%]\n2024/05/01 10:00:00.000, 0, 40 %\n"
      "2024/05/01 10:00:01.000, 0, 60 %\n";
  const char* crlf =
      "timestamp, index, utilization.gpu [%]\r\n2024/05/01 10:00:00.000, 0, 40 %\r\n"
      "2024/05/01 10:00:01.000, 0, 60 %\r\n";
  GpuUtilAnalyzer a, b;
  Evidence ea = Run(a, lf), eb = Run(b, crlf);
  CHECK(Num(ea, "gpu.util_mean") == 50);
  CHECK(Num(eb, "gpu.util_mean") == 50);
  CHECK(b.stats().malformed == 0);
}

TEST_CASE("diagnostic snippets never carry raw control bytes", "[analyzers][robustness]") {
  RslexLogAnalyzer a;
  Evidence ev = Run(a, std::string("\x01\x02\x1b]0;title\x07 \xff\n", 14));
  REQUIRE(!ev.diagnostics.kept().empty());
  for (char c : ev.diagnostics.kept()[0].snippet) CHECK(static_cast<unsigned char>(c) >= 0x20);
}
