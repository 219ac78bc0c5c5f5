// Against a real Azurite 3.37.0 started by the ctest fixture (label azurite).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "azurite_seed.h"
#include "probes/latency_probe.h"
#include "probes/object_discovery.h"
#include "probes/throughput_probe.h"
#include "transport/curl_http_client.h"
#include "transport/http_errors.h"

using namespace feedcheck;
using namespace feedcheck::testing;

namespace {

std::string Endpoint() {
  std::string e = EnvEndpoint("FEEDCHECK_TEST_AZURITE");
  REQUIRE_FALSE(e.empty());  // set by the ctest fixture; run through ctest -L azurite
  return e;
}

// Seeds a container once per test process; names are per-test so ctest -j cannot collide.
std::string Seed(const std::string& container, std::string* content = nullptr) {
  Endpoint();
  CurlHttpClient client;
  int created = CreateContainer(&client, container);
  REQUIRE((created == 201 || created == 409));
  REQUIRE(PutBlob(&client, container, "data/a.bin", 1 << 20, 1, content) == 201);
  REQUIRE(PutBlob(&client, container, "data/b.bin", 3 << 20, 2) == 201);
  REQUIRE(PutBlob(&client, container, "small/4k.bin", 4096, 3) == 201);
  return container;
}

HttpProbeEnv EnvFor(const std::string& url, AuthConfig auth) {
  HttpProbeEnv env;
  REQUIRE(ParseTarget(url, {}, &env.target, nullptr));
  env.signer = RequestSigner(auth, true);
  env.make_client = [] { return std::make_unique<CurlHttpClient>(); };
  env.budget.duration_s = 20;
  return env;
}

HttpResponse Get(const std::string& url, AuthConfig auth, const std::string& range,
                 const std::string& method = "GET") {
  HttpRequest r;
  r.method = method;
  r.url = url;
  if (!range.empty()) r.headers.emplace_back("Range", range);
  RequestSigner(auth, true).Sign(&r);
  r.keep_body = true;
  CurlHttpClient client;
  return client.Perform(r);
}

}  // namespace

TEST_CASE("Shared Key ranged GETs return exactly the requested bytes") {
  std::string content;
  std::string c = Seed("fchsharedkey", &content);
  std::string url = AzuriteAccountUrl() + "/" + c + "/data/a.bin";
  HttpResponse r = Get(url, DevSharedKey(), "bytes=100-199");
  REQUIRE(r.status == 206);
  CHECK(r.body == content.substr(100, 100));
  CHECK(r.Header("content-range") == "bytes 100-199/1048576");
  HttpResponse tail = Get(url, DevSharedKey(), "bytes=1048000-");
  CHECK(tail.status == 206);
  CHECK(tail.body == content.substr(1048000));
  HttpResponse past = Get(url, DevSharedKey(), "bytes=2000000-2000100");
  CHECK(past.status == 416);
  CHECK(ErrorCodeOf(past) == "InvalidRange");
}

TEST_CASE("SAS tokens authorize reads and a wrong key gets 403") {
  std::string content;
  std::string c = Seed("fchsas", &content);
  std::string url = AzuriteAccountUrl() + "/" + c + "/data/a.bin";
  AuthConfig sas;
  sas.kind = AuthKind::kSas;
  sas.sas = DevAccountSas();
  HttpResponse r = Get(url, sas, "bytes=0-9");
  REQUIRE(r.status == 206);
  CHECK(r.body == content.substr(0, 10));
  CHECK(Get(url, AuthConfig{}, "bytes=0-9").status == 403);  // anonymous on a private container

  AuthConfig wrong = DevSharedKey();
  wrong.key_base64 = Base64Encode(std::string(64, 'x'));
  HttpResponse denied = Get(url, wrong, "bytes=0-9");
  CHECK(denied.status == 403);
  CHECK(ClassifyResponse(denied) == ErrorClass::kClient);
  CHECK_FALSE(ErrorCodeOf(denied).empty());
}

