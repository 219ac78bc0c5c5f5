#include "transport/azure_auth.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "core/ascii_text.h"
#include "core/json_input.h"
#include "core/known_secrets.h"

namespace feedcheck {
namespace {

std::string HeaderValue(const HttpRequest& request, std::string_view lower_name) {
  for (const auto& [name, value] : request.headers)
    if (ToLower(name) == lower_name) return std::string(Trim(value));
  return "";
}

// Reads a whole secret file, trimmed; the message names the file but never its content.
bool ReadSecretFile(const std::string& path, std::string* out, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = "cannot read " + path;
    return false;
  }
  std::ostringstream s;
  s << in.rdbuf();
  *out = Trim(s.str());
  if (out->empty()) {
    *error = path + " is empty";
    return false;
  }
  return true;
}

// A credential is one line of printable text. A second line would become a header of its own
// (a token file with "X-Injected: 1" under the token), a NUL would cut it short.
bool HasControlByte(std::string_view secret) {
  return std::any_of(secret.begin(), secret.end(),
                     [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

// `wrapped_ok`: a base64 account key may come wrapped over lines (`openssl base64` writes 64
// columns); it never goes into a header, so its whitespace is dropped instead of refused.
bool FromEnvOrFile(const GetEnvFn& env, const char* var, const std::string& file, std::string* out,
                   std::string* error, bool wrapped_ok = false) {
  bool found = false;
  if (!file.empty()) {
    if (!ReadSecretFile(file, out, error)) return false;
    found = true;
  } else if (auto v = env(var); v && !Trim(*v).empty()) {
    *out = Trim(*v);
    found = true;
  }
  if (!found) return false;
  if (wrapped_ok)
    out->erase(std::remove_if(out->begin(), out->end(),
                              [](char c) { return std::isspace(static_cast<unsigned char>(c)); }),
               out->end());
  RegisterKnownSecret(*out);
  if (HasControlByte(*out)) {
    *error = (file.empty() ? std::string(var) : file) +
             " holds more than one line or a control character; a credential is one line";
    out->clear();
    return false;
  }
  return true;
}

// The SAS signature's value, as sent (percent-encoded) and decoded: a server may echo either.
void RegisterSasSignature(const std::string& sas) {
  size_t pos = 0;
  while (pos < sas.size()) {
    size_t amp = sas.find('&', pos);
    std::string_view part =
        std::string_view(sas).substr(pos, amp == std::string::npos ? std::string::npos : amp - pos);
    size_t eq = part.find('=');
    if (eq != std::string_view::npos && IEquals(part.substr(0, eq), "sig")) {
      RegisterKnownSecret(part.substr(eq + 1));
      RegisterKnownSecret(DecodePercent(part.substr(eq + 1)));
    }
    if (amp == std::string::npos) break;
    pos = amp + 1;
  }
}

bool HasSignature(const std::string& sas) {
  std::string lower = ToLower(sas);
  return lower.rfind("sig=", 0) == 0 || lower.find("&sig=") != std::string::npos;
}

void SplitUrl(const std::string& url, std::string* path, std::string* query) {
  size_t scheme = url.find("://");
  size_t start = scheme == std::string::npos ? 0 : url.find('/', scheme + 3);
  size_t q = url.find('?');
  if (start == std::string::npos || (q != std::string::npos && start > q)) {
    *path = "/";
  } else {
    *path = url.substr(start, q == std::string::npos ? std::string::npos : q - start);
  }
  *query = q == std::string::npos ? "" : url.substr(q + 1);
}

}  // namespace

std::string_view AuthKindName(AuthKind kind) {
  switch (kind) {
    case AuthKind::kAnonymous:
      return "anonymous";
    case AuthKind::kSharedKey:
      return "shared-key";
    case AuthKind::kSas:
      return "sas";
    case AuthKind::kBearer:
      return "bearer";
  }
  return "unknown";
}

std::optional<std::string> ProcessEnv(const std::string& name) {
  const char* v = std::getenv(name.c_str());
  if (!v) return std::nullopt;
  return std::string(v);
}

std::string Base64Encode(std::string_view bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(bytes.data()),
                          static_cast<int>(bytes.size()));
  out.resize(static_cast<size_t>(std::max(n, 0)));
  return out;
}

std::optional<std::string> Base64Decode(std::string_view text) {
  std::string clean;
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c))) clean.push_back(c);
  if (clean.empty() || clean.size() % 4 != 0) return std::nullopt;
  std::string out(clean.size() / 4 * 3, '\0');
  int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(clean.data()),
                          static_cast<int>(clean.size()));
  if (n < 0) return std::nullopt;
  size_t pad = 0;
  if (clean.back() == '=') ++pad;
  if (clean.size() >= 2 && clean[clean.size() - 2] == '=') ++pad;
  out.resize(static_cast<size_t>(n) - pad);
  return out;
}

