// Azure Storage authorization: Shared Key (HMAC-SHA256), SAS, bearer token, anonymous.
// Secrets come from environment variables or files only, never from argv, and never leave
// this module except inside the request they sign.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "transport/http_client.h"
#include "transport/target.h"

namespace feedcheck {

inline constexpr const char* kAzureStorageVersion = "2021-08-06";

enum class AuthKind { kAnonymous, kSharedKey, kSas, kBearer };
std::string_view AuthKindName(AuthKind kind);

struct AuthConfig {
  AuthKind kind = AuthKind::kAnonymous;
  std::string account;
  std::string key_base64;    ///< Shared Key, as Azure shows it (base64)
  std::string sas;           ///< SAS query, without a leading '?'
  std::string bearer_token;  ///< Entra ID access token for https://storage.azure.com/
};

/// How to find credentials. `mode` "auto" picks the first present: SAS, key, token, else
/// anonymous. Managed identity (IMDS) is used only when asked for: it is a network call.
struct AuthOptions {
  std::string mode = "auto";  ///< auto | anonymous | shared-key | sas | bearer | managed-identity
  std::string account;        ///< overrides the account from the target (AZURE_STORAGE_ACCOUNT)
  std::string key_file;
  std::string sas_file;
  std::string token_file;
  std::string managed_identity_client_id;  ///< user-assigned identity, optional
  double imds_timeout_s = 5;
};

using GetEnvFn = std::function<std::optional<std::string>(const std::string&)>;
/// The process environment.
std::optional<std::string> ProcessEnv(const std::string& name);

/// The instance metadata endpoint for tokens; FEEDCHECK_IMDS_ENDPOINT overrides it (tests).
std::string ImdsTokenUrl(const GetEnvFn& env, const std::string& client_id);

/// Resolves credentials for `target`. Environment: AZURE_STORAGE_ACCOUNT, AZURE_STORAGE_KEY,
/// AZURE_STORAGE_SAS_TOKEN, AZURE_STORAGE_BEARER_TOKEN. `imds_client` is used only for
/// managed-identity. Errors never contain a secret.
bool ResolveAuth(const AuthOptions& options, const Target& target, const GetEnvFn& env,
                 HttpClient* imds_client, AuthConfig* out, std::string* error);

/// The Shared Key string-to-sign for `request` (exposed for tests).
std::string SharedKeyStringToSign(const HttpRequest& request, const std::string& account);
/// Base64(HMAC-SHA256(Base64Decode(key), text)); empty when the key is not valid base64.
std::string HmacSha256Base64(const std::string& key_base64, const std::string& text);
std::string Base64Encode(std::string_view bytes);
std::optional<std::string> Base64Decode(std::string_view text);
/// RFC 1123 date for x-ms-date: "Sun, 22 Nov 2026 03:06:21 GMT".
std::string HttpDate(double epoch_s);

/// Adds what each request to an Azure target needs: x-ms-version, and the credential.
/// For non-Azure targets (kHttp) it adds nothing.
class RequestSigner {
 public:
  RequestSigner() = default;
  RequestSigner(AuthConfig auth, bool azure) : auth_(std::move(auth)), azure_(azure) {}
  void Sign(HttpRequest* request) const;
  const AuthConfig& auth() const { return auth_; }
  bool azure() const { return azure_; }

 private:
  AuthConfig auth_;
  bool azure_ = false;
};

}  // namespace feedcheck
