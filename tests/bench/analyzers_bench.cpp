// Log parsing speed: the rslex analyzer over a generated 1 GB rslex log (the bar is 1 GB/s
// per core). Rates are per CPU second of the benchmark thread (user + system,
// so reading the file counts): on a shared machine wall time measures the neighbours. The log is
// generated into /tmp at start and deleted at exit, unless FEEDCHECK_BENCH_RSLEX_LOG names a file
// to use (generated there if missing, then kept, so scripts/bench_analyzers.sh can run `grep -c` on
// the same bytes). FEEDCHECK_BENCH_BYTES overrides the size (default 1e9).
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "analyzers/data_capability_log.h"
#include "analyzers/line_analyzer.h"
#include "analyzers/rslex_log.h"
#include "analyzers/tracing_line.h"

namespace {

using namespace feedcheck;
using namespace feedcheck::analyzers;

std::string g_path;
bool g_delete = false;
uint64_t g_bytes = 0;

std::string Stamp(uint64_t us) {
  // 2024-05-01T09:00:00 plus `us` microseconds (hours wrap into the day; fine for a benchmark).
  uint64_t s = us / 1000000, frac = us % 1000000;
  char buf[40];
  std::snprintf(buf, sizeof(buf), "2024-05-01T%02llu:%02llu:%02llu.%06lluZ",
                static_cast<unsigned long long>(9 + (s / 3600) % 15),
                static_cast<unsigned long long>((s / 60) % 60),
                static_cast<unsigned long long>(s % 60), static_cast<unsigned long long>(frac));
  return buf;
}

// A realistic mix: mostly span closes with the guide's repeated fields, some 503s with
// retries, a few settings and other messages.
void Generate(const std::string& path, uint64_t target_bytes) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) {
    std::perror(path.c_str());
    std::exit(3);
  }
  const std::string fields =
      " sessionId=012ea46a-341c-4258-8aba-90bde4fdfb51 source=Dataset[Partitions: 1, Sources: 1] "
      "file_name_column=None break_on_first_error=true skip_existing_files=false "
      "parallelization_degree=4 self=Dataset[Partitions: 1, Sources: 1] parallelization_degree=4 "
      "self=Dataset[Partitions: 1, Sources: 1] parallelization_degree=4 self=Dataset[Partitions: "
      "1, Sources: 1] parallelization_degree=4";
  const char* busy[] = {"23.2\xC2\xB5s", "1.22ms", "90.9\xC2\xB5s", "12.3ms", "187ns", "1.02s"};
  std::string out;
  out.reserve(1 << 22);
  uint64_t written = 0, i = 0;
  fputs(
      "2024-05-01T09:00:00.000000Z  INFO rslex_http_stream::retry: "
      "AZUREML_DATASET_HTTP_RETRY_COUNT set in environment, using for http client: 10 "
      "num_retries=10\n",
      f);
  while (written < target_bytes) {
    std::string ts = Stamp(i * 700);
    switch (i % 10) {
      case 7:
        out += ts +
               "  WARN rslex_http_stream::http_client::response: non-successful response "
               "Status: 503 Egress is over the account limit. Headers: { \"x-ms-error-code\": "
               "\"ServerBusy\", \"x-ms-request-id\": \"3f2c-0000\", ... } method=GET "
               "request_uri=https://acct.blob.core.windows.net/datasets/train/shard-" +
               std::to_string(i % 6400) + ".tar\n";
        break;
      case 8:
        out += ts + "  WARN rslex_http_stream::retry: Retrying request after 503 attempt=" +
               std::to_string(i % 7) + " backoff_ms=500\n";
        break;
      default:
        out += ts +
               "  INFO copy_uri:copy_uri:copy_dataset:write_streams_to_files:collect:reduce:"
               "reduce_and_combine:reduce:get_iter: rslex::prefetching: close time.busy=" +
               busy[i % 6] + " time.idle=1.90\xC2\xB5s" + fields + " i=" + std::to_string(i) +
               " index=" + std::to_string(i % 97) + "\n";
    }
    ++i;
    if (out.size() > (1 << 22) - 4096) {
      written += std::fwrite(out.data(), 1, out.size(), f);
      out.clear();
    }
  }
  written += std::fwrite(out.data(), 1, out.size(), f);
  std::fclose(f);
}

