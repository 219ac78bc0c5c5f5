#include "cli/probe_options.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cstdio>

#include "core/exit_status.h"
#include "core/units.h"
#include "probes/budget_tracker.h"
#include "probes/cleanup_registry.h"
#include "probes/curl_http_client.h"
#include "probes/curl_request_loop.h"
#include "probes/redact.h"

namespace feedcheck::cli {
namespace {

struct RefusedFlag {
  const char* flag;
  const char* instead;
};

// Secrets on the command line end up in shell history and in `ps` for every user.
constexpr std::array<RefusedFlag, 9> kRefusedFlags = {{
    {"--key", "AZURE_STORAGE_KEY or --key-file FILE"},
    {"--account-key", "AZURE_STORAGE_KEY or --key-file FILE"},
    {"--sas", "AZURE_STORAGE_SAS_TOKEN or --sas-file FILE"},
    {"--sas-token", "AZURE_STORAGE_SAS_TOKEN or --sas-file FILE"},
    {"--token", "AZURE_STORAGE_BEARER_TOKEN or --token-file FILE"},
    {"--bearer-token", "AZURE_STORAGE_BEARER_TOKEN or --token-file FILE"},
    {"--access-token", "AZURE_STORAGE_BEARER_TOKEN or --token-file FILE"},
    {"--connection-string", "AZURE_STORAGE_KEY or --key-file FILE plus --account"},
    {"--password", "a file (--key-file, --sas-file or --token-file)"},
}};

// CLI::ExistingFile names the path it could not find; a secret pasted where its file name
// belongs would be printed. This check says what is wrong without the value.
const CLI::Validator kSecretFile(
    [](std::string& path) -> std::string {
      struct stat st {};
      if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
        return "is not a readable file (the value is not shown: it may be a pasted secret)";
      return "";
    },
    "FILE", "SecretFile");

}  // namespace

void AddProbeTargetOptions(CLI::App* app, ProbeOptions* o) {
  app->add_option("target", o->target,
                  "https://ACCOUNT.blob.core.windows.net/CONTAINER/PREFIX, wasbs://, abfss://, "
                  "http://127.0.0.1:PORT/ACCOUNT/CONTAINER/... (emulator), a plain http(s) URL")
      ->required();
  app->add_option("--auth", o->auth.mode,
                  "auto | anonymous | shared-key | sas | bearer | managed-identity (auto: SAS, "
                  "key, token from the environment or files, else anonymous)")
      ->check(
          CLI::IsMember({"auto", "anonymous", "shared-key", "sas", "bearer", "managed-identity"}));
  app->add_option("--account", o->auth.account,
                  "Storage account name when the URL does not carry it (AZURE_STORAGE_ACCOUNT)");
  app->add_option("--key-file", o->auth.key_file, "File holding the account key (Shared Key)")
      ->check(kSecretFile);
  app->add_option("--sas-file", o->auth.sas_file, "File holding a SAS token")
      ->check(kSecretFile);
  app->add_option("--token-file", o->auth.token_file, "File holding an Entra ID bearer token")
      ->check(kSecretFile);
  app->add_option("--managed-identity-client-id", o->auth.managed_identity_client_id,
                  "Client id of a user-assigned identity (with --auth managed-identity)");
  app->add_option("--ca-file", o->ca_file, "PEM file of CA certificates to trust")
      ->check(CLI::ExistingFile);
  app->add_flag("--insecure", o->insecure,
                "Do not verify TLS certificates (self-signed test servers only)");
  for (const RefusedFlag& r : kRefusedFlags) {
    std::string flag = r.flag;
    std::string instead = r.instead;
    app->add_option_function<std::string>(
           flag,
           [flag, instead](const std::string&) {
             throw CLI::ValidationError(
                 flag,
                 "secrets are not accepted on the command line (they would show in `ps` "
                 "and shell history); use " +
                     instead);
           },
           "")
        ->group("");
  }
}

void AddProbeBudgetOptions(CLI::App* app, ProbeOptions* o) {
  app->add_option("--duration", o->duration, "Wall-clock budget, e.g. 30s, 2min")
      ->capture_default_str();
  app->add_option("--max-requests", o->max_requests, "Request budget, retries included")
      ->capture_default_str();
  app->add_option("--max-bytes", o->max_bytes, "Byte budget for response bodies, e.g. 8GiB")
      ->capture_default_str();
}

bool ParseBudget(const ProbeOptions& o, ProbeBudget* out, std::string* error) {
  std::string err;
  auto seconds = ParseSeconds(o.duration, &err);
  if (!seconds || *seconds <= 0) {
    *error = "--duration '" + o.duration + "': " + (err.empty() ? "must be positive" : err);
    return false;
  }
  auto bytes = ParseBytes(o.max_bytes, &err);
  if (!bytes || *bytes <= 0) {
    *error = "--max-bytes '" + o.max_bytes + "': " + (err.empty() ? "must be positive" : err);
    return false;
  }
  if (o.max_requests == 0) {
    *error = "--max-requests must be at least 1";
    return false;
  }
  out->duration_s = *seconds;
  out->max_bytes = static_cast<uint64_t>(*bytes);
  out->max_requests = o.max_requests;
  return true;
}

int BuildHttpProbeEnv(const ProbeOptions& o, HttpProbeEnv* env, std::string* error) {
  if (!ParseBudget(o, &env->budget, error)) return ToInt(ExitStatus::kUsage);
  TargetParseOptions parse_options;
  parse_options.account_hint =
      !o.auth.account.empty() ? o.auth.account : ProcessEnv("AZURE_STORAGE_ACCOUNT").value_or("");
  std::string err;
  if (!ParseTarget(o.target, parse_options, &env->target, &err)) {
    *error = "target '" + RedactUrl(o.target) + "': " + err;
    return ToInt(ExitStatus::kUsage);
  }
  if (env->target.kind == TargetKind::kLocalPath) {
    *error = "target '" + o.target + "' is a path; this probe needs an http(s) or Azure URL";
    return ToInt(ExitStatus::kUsage);
  }
  if (env->target.query.find("sig=") != std::string::npos) {
    *error = "target '" + RedactUrl(o.target) +
             "' carries a SAS signature on the command line; put the token (the part after '?') "
             "in AZURE_STORAGE_SAS_TOKEN or a --sas-file";
    return ToInt(ExitStatus::kUsage);
  }
  CurlClientOptions curl_options;
  curl_options.tls.ca_file = o.ca_file;
  curl_options.tls.insecure = o.insecure;
  if (o.insecure)
    fmt::print(stderr,
               "warning: --insecure: TLS certificates are not verified (test servers only)\n");
  AuthConfig auth;
  if (env->target.is_azure()) {
    auto imds = std::make_unique<CurlHttpClient>(curl_options);
    if (!ResolveAuth(o.auth, env->target, &ProcessEnv, imds.get(), &auth, &err)) {
      *error = RedactText(err);
      return ToInt(ExitStatus::kInputError);
    }
  } else if (o.auth.mode != "auto" && o.auth.mode != "anonymous") {
    *error = "--auth " + o.auth.mode + " needs an Azure target; '" + env->target.Display() +
             "' is a plain URL";
    return ToInt(ExitStatus::kUsage);
  }
  if (auth.kind != AuthKind::kAnonymous && !env->target.CleartextCredentialsAllowed()) {
    *error = "refusing to send a " + std::string(AuthKindName(auth.kind)) +
             " credential over plain http:// to " + env->target.HostName() +
             " (anyone on the path could read it); use https://, or --auth anonymous for a "
             "public container";
    return ToInt(ExitStatus::kUsage);
  }
  env->signer = RequestSigner(auth, env->target.is_azure());
  env->make_client = [curl_options]() -> std::unique_ptr<HttpClient> {
    return std::make_unique<CurlHttpClient>(curl_options);
  };
  env->make_loop = [curl_options]() -> std::unique_ptr<HttpRequestLoop> {
    return std::make_unique<CurlRequestLoop>(curl_options);
  };
  return 0;
}

void StateBudget(const std::string& probe, const HttpProbeEnv& env, const std::string& extra) {
  fmt::print(stderr, "probe {}: {} ({}, auth {}); budget {}{}{}\n", probe, env.target.Display(),
             TargetKindName(env.target.kind), AuthKindName(env.signer.auth().kind),
             DescribeBudget(env.budget), extra.empty() ? "" : "; ", extra);
}

ProgressFn TerminalProgress() {
  if (!isatty(STDERR_FILENO)) return {};
  return [](const std::string& text) { fmt::print(stderr, "\r\033[K{}", text); };
}

int ProbeExitCode(ProbeStatus status) {
  switch (status) {
    case ProbeStatus::kOk:
    case ProbeStatus::kPartial:
      return ToInt(ExitStatus::kOk);
    case ProbeStatus::kFailed:
      return ToInt(ExitStatus::kProbeFailed);
    case ProbeStatus::kUnreachable:
      return ToInt(ExitStatus::kInputError);
  }
  return ToInt(ExitStatus::kProbeFailed);
}

int ProbeExit(ProbeStatus status) {
  if (StopRequested()) return 128 + StopSignal();
  return ProbeExitCode(status);
}

}  // namespace feedcheck::cli
