// The probe workflows against the scripted HTTP client: what lands in the Outcome (status,
// diagnostics, the report's result object) for answers a real service gives.
#include <catch2/catch.hpp>
#include <variant>

#include "app/probe_latency.h"
#include "app/probe_listing.h"
#include "app/probe_throughput.h"
#include "core/diagnostic_codes.h"
#include "scripted_session.h"

using namespace feedcheck;
using feedcheck::testing::ScriptedHttpClient;

namespace {

const ResultValue* Result(const Report& r, const std::string& key) {
  for (const auto& v : r.result)
    if (v.key == key) return &v;
  return nullptr;
}

double Number(const Report& r, const std::string& key) {
  const ResultValue* v = Result(r, key);
  REQUIRE(v != nullptr);
  REQUIRE(std::holds_alternative<double>(v->value));
  return std::get<double>(v->value);
}

std::string Text(const Report& r, const std::string& key) {
  const ResultValue* v = Result(r, key);
  REQUIRE(v != nullptr);
  REQUIRE(std::holds_alternative<std::string>(v->value));
  return std::get<std::string>(v->value);
}

const Diagnostic* WithCode(const DiagnosticList& d, const std::string& code) {
  for (const auto& x : d.kept())
    if (x.code == code) return &x;
  return nullptr;
}

// One 64 MiB blob; ranged GETs answer after 12 ms to the first byte, 20 ms in all.
std::shared_ptr<ScriptedHttpClient> OneBigBlob() {
  return std::make_shared<ScriptedHttpClient>([](const HttpRequest& r) {
    HttpResponse resp;
    if (r.url.find("comp=list") != std::string::npos) {
      resp.status = 200;
      resp.body =
          "<EnumerationResults><Blobs><Blob><Name>big</Name><Properties><Content-Length>"
          "67108864</Content-Length></Properties></Blob></Blobs><NextMarker/></EnumerationResults>";
      return resp;
    }
    resp.status = r.method == "HEAD" ? 200 : 206;
    resp.headers["content-length"] = "67108864";
    resp.body_bytes = r.method == "HEAD" ? 0 : feedcheck::testing::RangeBytes(r);
    resp.timing.ttfb_s = 0.012;
    resp.timing.total_s = 0.020;
    return resp;
  });
}

}  // namespace

TEST_CASE(
    "probe throughput: an anonymous 403 names the SAS variable, managed identity and "
    "the reader role",
    "[app][probes][throughput]") {
  auto client = std::make_shared<ScriptedHttpClient>([](const HttpRequest&) {
    return feedcheck::testing::AzureError(403, "NoAuthenticationInformation");
  });
  app::ThroughputRequest r;
  r.session =
      feedcheck::testing::ScriptedSession("https://acct.blob.core.windows.net/data/", client);
  r.cpu_cores = 2;
  app::Outcome out = app::RunProbeThroughput(r, {});
  REQUIRE(out.has_report);
  CHECK(out.status == ExitStatus::kProbeFailed);
  const Diagnostic* advice = WithCode(out.diagnostics, codes::kAccessDenied);
  REQUIRE(advice != nullptr);
  CHECK(advice->message.find("AZURE_STORAGE_SAS_TOKEN") != std::string::npos);
  CHECK(advice->message.find("--auth managed-identity") != std::string::npos);
  CHECK(advice->message.find("\"Storage Blob Data Reader\"") != std::string::npos);
  CHECK(advice->message.find("https://learn.microsoft.com/") != std::string::npos);
  CHECK(Text(out.report, "status") == "failed");
  CHECK(Text(out.report, "auth") == "anonymous");
  CHECK(Text(out.report, "bound") == "undetermined");
}

TEST_CASE(
    "probe throughput: Azure's 404 ResourceNotFound to an anonymous request explains "
    "itself too",
    "[app][probes][throughput]") {
  auto client = std::make_shared<ScriptedHttpClient>(
      [](const HttpRequest&) { return feedcheck::testing::AzureError(404, "ResourceNotFound"); });
  app::ThroughputRequest r;
  r.session =
      feedcheck::testing::ScriptedSession("https://acct.blob.core.windows.net/private/", client);
  app::Outcome out = app::RunProbeThroughput(r, {});
  const Diagnostic* advice = WithCode(out.diagnostics, codes::kAccessDenied);
  REQUIRE(advice != nullptr);
  CHECK(advice->message.find("private container") != std::string::npos);
}

