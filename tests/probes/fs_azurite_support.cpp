#include "fs_azurite_support.h"

#include <catch2/catch.hpp>
#include <cstdlib>

#include "probes/list_probe.h"
#include "transport/curl_http_client.h"
#include "transport/list_blobs_xml.h"

namespace feedcheck::testing {

std::string AzuriteBase() {
  const char* v = std::getenv("FEEDCHECK_TEST_AZURITE");
  if (!v || !*v) FAIL("FEEDCHECK_TEST_AZURITE is not set (run through ctest: fixture 'azurite')");
  return v;
}

HttpProbeEnv AzuriteEnv(const std::string& container, const std::string& prefix, bool shared_key,
                        const std::string& key) {
  HttpProbeEnv env;
  std::string error;
  std::string url = AzuriteBase() + "/" + kAzuriteAccount + "/" + container + "/" + prefix;
  REQUIRE(ParseTarget(url, {}, &env.target, &error));
  AuthConfig auth;
  auth.account = kAzuriteAccount;
  if (shared_key) {
    auth.kind = AuthKind::kSharedKey;
    auth.key_base64 = key;
  }
  env.signer = RequestSigner(auth, true);
  env.make_client = [] { return std::unique_ptr<HttpClient>(new CurlHttpClient()); };
  return env;
}

void CreateContainer(const std::string& container) {
  HttpProbeEnv env = AzuriteEnv(container, "");
  auto client = env.make_client();
  HttpRequest r = env.SignedRequest("PUT", env.target.ContainerUrl() + "?restype=container");
  HttpResponse resp = client->Perform(r);
  INFO(resp.transport_error << " " << resp.body);
  REQUIRE((resp.status == 201 || resp.status == 409));
}

bool PutBlob(const HttpProbeEnv& env, const std::string& name, size_t size) {
  thread_local std::unique_ptr<HttpClient> client = env.make_client();
  HttpRequest put = env.SignedRequest(
      "PUT", env.target.ObjectUrl(name),
      {{"x-ms-blob-type", "BlockBlob"}, {"Content-Length", std::to_string(size)}});
  put.body.assign(size, 'x');
  return client->Perform(put).status == 201;
}

std::vector<std::string> ListNames(const std::string& container, const std::string& prefix) {
  HttpProbeEnv env = AzuriteEnv(container, prefix);
  auto client = env.make_client();
  std::vector<std::string> names;
  std::string marker;
  ListProbeOptions o;
  for (int i = 0; i < 100; ++i) {
    HttpRequest r = env.SignedRequest("GET", ListPageUrl(env.target, o, marker));
    r.keep_body = true;
    HttpResponse resp = client->Perform(r);
    REQUIRE(resp.status == 200);
    ListPage page;
    std::string error;
    REQUIRE(ParseListBlobsXml(resp.body, &page, &error));
    for (auto& e : page.entries) names.push_back(e.name);
    if (page.next_marker.empty()) break;
    marker = page.next_marker;
  }
  return names;
}

}  // namespace feedcheck::testing
