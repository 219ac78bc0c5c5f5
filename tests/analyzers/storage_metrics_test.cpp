#include <fmt/format.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>

#include "analyzers/azure_monitor_metrics.h"
#include "analyzers/metrics_csv.h"
#include "analyzers/storage_blob_logs.h"
#include "core/run_context.h"
#include "test_util.h"

using namespace feedcheck;
using namespace feedcheck::analyzers;
using namespace feedcheck::analyzers::test;

namespace {
// PT5M buckets; dimension names in two spellings; one Egress bucket without "total".
const char* kJson = R"({
 "timespan": "2024-05-01T10:00:00Z/2024-05-01T10:15:00Z", "interval": "PT5M",
 "value": [
  {"name": {"value": "Egress"}, "unit": "Bytes", "timeseries": [
    {"metadatavalues": [], "data": [
      {"timeStamp": "2024-05-01T10:00:00Z", "total": 7.5e12},
      {"timeStamp": "2024-05-01T10:05:00Z", "count": 0.0},
      {"timeStamp": "2024-05-01T10:10:00Z", "total": 1.5e12}]}]},
  {"name": {"value": "transactions"}, "unit": "Count", "timeseries": [
    {"metadatavalues": [{"name": {"value": "responsetype"}, "value": "Success"}],
     "data": [{"timeStamp": "2024-05-01T10:00:00Z", "total": 6000000.0},
              {"timeStamp": "2024-05-01T10:10:00Z", "total": 3000.0}]},
    {"metadatavalues": [{"name": {"value": "ResponseType"}, "value": "ServerBusyError"}],
     "data": [{"timeStamp": "2024-05-01T10:00:00Z", "total": 1500.0}]},
    {"metadatavalues": [{"name": {"value": "RESPONSETYPE"}, "value": "ClientAccountBandwidthThrottlingError"}],
     "data": [{"timeStamp": "2024-05-01T10:00:00Z", "total": 300.0}]}]},
  {"name": {"value": "SuccessE2ELatency"}, "unit": "MilliSeconds", "timeseries": [
    {"data": [{"timeStamp": "2024-05-01T10:00:00Z", "average": 100.0},
              {"timeStamp": "2024-05-01T10:05:00Z"},
              {"timeStamp": "2024-05-01T10:10:00Z", "average": 50.0}]}]},
  {"name": {"value": "SuccessServerLatency"}, "unit": "MilliSeconds", "timeseries": [
    {"data": [{"timeStamp": "2024-05-01T10:00:00Z", "average": 12.0}]}]},
  {"name": {"value": "BlobCount"}, "unit": "Count", "timeseries": [
    {"data": [{"timeStamp": "2024-05-01T10:00:00Z", "average": 7.0}]}]}
 ]})";
}  // namespace

TEST_CASE("Azure Monitor JSON: rates from the returned interval, missing = no data",
          "[analyzers][metrics]") {
  AzureMonitorMetricsAnalyzer a;
  Evidence ev = Run(a, kJson, "m.json");
  // 7.5e12 bytes per 300 s = 200 Gbit/s; 1.5e12 / 300 s = 40 Gbit/s.
  CHECK(Num(ev, "metrics.egress_gbps_peak") == Approx(200));
  CHECK(Num(ev, "metrics.egress_gbps_mean") == Approx(120));  // the empty bucket is not a 0
  const Series* egress = ev.FindSeries("metrics.egress_gbps");
  REQUIRE(egress);
  REQUIRE(egress->points.size() == 2);
  CHECK(egress->points[1].y == Approx(40));
  // (6e6 + 1500 + 300) / 300 s
  CHECK(Num(ev, "metrics.requests_per_s_peak") == Approx(6001800.0 / 300));
  CHECK(Num(ev, "metrics.throttled.ServerBusyError") == 1500);
  CHECK(Num(ev, "metrics.throttled.ClientAccountBandwidthThrottlingError") == 300);
  CHECK(Num(ev, "metrics.transactions.Success") == 6003000);
  CHECK_FALSE(ev.facts.Has("metrics.throttled.Success"));
  CHECK(Num(ev, "metrics.throttled_total") == 1800);
  const Series* thr = ev.FindSeries("metrics.throttled_per_s");
  REQUIRE(thr);
  CHECK(thr->points[0].y == Approx(1800.0 / 300));
  CHECK(Num(ev, "metrics.e2e_latency_ms") == Approx(75));
  CHECK(Num(ev, "metrics.server_latency_ms") == Approx(12));
  // One throttled 5-minute bucket on the storage lane, labelled by the dominant type.
  REQUIRE(ev.timeline.size() == 1);
  CHECK(ev.timeline[0].lane == "storage");
  CHECK(ev.timeline[0].label == "ServerBusyError");
  CHECK(ev.timeline[0].end_epoch_s - ev.timeline[0].start_epoch_s == 300);
  CHECK(a.stats().malformed == 0);
}

