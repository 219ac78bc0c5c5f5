// Credentials and the network (labels safety, netns): run by in_own_netns.sh inside a network
// namespace of the test's own with only loopback up, where 192.0.2.10, 2001:db8::1 and the
// instance metadata address 169.254.169.254 are local listeners of the test. A credential must
// never be sent in cleartext to a host that is not loopback, and the metadata endpoint must never
// be asked through a proxy. No connection can leave the namespace.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tests/fault_server/server_process.h"
#include "tests/safety/capture_server.h"
#include "tests/support/subprocess.h"

using namespace feedcheck::testing;

namespace {

const std::string kSasSig = "TmV0bnNDcmVkZW50aWFsU2lnbmF0dXJl%3D";
const std::string kSas = "sv=2023-11-03&ss=b&srt=sco&sp=rl&se=2030-01-01T00:00:00Z&sig=" + kSasSig;
const std::string kKey =
    "TmV0bnNDcmVkZW50aWFsQWNjb3VudEtleS1mZWVkY2hlY2stMDEyMzQ1Njc4OUFCQ0RFRkdISUpLTE1OT1A=";
const std::string kImdsToken = "eyJ0eXAiOiJKV1QifQ.eyJzdWIiOiJpbWRzLXRva2VuIn0.SU1EUw";
const std::string kProxyToken = "eyJ0eXAiOiJKV1QifQ.eyJzdWIiOiJwcm94eS10b2tlbiJ9.UFJPWFk";

std::string Feedcheck() { return EnvOr("FEEDCHECK", FEEDCHECK_BINARY_DIR "/feedcheck"); }

std::string Describe(const CommandResult& r) {
  return "exit " + std::to_string(r.exit_code) + "\nstderr: " + r.err.substr(0, 3000) +
         "\nstdout: " + r.out.substr(0, 2000);
}

std::string ProxyEnv(const std::string& proxy) {
  return "env -u no_proxy -u NO_PROXY -u FEEDCHECK_IMDS_ENDPOINT http_proxy=" + proxy +
         " https_proxy=" + proxy + " HTTPS_PROXY=" + proxy + " all_proxy=" + proxy +
         " ALL_PROXY=" + proxy + " ";
}

std::string TokenJson(const std::string& token) {
  return "{\"access_token\":\"" + token +
         "\",\"expires_in\":\"3599\",\"resource\":\"https://storage.azure.com/\","
         "\"token_type\":\"Bearer\"}";
}

}  // namespace

TEST_CASE("the instance metadata endpoint is never asked through a proxy", "[netns-credentials]") {
  CaptureServer imds("169.254.169.254", 80, [](const std::string&) {
    return CaptureServer::Answer(200, TokenJson(kImdsToken), "Content-Type: application/json\r\n");
  });
  // A proxy that would answer with a token of its own.
  CaptureServer proxy("127.0.0.1", 0, [](const std::string&) {
    return CaptureServer::Answer(200, TokenJson(kProxyToken), "Content-Type: application/json\r\n");
  });
  FaultServerProcess server(FAULT_SERVER, {"--object-bytes", "65536"});
  CommandResult r =
      RunCommand(ProxyEnv(proxy.Url()) + " timeout -s KILL 60 " + ShellQuote(Feedcheck()) +
                 " probe latency " + ShellQuote(server.Url("/devstoreaccount1/c/blob.bin")) +
                 " --auth managed-identity --duration 2s --max-requests 10 --json");
  INFO(Describe(r) << "\nproxy saw:\n" << proxy.Heads() << "\nIMDS saw:\n" << imds.Heads());
  CHECK(proxy.connections() == 0);
  CHECK(imds.connections() == 1);
  CHECK(imds.Heads().find("Metadata: true") != std::string::npos);
  CHECK(r.exit_code == 0);
  for (const std::string& token : {kImdsToken, kProxyToken}) {
    CHECK(r.out.find(token) == std::string::npos);
    CHECK(r.err.find(token) == std::string::npos);
  }
}

