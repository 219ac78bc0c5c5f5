#include "transport/azure_auth.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <map>

using namespace feedcheck;

namespace {

// Azurite's well-known development key (public, not a secret).
const std::string kDevKey =
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

GetEnvFn Env(std::map<std::string, std::string> vars) {
  return [vars](const std::string& name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

Target Emulator() {
  Target t;
  REQUIRE(ParseTarget("http://127.0.0.1:10500/devstoreaccount1/cont1/dir/a.bin", {}, &t, nullptr));
  return t;
}

class CannedClient : public HttpClient {
 public:
  explicit CannedClient(HttpResponse r) : response_(std::move(r)) {}
  HttpResponse Perform(const HttpRequest& request) override {
    last = request;
    return response_;
  }
  HttpRequest last;

 private:
  HttpResponse response_;
};

}  // namespace

TEST_CASE("Shared Key signs what Azure expects (account twice on path-style URLs)") {
  HttpRequest r;
  r.url = "http://127.0.0.1:10500/devstoreaccount1/cont1/dir/a.bin";
  r.headers = {{"Range", "bytes=0-4095"},
               {"x-ms-version", "2021-08-06"},
               {"x-ms-date", "Sun, 22 Nov 2026 03:06:21 GMT"}};
  std::string sts = SharedKeyStringToSign(r, "devstoreaccount1");
  CHECK(sts ==
        "GET\n\n\n\n\n\n\n\n\n\n\nbytes=0-4095\nx-ms-date:Sun, 22 Nov 2026 03:06:21 GMT\n"
        "x-ms-version:2021-08-06\n/devstoreaccount1/devstoreaccount1/cont1/dir/a.bin");
  // Oracle: Python's hmac/hashlib/base64 over the same string-to-sign.
  CHECK(HmacSha256Base64(kDevKey, sts) == "8fAlKJIzdAhHAnBWZx55AHTJH2GzbMVh3/Q8T7GOjWg=");
}

TEST_CASE("Shared Key canonicalizes query parameters sorted and decoded") {
  HttpRequest r;
  r.url = "https://acct.blob.core.windows.net/cont?restype=container&comp=list&marker=a%2Fb%20c";
  r.headers = {{"x-ms-version", "2021-08-06"}, {"x-ms-date", "Sun, 22 Nov 2026 03:06:21 GMT"}};
  std::string sts = SharedKeyStringToSign(r, "acct");
  CHECK(sts.substr(sts.find("/acct")) == "/acct/cont\ncomp:list\nmarker:a/b c\nrestype:container");
  HttpRequest put;
  put.method = "PUT";
  put.url = "https://acct.blob.core.windows.net/c/b";
  put.body = "12345";
  CHECK(SharedKeyStringToSign(put, "acct").rfind("PUT\n\n\n5\n", 0) == 0);
  put.body.clear();
  CHECK(SharedKeyStringToSign(put, "acct").rfind("PUT\n\n\n\n", 0) == 0);  // 0 -> empty
}

TEST_CASE("base64 round-trips and rejects garbage") {
  CHECK(Base64Encode("hello") == "aGVsbG8=");
  CHECK(Base64Decode("aGVsbG8=") == std::optional<std::string>("hello"));
  CHECK(Base64Decode("aGVsbA==") == std::optional<std::string>("hell"));
  CHECK_FALSE(Base64Decode("not base64!"));
  CHECK(HmacSha256Base64("###", "x").empty());
  CHECK(HttpDate(0) == "Thu, 01 Jan 1970 00:00:00 GMT");
}

TEST_CASE("auth resolution prefers SAS, then key, then token, else anonymous") {
  AuthConfig a;
  std::string error;
  AuthOptions o;
  REQUIRE(
      ResolveAuth(o, Emulator(),
                  Env({{"AZURE_STORAGE_SAS_TOKEN", "?sv=1&sig=x"}, {"AZURE_STORAGE_KEY", kDevKey}}),
                  nullptr, &a, &error));
  CHECK(a.kind == AuthKind::kSas);
  CHECK(a.sas == "sv=1&sig=x");
  REQUIRE(ResolveAuth(o, Emulator(), Env({{"AZURE_STORAGE_KEY", kDevKey}}), nullptr, &a, &error));
  CHECK(a.kind == AuthKind::kSharedKey);
  CHECK(a.account == "devstoreaccount1");
  REQUIRE(ResolveAuth(o, Emulator(), Env({{"AZURE_STORAGE_BEARER_TOKEN", "tok"}}), nullptr, &a,
                      &error));
  CHECK(a.kind == AuthKind::kBearer);
  REQUIRE(ResolveAuth(o, Emulator(), Env({}), nullptr, &a, &error));
  CHECK(a.kind == AuthKind::kAnonymous);
}

TEST_CASE("auth errors name the source and never the secret") {
  AuthConfig a;
  std::string error;
  AuthOptions o;
  o.mode = "shared-key";
  CHECK_FALSE(ResolveAuth(o, Emulator(), Env({}), nullptr, &a, &error));
  CHECK(error.find("AZURE_STORAGE_KEY") != std::string::npos);
  CHECK_FALSE(
      ResolveAuth(o, Emulator(), Env({{"AZURE_STORAGE_KEY", "sekrit!!"}}), nullptr, &a, &error));
  CHECK(error.find("base64") != std::string::npos);
  CHECK(error.find("sekrit") == std::string::npos);
  o.mode = "sas";
  CHECK_FALSE(ResolveAuth(o, Emulator(), Env({{"AZURE_STORAGE_SAS_TOKEN", "sv=1&sp=r"}}), nullptr,
                          &a, &error));
  CHECK(error.find("sig=") != std::string::npos);
  o.mode = "auto";
  o.key_file = "/nonexistent/key";
  CHECK_FALSE(ResolveAuth(o, Emulator(), Env({}), nullptr, &a, &error));
  CHECK(error.find("/nonexistent/key") != std::string::npos);
}

TEST_CASE("secrets are read from files") {
  std::string path = std::string(FEEDCHECK_BINARY_DIR) + "/auth_test_key.txt";
  std::ofstream(path) << kDevKey << "\n";
  AuthOptions o;
  o.key_file = path;
  AuthConfig a;
  std::string error;
  REQUIRE(ResolveAuth(o, Emulator(), Env({}), nullptr, &a, &error));
  CHECK(a.kind == AuthKind::kSharedKey);
  CHECK(a.key_base64 == kDevKey);
}

TEST_CASE("a credential is one line: a second line is refused, a wrapped key joined") {
  AuthConfig a;
  std::string error;
  AuthOptions o;
  o.mode = "bearer";
  CHECK_FALSE(ResolveAuth(o, Emulator(),
                          Env({{"AZURE_STORAGE_BEARER_TOKEN", "eyJ0b2tlbg.x.y\nX-Injected: 1"}}),
                          nullptr, &a, &error));
  CHECK(error.find("one line") != std::string::npos);
  CHECK(error.find("eyJ0b2tlbg") == std::string::npos);
  o.mode = "sas";
  CHECK_FALSE(ResolveAuth(o, Emulator(),
                          Env({{"AZURE_STORAGE_SAS_TOKEN", "sv=1&sig=abc\rX-Injected: 1"}}),
                          nullptr, &a, &error));
  o.mode = "sas";
  REQUIRE(ResolveAuth(o, Emulator(), Env({{"AZURE_STORAGE_SAS_TOKEN", "sv=1&SIG=abcdefgh"}}),
                      nullptr, &a, &error));
  CHECK(a.kind == AuthKind::kSas);
  o.mode = "shared-key";
  std::string wrapped = kDevKey.substr(0, 64) + "\n" + kDevKey.substr(64);
  REQUIRE(ResolveAuth(o, Emulator(), Env({{"AZURE_STORAGE_KEY", wrapped}}), nullptr, &a, &error));
  CHECK(a.key_base64 == kDevKey);
}

TEST_CASE("managed identity asks the metadata endpoint only when chosen") {
  HttpResponse ok;
  ok.status = 200;
  ok.body = R"({"access_token":"eyJ.tok","expires_in":"3599"})";
  CannedClient imds(ok);
  AuthOptions o;
  o.mode = "managed-identity";
  AuthConfig a;
  std::string error;
  REQUIRE(ResolveAuth(o, Emulator(), Env({{"FEEDCHECK_IMDS_ENDPOINT", "http://127.0.0.1:1/t"}}),
                      &imds, &a, &error));
  CHECK(a.kind == AuthKind::kBearer);
  CHECK(a.bearer_token == "eyJ.tok");
  CHECK(imds.last.url.rfind("http://127.0.0.1:1/t?api-version=", 0) == 0);
  CHECK(imds.last.timeout_s <= 5);
  HttpResponse refused;
  refused.transport_error = "Connection refused";
  CannedClient down(refused);
  CHECK_FALSE(ResolveAuth(o, Emulator(), Env({}), &down, &a, &error));
  CHECK(error.find("Connection refused") != std::string::npos);
  // auto never calls it.
  o.mode = "auto";
  CannedClient untouched(ok);
  REQUIRE(ResolveAuth(o, Emulator(), Env({}), &untouched, &a, &error));
  CHECK(untouched.last.url.empty());
}

TEST_CASE("the signer adds version and credential only for Azure targets") {
  AuthConfig sas;
  sas.kind = AuthKind::kSas;
  sas.sas = "sv=1&sig=abc";
  HttpRequest r;
  r.url = "http://h/devstoreaccount1/c/b";
  RequestSigner(sas, true).Sign(&r);
  CHECK(r.url == "http://h/devstoreaccount1/c/b?sv=1&sig=abc");
  HttpRequest plain;
  plain.url = "http://h/x";
  RequestSigner(sas, false).Sign(&plain);
  CHECK(plain.url == "http://h/x");
  CHECK(plain.headers.empty());
  AuthConfig key;
  key.kind = AuthKind::kSharedKey;
  key.account = "devstoreaccount1";
  key.key_base64 = kDevKey;
  HttpRequest k;
  k.url = "http://h/devstoreaccount1/c/b";
  RequestSigner(key, true).Sign(&k);
  bool has_auth = false;
  for (auto& [n, v] : k.headers)
    if (n == "Authorization") has_auth = v.rfind("SharedKey devstoreaccount1:", 0) == 0;
  CHECK(has_auth);
}