void Prepare() {
  if (!g_path.empty()) return;
  uint64_t bytes = 1000000000ull;
  if (const char* b = std::getenv("FEEDCHECK_BENCH_BYTES")) bytes = std::strtoull(b, nullptr, 10);
  if (const char* p = std::getenv("FEEDCHECK_BENCH_RSLEX_LOG")) {
    g_path = p;
    if (!std::filesystem::exists(g_path)) Generate(g_path, bytes);
  } else {
    g_path = "/tmp/feedcheck-bench-rslex-" + std::to_string(::getpid()) + ".log";
    Generate(g_path, bytes);
    g_delete = true;
  }
  g_bytes = std::filesystem::file_size(g_path);
}

void BM_RslexAnalyzeFile(benchmark::State& state) {
  Prepare();
  double parse_errors = 0;
  for (auto _ : state) {
    RslexLogAnalyzer a;
    std::string error;
    if (!FeedFile(g_path, a, &error)) state.SkipWithError(error.c_str());
    Evidence ev;
    a.Finish(&ev);
    parse_errors = static_cast<double>(a.stats().malformed);
    benchmark::DoNotOptimize(ev);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * g_bytes));
  state.counters["file_MB"] = static_cast<double>(g_bytes) / 1e6;
  state.counters["malformed"] = parse_errors;
}
BENCHMARK(BM_RslexAnalyzeFile)->Unit(benchmark::kMillisecond)->Iterations(3);

// The data runtime's real forms: the bundled demo's two rslex logs (span closes, multi-line
// non-successful responses, retries in their own words) repeated to FEEDCHECK_BENCH_BYTES
// (default 1e9) into /tmp (deleted at exit), read end to end: bytes and lines per CPU second of
// this thread; docs/performance.md has them with callgrind's instructions per line.
std::string g_real_path;
uint64_t g_real_bytes = 0, g_real_lines = 0;

void PrepareRealForms() {
  if (!g_real_path.empty()) return;
  const std::string dir = std::string(FEEDCHECK_SOURCE_DIR) +
                          "/tests/data/joblogs/job-demo/system_logs/data_capability/";
  std::string unit;
  for (const char* name : {"rslex.log.2024-05-01-09", "rslex.log.2024-05-01-10"}) {
    FILE* in = std::fopen((dir + name).c_str(), "rb");
    if (!in) {
      std::perror((dir + name).c_str());
      std::exit(3);
    }
    char buf[1 << 16];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof(buf), in)) > 0) unit.append(buf, n);
    std::fclose(in);
  }
  uint64_t bytes = 1000000000ull;
  if (const char* b = std::getenv("FEEDCHECK_BENCH_BYTES")) bytes = std::strtoull(b, nullptr, 10);
  g_real_path = "/tmp/feedcheck-bench-rslex-real-" + std::to_string(::getpid()) + ".log";
  FILE* f = std::fopen(g_real_path.c_str(), "wb");
  if (!f) {
    std::perror(g_real_path.c_str());
    std::exit(3);
  }
  uint64_t unit_lines = 0;
  for (char c : unit) unit_lines += c == '\n';
  for (uint64_t written = 0; written < bytes; written += unit.size()) {
    std::fwrite(unit.data(), 1, unit.size(), f);
    g_real_lines += unit_lines;
  }
  std::fclose(f);
  g_real_bytes = std::filesystem::file_size(g_real_path);
}

void BM_RslexRealForms(benchmark::State& state) {
  PrepareRealForms();
  double malformed = 0;
  for (auto _ : state) {
    RslexLogAnalyzer a;
    std::string error;
    if (!FeedFile(g_real_path, a, &error)) state.SkipWithError(error.c_str());
    Evidence ev;
    a.Finish(&ev);
    malformed = static_cast<double>(a.stats().malformed);
    benchmark::DoNotOptimize(ev);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * g_real_bytes));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * g_real_lines));
  state.counters["file_MB"] = static_cast<double>(g_real_bytes) / 1e6;
  state.counters["malformed"] = malformed;
}
BENCHMARK(BM_RslexRealForms)->Unit(benchmark::kMillisecond)->Iterations(3);