TEST_CASE("Azure Monitor JSON: syntax error names the line", "[analyzers][metrics]") {
  AzureMonitorMetricsAnalyzer a;
  Evidence ev = Run(a, "{\n \"value\": [\n  {,\n]}\n", "bad.json");
  CHECK(a.stats().malformed == 1);
  REQUIRE(ev.diagnostics.kept().size() == 1);
  CHECK(ev.diagnostics.kept()[0].location.file == "bad.json");
  CHECK(ev.diagnostics.kept()[0].location.line == 3);
  CHECK(ev.facts.empty());
}

TEST_CASE("Azure Monitor JSON: a minified response over 1 MiB on one line is read",
          "[analyzers][metrics]") {
  // What `az monitor metrics list -o json --query ...` and the REST API return minified: a day
  // at PT1M for one metric is ~100 KB; 25,000 points on one line pass 1 MiB.
  std::string json = R"({"interval":"PT1M","value":[{"name":{"value":"Egress"},"timeseries":)"
                     R"([{"data":[)";
  for (int i = 0; i < 25000; ++i) {
    if (i) json += ",";
    json += R"({"timeStamp":")" + IsoUtc(1714557600.0 + 60.0 * i) + R"(","total":6.0e9})";
  }
  json += "]}]}]}";
  REQUIRE(json.size() > (1u << 20));
  REQUIRE(json.find('\n') == std::string::npos);
  char path[] = "/tmp/feedcheck-minified-XXXXXX";
  int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  REQUIRE(write(fd, json.data(), json.size()) == static_cast<ssize_t>(json.size()));
  close(fd);
  AzureMonitorMetricsAnalyzer a;
  std::string error;
  REQUIRE(FeedFile(path, a, &error));  // the real file path, as `feedcheck analyze` reads it
  Evidence ev;
  a.Finish(&ev);
  unlink(path);
  CHECK(a.stats().malformed == 0);
  CHECK(a.points() == 25000);
  CHECK(Num(ev, "metrics.egress_gbps_peak") == Approx(0.8));  // 6e9 bytes per 60 s
}

TEST_CASE("metrics CSV: time column, metric columns, interval from spacing",
          "[analyzers][metrics]") {
  const char* csv =
      "Time,Egress (Sum),Transactions (Sum) Success,\"Transactions (Sum), ServerBusyError\"\n"
      "2024-05-01T10:00:00Z,1.5e12,1200000,0\n"
      "2024-05-01T10:01:00Z,750000000000,600000,6000\n"
      "2024-05-01T10:02:00Z,,,\n"
      "not-a-time,1,2,3\n";
  MetricsCsvAnalyzer a;
  Evidence ev = Run(a, csv, "m.csv");
  CHECK(Num(ev, "metrics.egress_gbps_peak") == Approx(200));  // 1.5e12 B / 60 s
  CHECK(Num(ev, "metrics.throttled.ServerBusyError") == 6000);
  CHECK(Num(ev, "metrics.requests_per_s_peak") == Approx(20000));
  CHECK(a.stats().malformed == 1);
  CHECK(ev.diagnostics.kept()[0].location.line == 5);
}

