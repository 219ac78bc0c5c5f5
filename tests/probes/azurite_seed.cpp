#include "azurite_seed.h"

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <random>
#include <sstream>

namespace feedcheck::testing {

std::string EnvEndpoint(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

std::string AzuriteAccountUrl() {
  return EnvEndpoint("FEEDCHECK_TEST_AZURITE") + "/" + kDevAccount;
}

AuthConfig DevSharedKey() {
  AuthConfig a;
  a.kind = AuthKind::kSharedKey;
  a.account = kDevAccount;
  a.key_base64 = kDevKey;
  return a;
}

int CreateContainer(HttpClient* client, const std::string& container) {
  HttpRequest r;
  r.method = "PUT";
  r.url = AzuriteAccountUrl() + "/" + container + "?restype=container";
  RequestSigner(DevSharedKey(), true).Sign(&r);
  return client->Perform(r).status;
}

int PutBlob(HttpClient* client, const std::string& container, const std::string& name,
            uint64_t size, unsigned seed, std::string* content) {
  HttpRequest r;
  r.method = "PUT";
  r.url = AzuriteAccountUrl() + "/" + container + "/" + name;
  std::mt19937 rng(seed);
  r.body.resize(size);
  for (auto& c : r.body) c = static_cast<char>(rng() & 0xff);
  r.headers.emplace_back("x-ms-blob-type", "BlockBlob");
  r.timeout_s = 120;
  RequestSigner(DevSharedKey(), true).Sign(&r);
  if (content) *content = r.body;
  return client->Perform(r).status;
}

std::string DevAccountSas() {
  std::time_t now = std::time(nullptr);
  auto iso = [](std::time_t t) {
    char buf[32];
    std::tm tm{};
    gmtime_r(&t, &tm);
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return std::string(buf);
  };
  std::string sv = "2021-08-06", ss = "b", srt = "sco", sp = "rl";
  std::string st = iso(now - 300), se = iso(now + 3600), spr = "https,http";
  // Account SAS string-to-sign (version 2020-12-06 and later): 10 fields, trailing newline.
  std::string sts = kDevAccount + "\n" + sp + "\n" + ss + "\n" + srt + "\n" + st + "\n" + se +
                    "\n\n" + spr + "\n" + sv + "\n\n";
  std::string sig = HmacSha256Base64(kDevKey, sts);
  return "sv=" + sv + "&ss=" + ss + "&srt=" + srt + "&sp=" + sp + "&st=" + EncodeQueryValue(st) +
         "&se=" + EncodeQueryValue(se) + "&spr=" + EncodeQueryValue(spr) +
         "&sig=" + EncodeQueryValue(sig);
}

CommandOutput RunFeedcheck(const std::string& args, const std::string& env_prefix) {
  static int counter = 0;
  std::string err_path = std::string(FEEDCHECK_BINARY_DIR) + "/probe_test_stderr_" +
                         std::to_string(getpid()) + "_" + std::to_string(counter++) + ".txt";
  std::string cmd = env_prefix + " " + std::string(FEEDCHECK_BINARY_DIR) + "/feedcheck " + args +
                    " 2>" + err_path;
  CommandOutput out;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out.out.append(buf, n);
  int status = pclose(pipe);
  out.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(err_path);
  std::stringstream s;
  s << in.rdbuf();
  out.err = s.str();
  std::remove(err_path.c_str());
  return out;
}

}  // namespace feedcheck::testing