// data-capability.log (Python logging: ActivityStarted / ActivityCompleted with durations),
// generated in memory, read through the same line reader.
void BM_DataCapabilityLog(benchmark::State& state) {
  std::string log;
  for (int i = 0; log.size() < 50'000'000; ++i) {
    std::string ts = Stamp(static_cast<uint64_t>(i) * 250000);
    ts[10] = ' ';
    ts.pop_back();  // "2024-05-01 09:00:00.250000"
    const std::string activity = i % 2 ? "download" : "mount";
    log += "INFO " + ts + " sdk_logger.py:44 [28] - ActivityStarted, " + activity + "\n";
    log += "INFO " + ts + " sdk_logger.py:44 [28] - ActivityCompleted: Activity=" + activity +
           ", HowEnded=Success, Duration=" + std::to_string(i % 9000) + ".21 [ms]\n";
    if (i % 5 == 0) log += "DEBUG " + ts + " urllib3.connectionpool:544 - https://x:443 \"GET\"\n";
  }
  uint64_t lines = 0;
  for (char c : log) lines += c == '\n';
  for (auto _ : state) {
    DataCapabilityAnalyzer a;
    LineReader reader = LineReader::FromBuffer(log);
    std::string error;
    FeedLines(reader, "data-capability.log", a, &error);
    Evidence ev;
    a.Finish(&ev);
    benchmark::DoNotOptimize(ev);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * log.size()));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * lines));
}
BENCHMARK(BM_DataCapabilityLog)->Unit(benchmark::kMillisecond)->Iterations(3);

// Reading and splitting lines only: the floor under the analyzer.
void BM_LineReaderOnly(benchmark::State& state) {
  Prepare();
  for (auto _ : state) {
    LineReader r = LineReader::OpenFile(g_path);
    Line l;
    uint64_t n = 0;
    while (r.Next(&l)) n += l.text.size();
    benchmark::DoNotOptimize(n);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * g_bytes));
}
BENCHMARK(BM_LineReaderOnly)->Unit(benchmark::kMillisecond)->Iterations(3);

// The head alone (timestamp, level, scope from the cache, message; fields left as text), as the
// analyzer reads every line.
void BM_TracingHeadGuideLine(benchmark::State& state) {
  const std::string line =
      "2023-05-18T14:08:25.388670Z  INFO copy_uri:copy_uri:copy_dataset:write_streams_to_files:"
      "collect:reduce:reduce_and_combine:reduce:get_iter: rslex::prefetching: close "
      "time.busy=23.2\xC2\xB5s time.idle=1.90\xC2\xB5s parallelization_degree=4";
  TracingLine t;
  TracingLineCache cache;
  for (auto _ : state) benchmark::DoNotOptimize(ParseTracingHead(line, &t, &cache));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * line.size()));
}
BENCHMARK(BM_TracingHeadGuideLine);

// The tokenizer alone on the guide's line, in memory.
void BM_TokenizeGuideLine(benchmark::State& state) {
  const std::string line =
      "2023-05-18T14:08:25.388670Z  INFO copy_uri:copy_uri:copy_dataset:write_streams_to_files:"
      "collect:reduce:reduce_and_combine:reduce:get_iter: rslex::prefetching: close "
      "time.busy=23.2\xC2\xB5s time.idle=1.90\xC2\xB5s sessionId=012ea46a-341c-4258-8aba-"
      "90bde4fdfb51 source=Dataset[Partitions: 1, Sources: 1] file_name_column=None "
      "break_on_first_error=true skip_existing_files=false parallelization_degree=4 "
      "self=Dataset[Partitions: 1, Sources: 1] parallelization_degree=4 i=0 index=0";
  TracingLine t;
  for (auto _ : state) {
    benchmark::DoNotOptimize(ParseTracingLine(line, &t));
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * line.size()));
}
BENCHMARK(BM_TokenizeGuideLine);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (g_delete) std::filesystem::remove(g_path);
  if (!g_real_path.empty()) std::filesystem::remove(g_real_path);
  return 0;
}
