// The credentials this process holds, remembered by value so that every output can scrub them
// wherever they turn up (a server echoing a signature as a blob name, a token inside an error
// body), not only where a pattern such as `sig=` gives them away. Holding one also makes the
// process undumpable: no core file (SIGQUIT, a crash) carries a key to the disk.
#pragma once

#include <string>
#include <string_view>

namespace feedcheck {

/// Values shorter than this are not remembered: they would match ordinary words.
inline constexpr size_t kMinKnownSecretChars = 8;

/// Remembers `secret` (and, for a SAS, its signature raw and percent-decoded: call once per form)
/// and, on the first call, forbids core dumps for the rest of the process (PR_SET_DUMPABLE 0,
/// RLIMIT_CORE 0). Thread-safe.
void RegisterKnownSecret(std::string_view secret);

/// `text` with every remembered secret replaced by "REDACTED". Thread-safe; cheap when none.
std::string ScrubKnownSecrets(std::string_view text);

/// Whether any secret is remembered (tests; the render path skips work when none).
bool HasKnownSecrets();

/// Why `path`, given where a file holding a secret belongs (--key-file, --token-file), cannot be
/// read, in words that never repeat the path (a secret pasted there would be printed); "" when it
/// is a regular file.
std::string SecretFileProblem(const std::string& path);

/// Forgets every remembered secret (tests only; core dumps stay forbidden).
void ForgetKnownSecretsForTest();

}  // namespace feedcheck