std::string HmacSha256Base64(const std::string& key_base64, const std::string& text) {
  auto key = Base64Decode(key_base64);
  if (!key) return "";
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int digest_len = 0;
  if (!HMAC(EVP_sha256(), key->data(), static_cast<int>(key->size()),
            reinterpret_cast<const unsigned char*>(text.data()), text.size(), digest, &digest_len))
    return "";
  return Base64Encode(std::string_view(reinterpret_cast<const char*>(digest), digest_len));
}

std::string HttpDate(double epoch_s) {
  std::time_t t = static_cast<std::time_t>(epoch_s);
  std::tm tm{};
  gmtime_r(&t, &tm);
  static constexpr const char* kDays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                            "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s, %02d %s %04d %02d:%02d:%02d GMT", kDays[tm.tm_wday],
                tm.tm_mday, kMonths[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min,
                tm.tm_sec);
  return buf;
}

std::string SharedKeyStringToSign(const HttpRequest& request, const std::string& account) {
  std::string content_length = HeaderValue(request, "content-length");
  if (content_length.empty() && !request.body.empty())
    content_length = std::to_string(request.body.size());
  if (content_length == "0") content_length.clear();  // empty when 0 (versions >= 2015-02-21)
  std::string s = request.method + "\n";
  s += HeaderValue(request, "content-encoding") + "\n";
  s += HeaderValue(request, "content-language") + "\n";
  s += content_length + "\n";
  s += HeaderValue(request, "content-md5") + "\n";
  s += HeaderValue(request, "content-type") + "\n";
  s += "\n";  // Date: empty because x-ms-date is sent
  s += HeaderValue(request, "if-modified-since") + "\n";
  s += HeaderValue(request, "if-match") + "\n";
  s += HeaderValue(request, "if-none-match") + "\n";
  s += HeaderValue(request, "if-unmodified-since") + "\n";
  s += HeaderValue(request, "range") + "\n";
  std::map<std::string, std::string> ms_headers;
  for (const auto& [name, value] : request.headers) {
    std::string lower = ToLower(name);
    if (lower.rfind("x-ms-", 0) == 0) ms_headers[lower] = Trim(value);
  }
  for (const auto& [name, value] : ms_headers) s += name + ":" + value + "\n";
  std::string path, query;
  SplitUrl(request.url, &path, &query);
  // "/" + account + URL path: on path-style emulator URLs the account appears twice.
  s += "/" + account + path;
  std::map<std::string, std::vector<std::string>> params;
  size_t pos = 0;
  while (pos <= query.size() && !query.empty()) {
    size_t amp = query.find('&', pos);
    std::string part = query.substr(pos, amp == std::string::npos ? std::string::npos : amp - pos);
    if (!part.empty()) {
      size_t eq = part.find('=');
      std::string name = ToLower(DecodePercent(part.substr(0, eq)));
      std::string value = eq == std::string::npos ? "" : DecodePercent(part.substr(eq + 1));
      params[name].push_back(value);
    }
    if (amp == std::string::npos) break;
    pos = amp + 1;
  }
  for (auto& [name, values] : params) {
    std::sort(values.begin(), values.end());
    std::string joined;
    for (size_t i = 0; i < values.size(); ++i) joined += (i ? "," : "") + values[i];
    s += "\n" + name + ":" + joined;
  }
  return s;
}

void RequestSigner::Sign(HttpRequest* request) const {
  if (!azure_) return;
  request->headers.emplace_back("x-ms-version", kAzureStorageVersion);
  switch (auth_.kind) {
    case AuthKind::kAnonymous:
      break;
    case AuthKind::kSas:
      request->url += (request->url.find('?') == std::string::npos ? "?" : "&") + auth_.sas;
      break;
    case AuthKind::kBearer:
      request->headers.emplace_back("x-ms-date", HttpDate(static_cast<double>(std::time(nullptr))));
      request->headers.emplace_back("Authorization", "Bearer " + auth_.bearer_token);
      break;
    case AuthKind::kSharedKey: {
      request->headers.emplace_back("x-ms-date", HttpDate(static_cast<double>(std::time(nullptr))));
      std::string signature =
          HmacSha256Base64(auth_.key_base64, SharedKeyStringToSign(*request, auth_.account));
      request->headers.emplace_back("Authorization",
                                    "SharedKey " + auth_.account + ":" + signature);
      break;
    }
  }
}

std::string ImdsTokenUrl(const GetEnvFn& env, const std::string& client_id) {
  std::string base = env("FEEDCHECK_IMDS_ENDPOINT")
                         .value_or("http://169.254.169.254/metadata/identity/oauth2/token");
  std::string url =
      base + "?api-version=2018-02-01&resource=" + EncodeQueryValue("https://storage.azure.com/");
  if (!client_id.empty()) url += "&client_id=" + EncodeQueryValue(client_id);
  return url;
}