TEST_CASE("a credential goes over plain http to loopback only, refused before connecting",
          "[netns-credentials]") {
  CaptureServer v4("192.0.2.10", 80,
                   [](const std::string&) { return CaptureServer::Answer(200, "ok"); });
  CaptureServer v6("2001:db8::1", 80,
                   [](const std::string&) { return CaptureServer::Answer(200, "ok"); });
  struct Case {
    std::string url;
    std::string env;
    std::string auth;
  };
  const std::string sas_env = "AZURE_STORAGE_SAS_TOKEN=" + ShellQuote(kSas);
  const std::string key_env =
      "AZURE_STORAGE_ACCOUNT=devstoreaccount1 AZURE_STORAGE_KEY=" + ShellQuote(kKey);
  const std::vector<Case> cases = {
      {"http://192.0.2.10/devstoreaccount1/c/blob.bin", sas_env, "sas"},
      {"http://192.0.2.10:80/devstoreaccount1/c/blob.bin", key_env, "shared-key"},
      {"http://[2001:db8::1]/devstoreaccount1/c/blob.bin", sas_env, "sas"},
      {"http://[2001:db8::1]:80/devstoreaccount1/c/blob.bin", key_env, "shared-key"},
      {"http://127.evil.blob.core.windows.net/c/blob.bin", sas_env, "sas"},
      {"http://127.0.0.1.evil.blob.core.windows.net/c/blob.bin", key_env, "shared-key"},
  };
  for (const Case& c : cases) {
    CommandResult r = RunCommand("env " + c.env + " timeout -s KILL 30 " + ShellQuote(Feedcheck()) +
                                 " probe latency " + ShellQuote(c.url) + " --auth " + c.auth +
                                 " --duration 2s --max-requests 5");
    INFO(c.url << " " << c.auth << ": " << Describe(r));
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("refusing to send") != std::string::npos);
    CHECK(r.err.find(kSasSig) == std::string::npos);
    CHECK(r.err.find(kKey.substr(0, 24)) == std::string::npos);
  }
  // Managed identity to a non-loopback http target: refused before the token is even asked for.
  CaptureServer imds("169.254.169.254", 80, [](const std::string&) {
    return CaptureServer::Answer(200, TokenJson(kImdsToken), "Content-Type: application/json\r\n");
  });
  CommandResult mi = RunCommand("timeout -s KILL 30 " + ShellQuote(Feedcheck()) +
                                " probe latency http://192.0.2.10/devstoreaccount1/c/blob.bin "
                                "--auth managed-identity --duration 1s --max-requests 2");
  INFO(Describe(mi));
  CHECK(mi.exit_code == 2);
  CHECK(mi.err.find("refusing to send") != std::string::npos);
  CHECK(imds.connections() == 0);
  INFO("192.0.2.10 saw:\n" << v4.Heads() << "\n2001:db8::1 saw:\n" << v6.Heads());
  CHECK(v4.connections() == 0);
  CHECK(v6.connections() == 0);
  // Anonymous reads of a public container over http stay possible (no credential to protect).
  CommandResult anon = RunCommand("timeout -s KILL 30 " + ShellQuote(Feedcheck()) +
                                  " probe latency http://192.0.2.10/devstoreaccount1/c/blob.bin "
                                  "--auth anonymous --duration 1s --max-requests 2");
  INFO(Describe(anon));
  CHECK(anon.exit_code != 2);
  CHECK(v4.connections() > 0);
}

TEST_CASE("wasbs:// with a password before '@' is refused and the password never shown",
          "[netns-credentials]") {
  const std::string password = "UGFzc3dvcmRJblVzZXJpbmZvU2VjcmV0";
  for (const std::string& url : {"wasbs://c:" + password + "@acct.blob.core.windows.net/data/",
                                 "abfss://fs:" + password + "@acct.dfs.core.windows.net/data/",
                                 "wasbs://c:" + password + "@x@acct.blob.core.windows.net/data/"}) {
    CommandResult r =
        RunCommand("timeout -s KILL 30 " + ShellQuote(Feedcheck()) + " probe latency " +
                   ShellQuote(url) + " --auth anonymous --duration 1s");
    INFO(url << ": " << Describe(r));
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(password) == std::string::npos);
    CHECK(r.out.find(password) == std::string::npos);
    CHECK(r.err.find("password") != std::string::npos);
  }
}