TEST_CASE("StorageBlobLogs CSV: per-operation percentiles and status codes",
          "[analyzers][bloblogs]") {
  std::string csv =
      "TimeGenerated [UTC],AccountName,OperationName,StatusCode,StatusText,DurationMs,"
      "ServerLatencyMs,Uri\n";
  for (int i = 1; i <= 100; ++i)
    csv += "2024-05-01T10:00:" + std::string(i < 10 ? "0" : "") + std::to_string(i % 60) +
           ".000Z,acct,GetBlob,200,Success," + std::to_string(i * 2) + "," + std::to_string(i) +
           ",\"https://acct.blob.core.windows.net/c/a,b.bin\"\n";
  csv += "\"5/1/2024, 10:03:00.000 AM\",acct,GetBlob,503,ThrottlingError,5,1,x\n";
  csv += "2024-05-01T10:03:01Z,acct,ListBlobs,200,Success,40,30,x\n";
  csv += "2024-05-01T10:03:02Z,acct,GetBlob,200,Success,notanumber,1,x\n";
  StorageBlobLogsAnalyzer a;
  Evidence ev = Run(a, csv, "logs.csv");
  CHECK(Num(ev, "metrics.bloblog.requests") == 102);
  CHECK(Num(ev, "metrics.bloblog.throttled") == 1);
  CHECK(Num(ev, "metrics.bloblog.status.503") == 1);
  CHECK(Num(ev, "metrics.bloblog.status.200") == 101);
  const auto& get = a.operations().at("GetBlob");
  CHECK(get.duration.count() == 101);
  CHECK(get.duration.PercentileSeconds(0.5) == Approx(0.100).epsilon(0.001));
  CHECK(get.server_latency.PercentileSeconds(0.5) == Approx(0.050).epsilon(0.001));
  CHECK(Num(ev, "metrics.bloblog.duration_p50_ms.ListBlobs") == Approx(40).epsilon(0.02));
  CHECK(a.stats().malformed == 1);
  bool throttle_lane = false;
  for (const auto& iv : ev.timeline) throttle_lane |= iv.lane == "storage";
  CHECK(throttle_lane);
}

TEST_CASE("StorageBlobLogs JSON lines (camelCase archive form)", "[analyzers][bloblogs]") {
  const char* jsonl =
      R"({"time":"2024-05-01T10:00:00.0000000Z","category":"StorageRead","operationName":"GetBlob","statusCode":200,"statusText":"Success","durationMs":80,"properties":{"serverLatencyMs":20}})"
      "\n"
      R"({"time":"2024-05-01T10:00:01.0000000Z","category":"StorageRead","operationName":"GetBlob","statusCode":"503","statusText":"ThrottlingError","durationMs":"3","properties":{"serverLatencyMs":1}})"
      "\n{broken\n";
  StorageBlobLogsAnalyzer a;
  Evidence ev = Run(a, jsonl, "logs.json");
  CHECK(Num(ev, "metrics.bloblog.requests") == 2);
  CHECK(Num(ev, "metrics.bloblog.status.200") == 1);
  CHECK(Num(ev, "metrics.bloblog.status.503") == 1);
  CHECK(Num(ev, "metrics.bloblog.throttled") == 1);
  CHECK(a.operations().at("GetBlob").network.max_s() == Approx(0.060));
  CHECK(a.stats().malformed == 1);
  CHECK(ev.diagnostics.kept()[0].location.line == 3);
}