TEST_CASE("HEAD of a missing blob reports 404 with x-ms-error-code") {
  std::string c = Seed("fchmissing");
  HttpResponse r = Get(AzuriteAccountUrl() + "/" + c + "/nope.bin", DevSharedKey(), "", "HEAD");
  CHECK(r.status == 404);
  CHECK(r.Header("x-ms-error-code") == "BlobNotFound");
  CHECK(ErrorCodeOf(r) == "BlobNotFound");
}

TEST_CASE("discovery finds one blob or the blobs under a prefix") {
  std::string c = Seed("fchdiscover");
  CurlHttpClient client;
  ErrorTally errors;
  BudgetTracker budget(ProbeBudget{});
  HttpProbeEnv one = EnvFor(AzuriteAccountUrl() + "/" + c + "/data/b.bin", DevSharedKey());
  DiscoveryResult d1 = DiscoverObjects(one, &client, &budget, &errors, 10);
  REQUIRE(d1.objects.size() == 1);
  CHECK(d1.objects[0].size_bytes == (3u << 20));
  HttpProbeEnv prefix = EnvFor(AzuriteAccountUrl() + "/" + c + "/data/", DevSharedKey());
  DiscoveryResult d2 = DiscoverObjects(prefix, &client, &budget, &errors, 10);
  REQUIRE(d2.objects.size() == 2);
  CHECK(d2.objects[0].name == "data/a.bin");
  CHECK(d2.objects[1].name == "data/b.bin");
  HttpProbeEnv missing = EnvFor(AzuriteAccountUrl() + "/" + c + "/zzz/", DevSharedKey());
  DiscoveryResult d3 = DiscoverObjects(missing, &client, &budget, &errors, 10);
  CHECK(d3.objects.empty());
  CHECK(d3.error.find("no non-empty blobs") != std::string::npos);
}

TEST_CASE("latency probe measures Azurite with percentiles and stays in budget") {
  std::string c = Seed("fchlatency");
  HttpProbeEnv env = EnvFor(AzuriteAccountUrl() + "/" + c + "/small/4k.bin", DevSharedKey());
  env.budget.max_requests = 60;
  LatencyProbeOptions o;
  o.requests = 30;
  o.head_requests = 10;
  o.new_connections = 5;
  o.warmup_requests = 2;
  LatencyProbeResult out = RunLatencyProbe(env, o);
  INFO(out.result.message);
  CHECK(out.result.status == ProbeStatus::kOk);
  CHECK(out.ttfb.count() == 30);
  CHECK(out.head.count() == 10);
  CHECK(out.new_conn_ttfb.count() == 5);
  CHECK(out.connect.count() == 5);
  CHECK(out.result.requests_sent <= 60);
  const FactSet& f = out.result.evidence.facts;
  REQUIRE(f.Number("probe.latency.ttfb_p50_ms"));
  CHECK(*f.Number("probe.latency.ttfb_p50_ms") > 0);
  CHECK(*f.Number("probe.latency.ttfb_p50_ms") <= *f.Number("probe.latency.ttfb_p99_ms"));
  CHECK(*f.Number("probe.latency.new_conn_ttfb_p50_ms") >= *f.Number("probe.latency.connect_ms"));
  CHECK_FALSE(f.Has("probe.latency.tls_ms"));  // plain http: no handshake, no "0 s"
  REQUIRE(out.result.evidence.FindSeries("probe.latency.ttfb_cdf"));
  CHECK(out.result.evidence.FindSeries("probe.latency.ttfb_cdf")->points.size() == 100);
}

