#include "tools/seed_cli.h"

#include <fmt/format.h>

#include <string>
#include <vector>

#include "core/exit_status.h"
#include "core/known_secrets.h"

namespace feedcheck::seed {
namespace {

// CLI::ExistingFile would name the path it could not find: a secret pasted where its file
// name belongs would be printed. This says what is wrong without the value.
const CLI::Validator kSecretFile([](std::string& path) { return SecretFileProblem(path); }, "FILE",
                                 "SecretFile");

}  // namespace

void AddTargetOptions(CLI::App* app, app::ProbeSessionRequest* r) {
  app->add_option("target", r->target, "Container URL (https://ACCOUNT.blob.../CONTAINER/PREFIX)")
      ->required();
  app->add_option("--auth", r->auth.mode, "auto | shared-key | sas | bearer | managed-identity")
      ->check(
          CLI::IsMember({"auto", "anonymous", "shared-key", "sas", "bearer", "managed-identity"}));
  app->add_option("--account", r->auth.account, "Storage account name (AZURE_STORAGE_ACCOUNT)");
  app->add_option("--key-file", r->auth.key_file, "File holding the account key")
      ->check(kSecretFile);
  app->add_option("--sas-file", r->auth.sas_file, "File holding a SAS token")->check(kSecretFile);
  app->add_option("--token-file", r->auth.token_file, "File holding an Entra ID bearer token")
      ->check(kSecretFile);
  app->add_option("--ca-file", r->ca_file, "PEM file of CA certificates to trust")
      ->check(kSecretFile);
  app->add_flag("--insecure", r->insecure, "Do not verify TLS certificates (test servers only)");
  for (const auto& refused : app::RefusedSecretFlags()) {
    std::string flag = refused.flag, message = app::RefusedSecretMessage(refused);
    app->add_option_function<std::string>(
           flag, [flag, message](const std::string&) { throw CLI::ValidationError(flag, message); },
           "")
        ->group("");
  }
}

int ParseCommandLine(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ExtrasError&) {
    // CLI11 would list the unexpected arguments with their values: a secret given to a
    // misspelt flag (--sas-tokn SECRET) would be printed. Name the flags only.
    std::string flags;
    for (int i = 1; i < argc; ++i) {
      std::string arg = argv[i];
      if (arg.size() < 2 || arg[0] != '-') continue;
      flags += (flags.empty() ? "" : ", ") + arg.substr(0, arg.find('='));
    }
    fmt::print(stderr,
               "feedcheck-seed: unexpected arguments (values not shown; flags given: {})\n"
               "Run with --help for more information.\n",
               flags);
    return ToInt(ExitStatus::kUsage);
  } catch (const CLI::ParseError& e) {
    // The remaining parse errors name the flag and what is wrong with it; the validators above
    // and the refused flags never put the value in that message.
    app.exit(e);
    return ToInt(ExitStatus::kUsage);
  }
  return -1;
}

}  // namespace feedcheck::seed
