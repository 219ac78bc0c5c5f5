#include "probes/list_probe.h"

#include <catch2/catch.hpp>
#include <filesystem>

#include "fixture_tree.h"
#include "tests/fakes/list_blobs_page.h"
#include "tests/fakes/scripted_http_client.h"

using namespace feedcheck;
using feedcheck::testing::FixtureTree;
using feedcheck::testing::Ok;
using feedcheck::testing::ScriptedHttpClient;

namespace {

Target BlobTarget(const std::string& prefix) {
  Target t;
  std::string error;
  REQUIRE(ParseTarget("https://acct.blob.core.windows.net/data/" + prefix, {}, &t, &error));
  return t;
}

HttpProbeEnv EnvWith(const Target& t, std::shared_ptr<ScriptedHttpClient> client) {
  HttpProbeEnv env;
  env.target = t;
  env.signer = RequestSigner(AuthConfig{}, true);
  env.make_client = [client]() -> std::unique_ptr<HttpClient> {
    struct Forward : HttpClient {
      std::shared_ptr<ScriptedHttpClient> c;
      HttpResponse Perform(const HttpRequest& r) override { return c->Perform(r); }
    };
    auto f = std::make_unique<Forward>();
    f->c = client;
    return f;
  };
  return env;
}

std::string Page(const std::vector<std::pair<std::string, uint64_t>>& blobs,
                 const std::string& marker, const std::vector<std::string>& prefixes = {}) {
  std::string xml = "<EnumerationResults><Blobs>";
  for (const auto& [n, s] : blobs) xml += feedcheck::testing::ListBlobsBlobXml(n, s);
  for (const auto& p : prefixes) xml += "<BlobPrefix><Name>" + p + "</Name></BlobPrefix>";
  xml += "</Blobs><NextMarker>" + marker + "</NextMarker></EnumerationResults>";
  return xml;
}

}  // namespace

TEST_CASE("list page URLs carry prefix, delimiter and the marker percent-encoded",
          "[probes][list]") {
  ListProbeOptions o;
  o.max_results = 9000;  // clamped to the service maximum
  CHECK(ListPageUrl(BlobTarget("train/"), o, "") ==
        "https://acct.blob.core.windows.net/data?restype=container&comp=list&maxresults=5000"
        "&prefix=train%2F");
  o.delimiter = "/";
  o.max_results = 10;
  CHECK(ListPageUrl(BlobTarget(""), o, "2!96!MDAw+/=") ==
        "https://acct.blob.core.windows.net/data?restype=container&comp=list&maxresults=10"
        "&delimiter=%2F&marker=2%2196%21MDAw%2B%2F%3D");
  Target dfs;
  std::string error;
  REQUIRE(ParseTarget("abfss://fs@acct.dfs.core.windows.net/dir/sub/", {}, &dfs, &error));
  o.delimiter.clear();
  CHECK(ListPageUrl(dfs, o, "tok en") ==
        "https://acct.dfs.core.windows.net/fs?resource=filesystem&recursive=true&maxResults=10"
        "&directory=dir%2Fsub&continuation=tok%20en");
}

