// Helpers for the probes-fs tests against a real Azurite: the endpoint from the ctest fixture
// (FEEDCHECK_TEST_AZURITE), a Shared Key environment for devstoreaccount1 (the emulator's public
// key, not a secret), container creation, Put Blob and listing by prefix.
#pragma once

#include <string>
#include <vector>

#include "probes/http_probe_env.h"

namespace feedcheck::testing {

inline constexpr const char* kAzuriteAccount = "devstoreaccount1";
inline constexpr const char* kAzuriteKey =
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

/// "http://127.0.0.1:PORT" from FEEDCHECK_TEST_AZURITE; fails the test when unset.
std::string AzuriteBase();
/// A probe environment for `container`/`prefix` signed with Shared Key (or anonymous).
HttpProbeEnv AzuriteEnv(const std::string& container, const std::string& prefix,
                        bool shared_key = true, const std::string& key = kAzuriteKey);
/// Creates the container (an existing one is fine).
void CreateContainer(const std::string& container);
/// Put Blob with `size` bytes; true on 201.
bool PutBlob(const HttpProbeEnv& env, const std::string& name, size_t size);
/// Every blob name under `prefix` in `container` (all pages).
std::vector<std::string> ListNames(const std::string& container, const std::string& prefix);

}  // namespace feedcheck::testing