TEST_CASE("probe throughput: a credential that is refused gets no anonymous advice",
          "[app][probes][throughput]") {
  auto client = std::make_shared<ScriptedHttpClient>([](const HttpRequest&) {
    return feedcheck::testing::AzureError(403, "AuthorizationFailure");
  });
  app::ThroughputRequest r;
  r.session =
      feedcheck::testing::ScriptedSession("https://acct.blob.core.windows.net/data/", client,
                                          {{"AZURE_STORAGE_SAS_TOKEN", "sv=1&sig=x"}});
  app::Outcome out = app::RunProbeThroughput(r, {});
  CHECK(out.status == ExitStatus::kProbeFailed);
  CHECK(WithCode(out.diagnostics, codes::kAccessDenied) == nullptr);
}

TEST_CASE("probe throughput: bad flags stop before any request, naming the flag",
          "[app][probes][throughput]") {
  auto client = OneBigBlob();
  app::ThroughputRequest r;
  r.session =
      feedcheck::testing::ScriptedSession("https://acct.blob.core.windows.net/data/", client);
  SECTION("concurrency") {
    r.concurrency = "lots";
    app::Outcome out = app::RunProbeThroughput(r, {});
    CHECK(out.status == ExitStatus::kUsage);
    CHECK_FALSE(out.has_report);
    CHECK(out.diagnostics.kept().front().message.find("--concurrency 'lots'") != std::string::npos);
  }
  SECTION("block size") {
    r.block_size = "128KiB";
    app::Outcome out = app::RunProbeThroughput(r, {});
    CHECK(out.status == ExitStatus::kUsage);
    CHECK(out.diagnostics.kept().front().message.find("--block-size") != std::string::npos);
  }
  SECTION("unknown VM size") {
    r.sku = "Standard_NoSuchSize_v9";
    app::Outcome out = app::RunProbeThroughput(r, {});
    CHECK(out.status == ExitStatus::kUsage);
  }
  // The ranges are checked here only (the command line binds the numbers as given).
  SECTION("max concurrency") {
    r.max_concurrency = 1025;
    app::Outcome out = app::RunProbeThroughput(r, {});
    CHECK(out.status == ExitStatus::kUsage);
    CHECK(out.diagnostics.kept().front().message == "--max-concurrency must be from 1 to 1024");
  }
  SECTION("retries") {
    r.retries = -1;
    app::Outcome out = app::RunProbeThroughput(r, {});
    CHECK(out.status == ExitStatus::kUsage);
    CHECK(out.diagnostics.kept().front().message == "--retries must be from 0 to 10");
  }
  CHECK(client->requests().empty());
}

TEST_CASE("probe latency: flags out of range stop before any request, naming the flag",
          "[app][probes][latency]") {
  auto client = OneBigBlob();
  app::LatencyRequest r;
  r.session =
      feedcheck::testing::ScriptedSession("https://acct.blob.core.windows.net/data/", client);
  std::string expected;
  SECTION("requests") {
    r.requests = 0;
    expected = "--requests must be from 1 to 10000000";
  }
  SECTION("too many requests") {
    r.requests = 10000001;
    expected = "--requests must be from 1 to 10000000";
  }
  SECTION("concurrency") {
    r.concurrency = 1025;
    expected = "--concurrency must be from 1 to 1024";
  }
  SECTION("range size") {
    r.range_size = "65MiB";
    expected = "--range-size '65MiB': must be a size from 1B to 64MiB";
  }
  app::Outcome out = app::RunProbeLatency(r, {});
  CHECK(out.status == ExitStatus::kUsage);
  CHECK_FALSE(out.has_report);
  REQUIRE(out.diagnostics.total() == 1);
  CHECK(out.diagnostics.kept().front().code == std::string(codes::kProbeBadFlag));
  CHECK(out.diagnostics.kept().front().message == expected);
  CHECK(client->requests().empty());
}

