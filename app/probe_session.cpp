#include "app/probe_session.h"

#include <fmt/format.h>

#include "core/ascii_text.h"
#include "core/diagnostic_codes.h"
#include "core/redact.h"
#include "core/units.h"
#include "probes/budget_tracker.h"
#include "transport/curl_http_client.h"
#include "transport/curl_request_loop.h"

namespace feedcheck::app {
namespace {

Diagnostic Error(const char* code, const std::string& message) {
  return Diagnostic{code, DiagnosticSeverity::kError, message, {}, "", ""};
}

Diagnostic CleartextRefusal(std::string_view kind, const Target& target) {
  return Error(codes::kBadTarget,
               "refusing to send a " + std::string(kind) + " credential over plain http:// to " +
                   target.HostName() +
                   " (anyone on the path could read it; only loopback may get one in "
                   "cleartext); use https://, or --auth anonymous for a public container");
}

// sig=, SIG=, Sig=: Azure reads the parameter whatever its case, so the refusal does too.
bool QueryHasSignature(const std::string& query) {
  std::string lower = ToLower(query);
  return lower.rfind("sig=", 0) == 0 || lower.find("&sig=") != std::string::npos;
}

}  // namespace

const std::vector<RefusedSecretFlag>& RefusedSecretFlags() {
  // Secrets on the command line end up in shell history and in `ps` for every user.
  static const std::vector<RefusedSecretFlag> flags = {
      {"--key", "AZURE_STORAGE_KEY or --key-file FILE"},
      {"--account-key", "AZURE_STORAGE_KEY or --key-file FILE"},
      {"--sas", "AZURE_STORAGE_SAS_TOKEN or --sas-file FILE"},
      {"--sas-token", "AZURE_STORAGE_SAS_TOKEN or --sas-file FILE"},
      {"--token", "AZURE_STORAGE_BEARER_TOKEN or --token-file FILE"},
      {"--bearer-token", "AZURE_STORAGE_BEARER_TOKEN or --token-file FILE"},
      {"--access-token", "AZURE_STORAGE_BEARER_TOKEN or --token-file FILE"},
      {"--connection-string", "AZURE_STORAGE_KEY or --key-file FILE plus --account"},
      {"--password", "a file (--key-file, --sas-file or --token-file)"},
  };
  return flags;
}

std::string RefusedSecretMessage(const RefusedSecretFlag& flag) {
  return std::string(
             "secrets are not accepted on the command line (they would show in `ps` and shell "
             "history); use ") +
         flag.instead;
}

Diagnostic FlagDiagnostic(const std::string& message) {
  return Error(codes::kProbeBadFlag, message);
}

bool ParseProbeBudget(const ProbeSessionRequest& r, ProbeBudget* out, DiagnosticList* diagnostics) {
  std::string err;
  auto seconds = ParseSeconds(r.duration, &err);
  if (!seconds || *seconds <= 0) {
    diagnostics->Add(FlagDiagnostic("--duration '" + r.duration +
                                    "': " + (err.empty() ? "must be positive" : err)));
    return false;
  }
  auto bytes = ParseBytes(r.max_bytes, &err);
  if (!bytes || *bytes <= 0) {
    diagnostics->Add(FlagDiagnostic("--max-bytes '" + r.max_bytes +
                                    "': " + (err.empty() ? "must be positive" : err)));
    return false;
  }
  if (r.max_requests == 0) {
    diagnostics->Add(FlagDiagnostic("--max-requests must be at least 1"));
    return false;
  }
  out->duration_s = *seconds;
  out->max_bytes = static_cast<uint64_t>(*bytes);
  out->max_requests = r.max_requests;
  return true;
}

ExitStatus OpenHttpSession(const ProbeSessionRequest& r, HttpProbeEnv* env,
                           DiagnosticList* diagnostics) {
  if (!ParseProbeBudget(r, &env->budget, diagnostics)) return ExitStatus::kUsage;
  GetEnvFn get_env = r.get_env ? r.get_env : GetEnvFn(&ProcessEnv);
  TargetParseOptions parse_options;
  parse_options.account_hint =
      !r.auth.account.empty() ? r.auth.account : get_env("AZURE_STORAGE_ACCOUNT").value_or("");
  std::string err;
  if (!ParseTarget(r.target, parse_options, &env->target, &err)) {
    diagnostics->Add(Error(codes::kBadTarget, "target '" + RedactUrl(r.target) + "': " + err));
    return ExitStatus::kUsage;
  }
  if (env->target.kind == TargetKind::kLocalPath) {
    diagnostics->Add(
        Error(codes::kBadTarget,
              "target '" + r.target + "' is a path; this probe needs an http(s) or Azure URL"));
    return ExitStatus::kUsage;
  }
  if (QueryHasSignature(env->target.query)) {
    diagnostics->Add(Error(codes::kBadTarget,
                           "target '" + RedactUrl(r.target) +
                               "' carries a SAS signature on the command line; put the token "
                               "(the part after '?') in AZURE_STORAGE_SAS_TOKEN or a --sas-file"));
    return ExitStatus::kUsage;
  }
  CurlClientOptions curl_options;
  curl_options.tls.ca_file = r.ca_file;
  curl_options.tls.insecure = r.insecure;
  // Loopback is never proxied: what is meant for this machine (an emulator, a test server,
  // with its credential in cleartext) does not travel to a proxy from the environment.
  curl_options.no_proxy = env->target.IsLoopback();
  if (r.insecure)
    diagnostics->Add({codes::kWeakened,
                      DiagnosticSeverity::kWarning,
                      "--insecure: TLS certificates are not verified (test servers only)",
                      {},
                      "",
                      ""});
  AuthConfig auth;
  // A token from the identity endpoint could never be sent: do not ask for one.
  if (r.auth.mode == "managed-identity" && env->target.is_azure() &&
      !env->target.CleartextCredentialsAllowed()) {
    diagnostics->Add(CleartextRefusal(AuthKindName(AuthKind::kBearer), env->target));
    return ExitStatus::kUsage;
  }
  if (env->target.is_azure()) {
    // The identity endpoint is asked only for managed-identity, over its own connection, and
    // never through a proxy: a proxy would see the request and could answer with its own token
    // ("Azure Instance Metadata Service for virtual machines": clients bypass web proxies for it).
    CurlClientOptions imds_options = curl_options;
    imds_options.no_proxy = true;
    std::unique_ptr<HttpClient> imds =
        r.make_client ? r.make_client() : std::make_unique<CurlHttpClient>(imds_options);
    if (!ResolveAuth(r.auth, env->target, get_env, imds.get(), &auth, &err)) {
      diagnostics->Add(Error(codes::kCredential, RedactText(err)));
      return ExitStatus::kInputError;
    }
  } else if (r.auth.mode != "auto" && r.auth.mode != "anonymous") {
    diagnostics->Add(Error(codes::kProbeBadFlag, "--auth " + r.auth.mode +
                                                     " needs an Azure target; '" +
                                                     env->target.Display() + "' is a plain URL"));
    return ExitStatus::kUsage;
  }
  if (auth.kind != AuthKind::kAnonymous && !env->target.CleartextCredentialsAllowed()) {
    diagnostics->Add(CleartextRefusal(AuthKindName(auth.kind), env->target));
    return ExitStatus::kUsage;
  }
  env->signer = RequestSigner(auth, env->target.is_azure());
  if (r.make_client) {
    env->make_client = r.make_client;
  } else {
    env->make_client = [curl_options]() -> std::unique_ptr<HttpClient> {
      return std::make_unique<CurlHttpClient>(curl_options);
    };
    env->make_loop = [curl_options]() -> std::unique_ptr<HttpRequestLoop> {
      return std::make_unique<CurlRequestLoop>(curl_options);
    };
  }
  return ExitStatus::kOk;
}

bool IsLocalPathTarget(const std::string& text, std::string* path) {
  Target t;
  std::string error;
  if (ParseTarget(text, {}, &t, &error) && t.kind == TargetKind::kLocalPath) {
    *path = t.path;
    return true;
  }
  return false;
}

std::string DescribeSession(const std::string& probe, const HttpProbeEnv& env,
                            const std::string& extra) {
  return fmt::format("probe {}: {} ({}, auth {}); budget {}{}{}", probe,
                     RedactUrl(env.target.Display()), TargetKindName(env.target.kind),
                     AuthKindName(env.signer.auth().kind), DescribeBudget(env.budget),
                     extra.empty() ? "" : "; ", extra);
}

ExitStatus ProbeExitStatus(ProbeStatus status) {
  switch (status) {
    case ProbeStatus::kOk:
    case ProbeStatus::kPartial:
      return ExitStatus::kOk;
    case ProbeStatus::kFailed:
      return ExitStatus::kProbeFailed;
    case ProbeStatus::kUnreachable:
      return ExitStatus::kInputError;
  }
  return ExitStatus::kProbeFailed;
}

}  // namespace feedcheck::app