TEST_CASE("StorageBlobLogs ResponseBodySize: the reads' median size, successful ones only",
          "[analyzers][bloblogs]") {
  // 60 of the job's 24 KB reads and 20 of another client's 4 MiB blocks: the median is the
  // job's, where the bytes over the requests (the account's mean) would be ~1 MB. Refused reads
  // (an error's body) and a hostile size count for nothing; a listing has its own median.
  std::string csv =
      "TimeGenerated [UTC],OperationName,StatusCode,StatusText,DurationMs,ServerLatencyMs,"
      "ResponseBodySize\n";
  for (int i = 0; i < 60; ++i)
    csv += fmt::format("2024-05-01T10:00:{:02d}Z,GetBlob,200,Success,90,10,{}\n", i, 24000 + i);
  for (int i = 0; i < 20; ++i)
    csv += fmt::format("2024-05-01T10:01:{:02d}Z,GetBlob,206,Success,40,10,4194304\n", i);
  for (int i = 0; i < 50; ++i)
    csv += fmt::format("2024-05-01T10:02:{:02d}Z,GetBlob,503,ServerBusy,2,1,9000000\n", i);
  csv += "2024-05-01T10:03:00Z,GetBlob,200,Success,5,1,-7\n";
  csv += "2024-05-01T10:03:01Z,GetBlob,200,Success,5,1,1e300\n";
  csv += "2024-05-01T10:03:02Z,ListBlobs,200,Success,30,20,5000\n";
  StorageBlobLogsAnalyzer a;
  Evidence ev = Run(a, csv, "logs.csv");
  CHECK(Num(ev, "metrics.bloblog.read_bytes_p50") == Approx(24040).epsilon(0.002));
  CHECK(Num(ev, "metrics.bloblog.response_bytes_p50.GetBlob") ==
        Num(ev, "metrics.bloblog.read_bytes_p50"));
  CHECK(Num(ev, "metrics.bloblog.response_bytes_p50.ListBlobs") == Approx(5000).epsilon(0.002));
  CHECK(a.operations().at("GetBlob").response_bytes.count() == 80);
  // The archived JSON form: properties.responseBodySize.
  const char* jsonl =
      R"({"time":"2024-05-01T10:00:00Z","operationName":"GetBlob","statusCode":200,"statusText":"Success","durationMs":80,"properties":{"serverLatencyMs":20,"responseBodySize":131072}})"
      "\n";
  StorageBlobLogsAnalyzer j;
  CHECK(Num(Run(j, jsonl, "logs.json"), "metrics.bloblog.read_bytes_p50") ==
        Approx(131072).epsilon(0.002));
  // Without the column nothing is said.
  StorageBlobLogsAnalyzer none;
  CHECK_FALSE(Run(none, "OperationName,DurationMs\nGetBlob,5\n", "l.csv")
                  .facts.Has("metrics.bloblog.read_bytes_p50"));
}

TEST_CASE("StorageBlobLogs Uri: the blob the refused requests were on, never a SAS",
          "[analyzers][bloblogs]") {
  CHECK(BlobPathOf("https://acct.blob.core.windows.net/data/train/a.tar?sv=2021&sig=SECRET") ==
        "data/train/a.tar");
  CHECK(BlobPathOf("https://acct.blob.core.windows.net/data?restype=container&comp=list").empty());
  CHECK(BlobPathOf("https://acct.blob.core.windows.net/").empty());
  CHECK(BlobPathOf("/data/x.bin") == "data/x.bin");
  CHECK(BlobPathOf("").empty());
  std::string csv = "TimeGenerated,OperationName,StatusCode,StatusText,DurationMs,Uri\n";
  auto row = [&](int second, const std::string& blob, bool refused) {
    csv += fmt::format(
        "2026-04-06T19:{:02d}:{:02d}.{:03d}Z,GetBlob,{},{},4,"
        "https://acct.blob.core.windows.net/{}?sv=2021-08-06&sig=SECRETSIG\n",
        second / 60, second % 60, csv.size() % 1000, refused ? "503" : "200",
        refused ? "ThrottlingError" : "Success", blob);
  };
  // The hot shard: 520 requests in second 10 (120 refused), 30 refused later.
  for (int i = 0; i < 520; ++i) row(10, "data/hot.tar", i >= 400);
  for (int i = 0; i < 30; ++i) row(20 + i, "data/hot.tar", true);
  // Many other blobs read once each, 50 of them refused; a listing names no blob.
  for (int i = 0; i < 6000; ++i) row(30 + i % 60, fmt::format("data/img/{:06d}.jpg", i), i < 50);
  row(99, "data?restype=container&comp=list", false);
  StorageBlobLogsAnalyzer a;
  Evidence ev = Run(a, csv, "bloblogs.csv");
  CHECK(Num(ev, "metrics.bloblog.throttled") == 200);
  const Fact* hot = ev.facts.Find("metrics.bloblog.hot_blob");
  REQUIRE(hot);
  CHECK(hot->text() == "data/hot.tar");  // kept through 6,000 other blobs, over the table's size
  CHECK(Num(ev, "metrics.bloblog.hot_blob_throttled_share") == Approx(150.0 / 200));
  CHECK(Num(ev, "metrics.bloblog.hot_blob_requests_per_s_peak") == 520);
  for (const auto& [key, fact] : ev.facts)
    CHECK(FormatFactValue(fact).find("SECRETSIG") == std::string::npos);
}