TEST_CASE("throughput probe reads all blobs under a prefix over several connections") {
  std::string c = Seed("fchthroughput");
  HttpProbeEnv env = EnvFor(AzuriteAccountUrl() + "/" + c + "/data/", DevSharedKey());
  env.budget.duration_s = 3;
  env.budget.max_bytes = 1ull << 30;
  ThroughputProbeOptions o;
  o.block_bytes = 1 << 20;
  o.concurrency = 2;
  ThroughputProbeResult out = RunThroughputProbe(env, o);
  INFO(out.result.message);
  CHECK(out.result.status != ProbeStatus::kFailed);
  REQUIRE(out.steps.size() == 1);
  CHECK(out.steps[0].gbps > 0);
  CHECK(out.result.bytes_received <= (1ull << 30));
  CHECK(out.result.elapsed_s < 3.5);
  const FactSet& f = out.result.evidence.facts;
  CHECK(f.Number("probe.throughput.objects") == 2.0);
  CHECK(f.Number("probe.throughput.best_concurrency") == 2.0);
  CHECK(f.Number("probe.throughput.cpu_s_per_gb").value_or(-1) > 0);
}

TEST_CASE("a wrong key makes the probe stop at once with the HTTP status, not hang") {
  std::string c = Seed("fchwrongkey");
  AuthConfig wrong = DevSharedKey();
  wrong.key_base64 = Base64Encode(std::string(64, 'y'));
  HttpProbeEnv env = EnvFor(AzuriteAccountUrl() + "/" + c + "/data/a.bin", wrong);
  LatencyProbeResult out = RunLatencyProbe(env, LatencyProbeOptions{});
  // Reached but refused: the probe failed (exit 4), the target is not unreachable (3).
  CHECK(out.result.status == ProbeStatus::kFailed);
  CHECK(out.result.message.find("403") != std::string::npos);
  CHECK(out.result.evidence.facts.Number("probe.errors.http.403") == 1.0);
}

TEST_CASE("CLI: latency and throughput against Azurite with --json, secrets from env") {
  std::string c = Seed("fchcli");
  std::string env = "AZURE_STORAGE_KEY='" + kDevKey + "'";
  CommandOutput lat = RunFeedcheck("probe latency " + AzuriteAccountUrl() + "/" + c +
                                       "/small/4k.bin --requests 20 --head-requests 5 "
                                       "--new-connections 3 --duration 20 --json",
                                   env);
  INFO(lat.err);
  REQUIRE(lat.exit_code == 0);
  auto j = nlohmann::json::parse(lat.out);
  CHECK(j["schema_version"] == 1);
  CHECK(j["result"]["status"] == "ok");
  CHECK(j["result"]["auth"] == "shared-key");
  CHECK(lat.err.find("budget at most 20 s") != std::string::npos);  // stated before starting
  bool has_p50 = false;
  for (auto& fact : j["evidence"]["facts"]) has_p50 |= fact["key"] == "probe.latency.ttfb_p50_ms";
  CHECK(has_p50);
  // The headline numbers, where fio and elbencho users look first.
  CHECK(j["result"]["ttfb_p50_ms"].get<double>() > 0);
  CHECK(j["result"]["ttfb_p99_ms"].get<double>() >= j["result"]["ttfb_p50_ms"].get<double>());
  CHECK(j["result"]["requests_measured"] == 20);
  CHECK(lat.out.find(kDevKey.substr(0, 20)) == std::string::npos);
  CHECK(lat.err.find(kDevKey.substr(0, 20)) == std::string::npos);

  std::string sas_env = "AZURE_STORAGE_SAS_TOKEN='" + DevAccountSas() + "'";
  CommandOutput tp = RunFeedcheck("probe throughput " + AzuriteAccountUrl() + "/" + c +
                                      "/data/ --concurrency 2 --block-size 1MiB --duration 3 "
                                      "--json",
                                  sas_env);
  INFO(tp.err);
  REQUIRE(tp.exit_code == 0);
  auto t = nlohmann::json::parse(tp.out);
  CHECK(t["result"]["auth"] == "sas");
  CHECK(t["result"]["peak_gbps"].get<double>() > 0);
  CHECK(t["result"]["knee_connections"] == 2);
  CHECK(t["result"]["conclusion"].get<std::string>().find("2 connections") != std::string::npos);
  CHECK(tp.out.find("sig=") == std::string::npos);
  bool has_series = false;
  for (auto& s : t["evidence"]["series"])
    has_series |= s["key"] == "probe.throughput.by_concurrency";
  CHECK(has_series);
}