TEST_CASE("pages are followed to the end and the dataset shape is collected", "[probes][list]") {
  std::vector<std::string> markers_seen;
  auto client = std::make_shared<ScriptedHttpClient>([&](const HttpRequest& r) {
    auto m = r.url.find("&marker=");
    markers_seen.push_back(m == std::string::npos ? "" : r.url.substr(m + 8));
    if (markers_seen.size() == 1)
      return Ok(Page({{"train/a/1.jpg", 100}, {"train/a/2.jpg", 300}}, "opaque&amp;1"), 0.010);
    if (markers_seen.size() == 2)
      return Ok(Page({{"train/b/3.jpg", 200}, {"train/b/c/4.bin", 64ull << 20}}, "x"), 0.030);
    return Ok(Page({}, ""), 0.020);
  });
  ListProbeOptions o;
  auto r = RunListProbe(EnvWith(BlobTarget("train/"), client), o);
  INFO(r.message);
  REQUIRE(r.status == ProbeStatus::kOk);
  CHECK(markers_seen == std::vector<std::string>{"", "opaque%261", "x"});
  const FactSet& f = r.evidence.facts;
  CHECK(f.Number("probe.list.pages") == std::optional<double>(3));
  CHECK(f.Number("probe.list.entries") == std::optional<double>(4));
  CHECK(f.Bool("probe.list.complete") == std::optional<bool>(true));
  CHECK(f.Number("probe.list.page_p50_ms").value() == Approx(20).epsilon(0.01));
  CHECK(f.Number("dataset.files") == std::optional<double>(4));
  CHECK(f.Number("dataset.dirs") == std::optional<double>(3));  // a, b, b/c
  CHECK(f.Number("dataset.median_file_bytes") == std::optional<double>(200));
  CHECK(f.Number("dataset.max_file_bytes") == std::optional<double>(64ull << 20));
  CHECK(f.Number("dataset.small_file_fraction") == std::optional<double>(0.75));
  const Series* s = r.evidence.FindSeries("probe.list.page_ms");
  REQUIRE(s != nullptr);
  REQUIRE(s->points.size() == 3);
  CHECK(s->points[1].x == 2);
  CHECK(s->points[1].y == Approx(30));
  CHECK(r.evidence.FindSeries("dataset.size_histogram") != nullptr);
  // Entries listed by time, from the first request: one point per page after (0, 0), the
  // count rising to every entry, the time never going back.
  const Series* listed = r.evidence.FindSeries("probe.list.entries_by_time");
  REQUIRE(listed != nullptr);
  REQUIRE(listed->points.size() == 4);
  CHECK(listed->points[0].x == 0);
  CHECK(listed->points[0].y == 0);
  CHECK(listed->points[2].y == 4);
  CHECK(listed->points[3].y == 4);  // the empty last page
  for (size_t i = 1; i < listed->points.size(); ++i)
    CHECK(listed->points[i].x >= listed->points[i - 1].x);
  CHECK(listed->x_unit == Unit::kSeconds);
}

TEST_CASE("max-pages bounds the listing and marks it partial", "[probes][list]") {
  // A marker that moves on, as the service's does (one that never changes ends the listing).
  int page = 0;
  auto client = std::make_shared<ScriptedHttpClient>([&page](const HttpRequest&) {
    return Ok(Page({{"f", 1}}, "more-" + std::to_string(++page)));
  });
  ListProbeOptions o;
  o.max_pages = 3;
  auto r = RunListProbe(EnvWith(BlobTarget(""), client), o);
  CHECK(client->requests().size() == 3);
  CHECK(r.status == ProbeStatus::kPartial);
  CHECK(r.evidence.facts.Bool("probe.list.complete") == std::optional<bool>(false));
  CHECK(r.evidence.facts.Find("dataset.files")->provenance.source.find("lower bounds") !=
        std::string::npos);
}

TEST_CASE("a NextMarker that never changes ends the listing after the repeated page",
          "[probes][list]") {
  auto client = std::make_shared<ScriptedHttpClient>([](const HttpRequest&) {
    return Ok(Page({{"f", 1}}, "stuck"));
  });
  ListProbeOptions o;
  o.max_pages = 50;
  auto r = RunListProbe(EnvWith(BlobTarget(""), client), o);
  CHECK(client->requests().size() == 2);
  CHECK(r.status == ProbeStatus::kPartial);
  CHECK(r.message.find("NextMarker did not change") != std::string::npos);
}

TEST_CASE("the request budget stops the listing", "[probes][list]") {
  auto client = std::make_shared<ScriptedHttpClient>([](const HttpRequest&) {
    return Ok(Page({{"f", 1}}, "more"));
  });
  auto env = EnvWith(BlobTarget(""), client);
  env.budget.max_requests = 2;
  auto r = RunListProbe(env, ListProbeOptions{});
  CHECK(client->requests().size() == 2);
  CHECK(r.status == ProbeStatus::kPartial);
}

TEST_CASE("an HTTP error is a result with its status and error code", "[probes][list]") {
  auto client = std::make_shared<ScriptedHttpClient>([](const HttpRequest&) {
    HttpResponse r;
    r.status = 403;
    r.headers["x-ms-error-code"] = "AuthorizationPermissionMismatch";
    return r;
  });
  auto r = RunListProbe(EnvWith(BlobTarget(""), client), ListProbeOptions{});
  CHECK(r.status == ProbeStatus::kFailed);
  CHECK(r.message.find("HTTP 403 AuthorizationPermissionMismatch") != std::string::npos);
  CHECK(r.evidence.facts.Number("probe.errors.http.403") == std::optional<double>(1));
}