bool ResolveAuth(const AuthOptions& options, const Target& target, const GetEnvFn& env,
                 HttpClient* imds_client, AuthConfig* out, std::string* error) {
  AuthConfig auth;
  auth.account = !options.account.empty() ? options.account : target.account;
  if (auth.account.empty()) auth.account = env("AZURE_STORAGE_ACCOUNT").value_or("");
  const std::string& mode = options.mode;
  std::string err;

  auto want = [&](const char* m) { return mode == m || mode == "auto"; };
  if (want("sas")) {
    std::string sas;
    if (FromEnvOrFile(env, "AZURE_STORAGE_SAS_TOKEN", options.sas_file, &sas, &err)) {
      if (!sas.empty() && sas.front() == '?') sas.erase(0, 1);
      if (!HasSignature(sas)) {
        *error =
            "the SAS token has no sig= part (from " +
            (options.sas_file.empty() ? std::string("AZURE_STORAGE_SAS_TOKEN") : options.sas_file) +
            ")";
        return false;
      }
      RegisterSasSignature(sas);
      auth.kind = AuthKind::kSas;
      auth.sas = sas;
      *out = auth;
      return true;
    }
    if (!err.empty()) return (*error = err, false);
    if (mode == "sas") {
      *error = "--auth sas: set AZURE_STORAGE_SAS_TOKEN or pass --sas-file FILE";
      return false;
    }
  }
  if (want("shared-key")) {
    std::string key;
    if (FromEnvOrFile(env, "AZURE_STORAGE_KEY", options.key_file, &key, &err,
                      /*wrapped_ok=*/true)) {
      if (!Base64Decode(key)) {
        *error = "the account key is not valid base64 (from " +
                 (options.key_file.empty() ? std::string("AZURE_STORAGE_KEY") : options.key_file) +
                 ")";
        return false;
      }
      if (auth.account.empty()) {
        *error =
            "Shared Key needs the account name: use a target URL that names it, --account "
            "or AZURE_STORAGE_ACCOUNT";
        return false;
      }
      auth.kind = AuthKind::kSharedKey;
      auth.key_base64 = key;
      *out = auth;
      return true;
    }
    if (!err.empty()) return (*error = err, false);
    if (mode == "shared-key") {
      *error = "--auth shared-key: set AZURE_STORAGE_KEY or pass --key-file FILE";
      return false;
    }
  }
  if (want("bearer")) {
    std::string token;
    if (FromEnvOrFile(env, "AZURE_STORAGE_BEARER_TOKEN", options.token_file, &token, &err)) {
      auth.kind = AuthKind::kBearer;
      auth.bearer_token = token;
      *out = auth;
      return true;
    }
    if (!err.empty()) return (*error = err, false);
    if (mode == "bearer") {
      *error = "--auth bearer: set AZURE_STORAGE_BEARER_TOKEN or pass --token-file FILE";
      return false;
    }
  }
  if (mode == "managed-identity") {
    if (!imds_client) {
      *error = "managed identity: no HTTP client for the instance metadata endpoint";
      return false;
    }
    HttpRequest req;
    req.url = ImdsTokenUrl(env, options.managed_identity_client_id);
    req.headers.emplace_back("Metadata", "true");
    req.keep_body = true;
    req.max_body_bytes = 64 * 1024;
    req.timeout_s = options.imds_timeout_s;
    req.connect_timeout_s = std::min(2.0, options.imds_timeout_s);
    HttpResponse resp = imds_client->Perform(req);
    if (resp.status != 200) {
      *error = "managed identity: the instance metadata endpoint answered " +
               (resp.status ? "HTTP " + std::to_string(resp.status) : resp.transport_error) +
               " (is this an Azure VM with an identity that has a storage data role?)";
      return false;
    }
    // Read the checked way (core/json_input): the answer is input like any other.
    const JsonSource quiet{"instance metadata", "", nullptr};
    const std::optional<nlohmann::json> answer = ParseJsonInput(resp.body, quiet);
    const std::optional<std::string> access_token =
        answer ? JsonField::Root(*answer, quiet)["access_token"].String() : std::nullopt;
    if (!access_token) {
      *error = "managed identity: the instance metadata answer has no access_token";
      return false;
    }
    std::string token = *access_token;
    RegisterKnownSecret(token);
    if (token.empty() || HasControlByte(token)) {
      *error = "managed identity: the instance metadata answer's access_token is not one line";
      return false;
    }
    auth.kind = AuthKind::kBearer;
    auth.bearer_token = token;
    *out = auth;
    return true;
  }
  if (mode == "auto" || mode == "anonymous") {
    auth.kind = AuthKind::kAnonymous;
    *out = auth;
    return true;
  }
  *error =
      "unknown --auth '" + mode + "' (auto, anonymous, shared-key, sas, bearer, managed-identity)";
  return false;
}

}  // namespace feedcheck
