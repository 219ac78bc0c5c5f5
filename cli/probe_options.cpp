#include "cli/probe_options.h"

#include "core/known_secrets.h"

namespace feedcheck::cli {
namespace {

// CLI::ExistingFile names the path it could not find; a secret pasted where its file name
// belongs would be printed. This check says what is wrong without the value.
const CLI::Validator kSecretFile([](std::string& path) { return SecretFileProblem(path); }, "FILE",
                                 "SecretFile");

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
  app->add_option("--sas-file", o->auth.sas_file, "File holding a SAS token")->check(kSecretFile);
  app->add_option("--token-file", o->auth.token_file, "File holding an Entra ID bearer token")
      ->check(kSecretFile);
  app->add_option("--managed-identity-client-id", o->auth.managed_identity_client_id,
                  "Client id of a user-assigned identity (with --auth managed-identity)");
  app->add_option("--ca-file", o->ca_file, "PEM file of CA certificates to trust")
      ->check(CLI::ExistingFile);
  app->add_flag("--insecure", o->insecure,
                "Do not verify TLS certificates (self-signed test servers only)");
  for (const app::RefusedSecretFlag& r : app::RefusedSecretFlags()) {
    std::string flag = r.flag;
    std::string message = app::RefusedSecretMessage(r);
    app->add_option_function<std::string>(
           flag, [flag, message](const std::string&) { throw CLI::ValidationError(flag, message); },
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

}  // namespace feedcheck::cli