TEST_CASE("US date-time of Log Analytics exports", "[analyzers][bloblogs]") {
  auto a = ParseUsDateTime("5/1/2024, 10:03:00.500 PM");
  auto b = ParseUsDateTime("5/1/2024, 12:00:00 AM");
  REQUIRE(a);
  REQUIRE(b);
  CHECK(*a - *b == Approx(22 * 3600 + 180 + 0.5));
  CHECK_FALSE(ParseUsDateTime("13/1/2024, 10:00:00 AM"));
  // Found by fuzz_storage_blob_logs: a 13-digit hour overflowed int before the length check.
  CHECK_FALSE(ParseUsDateTime("5/1/2024, 1000000000000AM"));
  CHECK_FALSE(ParseUsDateTime("5/1/2024, 10:000:00 AM"));
  CHECK_FALSE(ParseUsDateTime("5/1/2024, 10:00:123456789012 AM"));
}

TEST_CASE("Azure Monitor JSON: a metrics:getBatch answer, each resource kept apart",
          "[analyzers][metrics]") {
  // {"values": [one REST metrics response per resource]} (Azure Monitor "Metrics Batch - Batch",
  // https://learn.microsoft.com/rest/api/monitor/metrics-batch/batch).
  const char* batch = R"({"values": [
  {"starttime": "2024-05-01T10:00:00Z", "endtime": "2024-05-01T10:02:00Z", "interval": "PT1M",
   "namespace": "microsoft.storage/storageaccounts/blobservices", "resourceregion": "eastus",
   "resourceid": "/subscriptions/s/resourceGroups/g/providers/Microsoft.Storage/storageAccounts/stjob01/blobServices/default",
   "value": [{"name": {"value": "Egress"}, "unit": "Bytes", "timeseries": [
     {"data": [{"timeStamp": "2024-05-01T10:00:00Z", "total": 1.5e12}]}]}]},
  {"starttime": "2024-05-01T10:00:00Z", "endtime": "2024-05-01T10:02:00Z", "interval": "PT1M",
   "namespace": "microsoft.storage/storageaccounts/blobservices", "resourceregion": "eastus",
   "resourceid": "/subscriptions/s/resourceGroups/g/providers/Microsoft.Storage/storageAccounts/stother02/blobServices/default",
   "value": [{"name": {"value": "Egress"}, "unit": "Bytes", "timeseries": [
     {"data": [{"timeStamp": "2024-05-01T10:00:00Z", "total": 9.0e12}]}]}]}
 ]})";
  SECTION("without the accounts read, every resource is read") {
    AzureMonitorMetricsAnalyzer a;
    Evidence ev = Run(a, batch, "batch.json");
    CHECK(ev.facts.Has("metrics.egress_gbps_peak"));
    for (const auto& d : ev.diagnostics.kept()) CHECK(d.code != std::string("A212"));
  }
  SECTION("the job's account is kept, another account's series set aside by resource id") {
    AzureMonitorMetricsAnalyzer a;
    a.SetAccountsRead({"stjob01"});
    Evidence ev = Run(a, batch, "batch.json");
    // 1.5e12 bytes in one minute = 200 Gbit/s: stother02's 9e12 is not merged in.
    CHECK(Num(ev, "metrics.egress_gbps_peak") == Approx(200));
    bool set_aside = false;
    for (const auto& d : ev.diagnostics.kept())
      set_aside |= d.code == std::string("A213") &&
                   d.message.find("stother02") != std::string::npos &&
                   d.message.find("/values/1") != std::string::npos;
    CHECK(set_aside);
  }
}