TEST_CASE("CLI: an anonymous probe of a private container says which credential to give") {
  std::string c = Seed("fchanon");  // containers are private unless made public
  CommandOutput out = RunFeedcheck("probe throughput " + AzuriteAccountUrl() + "/" + c +
                                   "/data/ --auth anonymous --duration 3 --json");
  INFO(out.err);
  CHECK((out.exit_code == 3 || out.exit_code == 4));
  CHECK(out.err.find("AZURE_STORAGE_SAS_TOKEN") != std::string::npos);
  CHECK(out.err.find("--auth managed-identity") != std::string::npos);
  CHECK(out.err.find("Storage Blob Data Reader") != std::string::npos);
  auto j = nlohmann::json::parse(out.out);
  CHECK(j["result"]["auth"] == "anonymous");
  bool in_report = false;
  for (auto& w : j["context"]["warnings"])
    in_report |= w.get<std::string>().find("Storage Blob Data Reader") != std::string::npos;
  CHECK(in_report);
  // With the key the same probe reads: the advice was about the missing credential.
  CommandOutput keyed = RunFeedcheck(
      "probe throughput " + AzuriteAccountUrl() + "/" + c + "/data/ --concurrency 1 --duration 2",
      "AZURE_STORAGE_KEY='" + kDevKey + "'");
  CHECK(keyed.exit_code == 0);
  CHECK(keyed.err.find("Storage Blob Data Reader") == std::string::npos);
}

TEST_CASE("CLI: secrets on the command line are refused") {
  CommandOutput key = RunFeedcheck("probe latency " + AzuriteAccountUrl() + "/c/x --key abc");
  CHECK(key.exit_code == 2);
  CHECK(key.err.find("AZURE_STORAGE_KEY") != std::string::npos);
  CommandOutput sas =
      RunFeedcheck("probe latency '" + AzuriteAccountUrl() + "/c/x?sv=2021&sig=S3CRETSIG'");
  CHECK(sas.exit_code == 2);
  CHECK(sas.err.find("AZURE_STORAGE_SAS_TOKEN") != std::string::npos);
  CHECK(sas.err.find("S3CRETSIG") == std::string::npos);
}

TEST_CASE("CLI: a 404 target is a target error (exit 3) naming the code") {
  std::string c = Seed("fchcli404");
  CommandOutput out =
      RunFeedcheck("probe latency " + AzuriteAccountUrl() + "/" + c + "/absent.bin --json",
                   "AZURE_STORAGE_KEY='" + kDevKey + "'");
  CHECK(out.exit_code == 3);
  CHECK(out.err.find("404") != std::string::npos);
  auto j = nlohmann::json::parse(out.out);
  CHECK(j["result"]["status"] == "unreachable");
}

TEST_CASE("Shared Key signs blob names that need percent-encoding") {
  std::string c = Seed("fchencoding");
  CurlHttpClient client;
  Target t;
  REQUIRE(ParseTarget(AzuriteAccountUrl() + "/" + c, {}, &t, nullptr));
  HttpRequest put;
  put.method = "PUT";
  put.url = t.ObjectUrl("dir with space/a+b=c&d.bin");
  put.body = "payload";
  put.headers.emplace_back("x-ms-blob-type", "BlockBlob");
  RequestSigner(DevSharedKey(), true).Sign(&put);
  REQUIRE(client.Perform(put).status == 201);
  HttpResponse r = Get(t.ObjectUrl("dir with space/a+b=c&d.bin"), DevSharedKey(), "bytes=0-2");
  CHECK(r.status == 206);
  CHECK(r.body == "pay");
}