TEST_CASE("probe throughput: the sweep is the default and the budget statement says so",
          "[app][probes][throughput]") {
  app::ThroughputRequest r;
  CHECK(r.concurrency == "auto");
  auto client = std::make_shared<ScriptedHttpClient>([](const HttpRequest&) {
    return feedcheck::testing::AzureError(403, "AuthorizationFailure");
  });
  r.session =
      feedcheck::testing::ScriptedSession("https://acct.blob.core.windows.net/data/", client);
  std::string notice;
  app::ProbeCallbacks callbacks;
  callbacks.notice = [&](const std::string& text) { notice += text; };
  app::RunProbeThroughput(r, callbacks);
  CHECK(notice.find("concurrency sweep 1..64") != std::string::npos);
  CHECK(notice.find("budget") != std::string::npos);
}

TEST_CASE("probe latency: the result object holds the first-byte percentiles",
          "[app][probes][latency]") {
  auto client = OneBigBlob();
  app::LatencyRequest r;
  // The emulator's loopback address: plain http, so no TLS figure, and the figures marked.
  r.session =
      feedcheck::testing::ScriptedSession("http://127.0.0.1:10000/devstoreaccount1/data/big",
                                          client, {{"AZURE_STORAGE_SAS_TOKEN", "sv=1&sig=x"}});
  r.requests = 40;
  r.head_requests = 5;
  r.new_connections = 3;
  r.warmup_requests = 1;
  app::Outcome out = app::RunProbeLatency(r, {});
  INFO(out.report.verdict_detail);
  REQUIRE(out.has_report);
  CHECK(out.status == ExitStatus::kOk);
  CHECK(Number(out.report, "ttfb_p50_ms") == Approx(12).epsilon(0.05));
  CHECK(Number(out.report, "ttfb_p99_ms") == Approx(12).epsilon(0.05));
  CHECK(Number(out.report, "total_p50_ms") == Approx(20).epsilon(0.05));
  CHECK(Number(out.report, "requests_measured") == 40);
  CHECK(Number(out.report, "errors") == 0);
  CHECK(Text(out.report, "status") == "ok");
  CHECK(Text(out.report, "auth") == "sas");
  CHECK(Result(out.report, "tls_ms") == nullptr);
  CHECK(out.report.evidence.facts.Bool("target.loopback") == std::optional<bool>(true));
  CHECK(out.report.evidence.facts.Bool("target.emulator") == std::optional<bool>(true));
  CHECK(out.report.title == "Probe: latency");
  CHECK(out.report.context.command == "probe latency");
}

TEST_CASE("probe list: pages, entries and the billed operations as result values",
          "[app][probes][list]") {
  // Three pages chained by their markers (m1, m2), two blobs each.
  auto client = std::make_shared<ScriptedHttpClient>([](const HttpRequest& req) {
    std::string next = req.url.find("marker=m2") != std::string::npos ? "<NextMarker/>"
                       : req.url.find("marker=m1") != std::string::npos
                           ? "<NextMarker>m2</NextMarker>"
                           : "<NextMarker>m1</NextMarker>";
    HttpResponse resp;
    resp.status = 200;
    resp.body =
        "<EnumerationResults><Blobs><Blob><Name>a</Name><Properties><Content-Length>10"
        "</Content-Length></Properties></Blob><Blob><Name>b</Name><Properties>"
        "<Content-Length>20</Content-Length></Properties></Blob></Blobs>" +
        next + "</EnumerationResults>";
    resp.timing.total_s = 0.01;
    return resp;
  });
  app::ListRequest r;
  r.session =
      feedcheck::testing::ScriptedSession("https://acct.blob.core.windows.net/data/", client,
                                          {{"AZURE_STORAGE_SAS_TOKEN", "sv=1&sig=x"}});
  app::Outcome out = app::RunProbeList(r, {});
  REQUIRE(out.has_report);
  CHECK(out.status == ExitStatus::kOk);
  CHECK(Number(out.report, "pages") == 3);
  CHECK(Number(out.report, "entries") == 6);
  CHECK(Number(out.report, "list_requests") == 3);
  CHECK(Number(out.report, "seconds") > 0);
  CHECK(Result(out.report, "test_data_removed") == nullptr);
}

TEST_CASE("probe list: flags out of range are usage errors", "[app][probes][list]") {
  app::ListRequest r;
  r.session.target = "/tmp";
  r.page_size = 6000;
  r.max_pages = 0;
  app::Outcome out = app::RunProbeList(r, {});
  CHECK(out.status == ExitStatus::kUsage);
  CHECK(out.diagnostics.total() == 2);
}