TEST_CASE("a garbage page fails with the parser's message", "[probes][list]") {
  auto client = std::make_shared<ScriptedHttpClient>(
      [](const HttpRequest&) { return Ok("<EnumerationResults><Blobs><Blob>"); });
  auto r = RunListProbe(EnvWith(BlobTarget(""), client), ListProbeOptions{});
  CHECK(r.status == ProbeStatus::kFailed);
  CHECK(r.message.find("page 1: List Blobs XML") != std::string::npos);
}

TEST_CASE("ADLS List Paths follows x-ms-continuation", "[probes][list]") {
  int n = 0;
  auto client = std::make_shared<ScriptedHttpClient>([&](const HttpRequest&) {
    ++n;
    auto r = Ok(
        n == 1
            ? R"({"paths":[{"name":"d","isDirectory":"true"},{"name":"d/x","contentLength":"10"}]})"
            : R"({"paths":[{"name":"d/y","contentLength":"30"}]})");
    if (n == 1) r.headers["x-ms-continuation"] = "c1==";
    return r;
  });
  Target dfs;
  std::string error;
  REQUIRE(ParseTarget("abfss://fs@acct.dfs.core.windows.net/", {}, &dfs, &error));
  auto r = RunListProbe(EnvWith(dfs, client), ListProbeOptions{});
  REQUIRE(r.status == ProbeStatus::kOk);
  auto reqs = client->requests();
  REQUIRE(reqs.size() == 2);
  CHECK(reqs[1].url.find("&continuation=c1%3D%3D") != std::string::npos);
  CHECK(r.evidence.facts.Number("dataset.files") == std::optional<double>(2));
  CHECK(r.evidence.facts.Number("dataset.dirs") == std::optional<double>(1));
}

TEST_CASE("a local tree: readdir first entry, full walk, stat per entry, shape",
          "[probes][list][local]") {
  FixtureTree t;
  for (int d = 0; d < 3; ++d)
    for (int i = 0; i < 5; ++i)
      t.Write("dir" + std::to_string(d) + "/f" + std::to_string(i),
              std::string(100 * (i + 1), 'x'));
  t.Write("top.bin", std::string(10, 'y'));
  auto r = RunLocalListProbe(t.root(), ListProbeOptions{}, ProbeBudget{}, nullptr);
  REQUIRE(r.status == ProbeStatus::kOk);
  const FactSet& f = r.evidence.facts;
  CHECK(f.Number("probe.list.entries") == std::optional<double>(19));  // 16 files + 3 dirs
  CHECK(f.Number("dataset.files") == std::optional<double>(16));
  CHECK(f.Number("dataset.dirs") == std::optional<double>(3));
  CHECK(f.Number("dataset.bytes") == std::optional<double>(3 * 1500 + 10));
  CHECK(f.Number("dataset.median_file_bytes") == std::optional<double>(300));
  CHECK(f.Number("probe.list.first_entry_ms").value() <= f.Number("probe.list.full_ms").value());
  CHECK(f.Number("probe.list.stat_per_entry_ms").value() > 0);
  // A walk too short for a progress point still draws from (0, 0) to every entry.
  const Series* listed = r.evidence.FindSeries("probe.list.entries_by_time");
  REQUIRE(listed != nullptr);
  REQUIRE(listed->points.size() == 2);
  CHECK(listed->points.back().y == 19);

  ListProbeOptions one_level;
  one_level.delimiter = "/";
  auto r1 = RunLocalListProbe(t.root(), one_level, ProbeBudget{}, nullptr);
  CHECK(r1.evidence.facts.Number("probe.list.entries") == std::optional<double>(4));

  ListProbeOptions bounded;
  bounded.max_pages = 1;
  bounded.max_results = 5;
  auto r2 = RunLocalListProbe(t.root(), bounded, ProbeBudget{}, nullptr);
  CHECK(r2.status == ProbeStatus::kPartial);
  CHECK(r2.evidence.facts.Number("probe.list.entries") == std::optional<double>(5));
}
