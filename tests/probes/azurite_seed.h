// Test-only: seeds Azurite with containers and blobs through Shared Key PUTs, and runs the
// feedcheck binary for end-to-end checks. The endpoint comes from the ctest fixture.
#pragma once

#include <cstdint>
#include <string>

#include "transport/azure_auth.h"
#include "transport/http_client.h"

namespace feedcheck::testing {

/// Azurite's well-known development account and key (public, documented by Microsoft).
inline const std::string kDevAccount = "devstoreaccount1";
inline const std::string kDevKey =
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

/// "http://127.0.0.1:PORT" from FEEDCHECK_TEST_AZURITE / FEEDCHECK_TEST_NGINX; empty when unset.
std::string EnvEndpoint(const char* name);

/// "http://127.0.0.1:PORT/devstoreaccount1".
std::string AzuriteAccountUrl();

AuthConfig DevSharedKey();

/// Creates a container (201 or 409 both fine); returns the HTTP status.
int CreateContainer(HttpClient* client, const std::string& container);
/// Puts a block blob with `size` pseudo-random bytes from `seed`; returns the HTTP status.
int PutBlob(HttpClient* client, const std::string& container, const std::string& name,
            uint64_t size, unsigned seed, std::string* content = nullptr);

/// A fresh SAS-looking query for the dev account: account SAS signed with the dev key
/// (sv=2021-08-06, ss=b, srt=sco, sp=rl), valid for an hour.
std::string DevAccountSas();

struct CommandOutput {
  int exit_code = -1;
  std::string out;  ///< stdout
  std::string err;  ///< stderr
};
/// Runs `env_prefix feedcheck args` through the shell, capturing stdout and stderr.
CommandOutput RunFeedcheck(const std::string& args, const std::string& env_prefix = "");

}  // namespace feedcheck::testing
