#include "core/known_secrets.h"

#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <vector>

namespace feedcheck {
namespace {

std::mutex& Mutex() {
  static std::mutex m;
  return m;
}

// Longest first, so a secret that contains another is replaced whole.
std::vector<std::string>& Secrets() {
  static std::vector<std::string> secrets;
  return secrets;
}

std::atomic<bool> g_any{false};

void ForbidCoreDumps() {
  // Not dumpable: the kernel writes no core (nor lets another user's ptrace read the memory).
  // RLIMIT_CORE 0 as well, soft and hard, for core_pattern handlers that honour only the limit.
  prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  rlimit none{0, 0};
  setrlimit(RLIMIT_CORE, &none);
}

}  // namespace

void RegisterKnownSecret(std::string_view secret) {
  if (secret.size() < kMinKnownSecretChars) {
    if (!secret.empty()) ForbidCoreDumps();
    return;
  }
  std::lock_guard<std::mutex> lock(Mutex());
  if (!g_any.load()) ForbidCoreDumps();
  auto& secrets = Secrets();
  if (std::find(secrets.begin(), secrets.end(), secret) != secrets.end()) return;
  secrets.emplace_back(secret);
  std::stable_sort(secrets.begin(), secrets.end(),
                   [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
  g_any.store(true);
}

std::string ScrubKnownSecrets(std::string_view text) {
  if (!g_any.load(std::memory_order_relaxed)) return std::string(text);
  std::string out(text);
  std::lock_guard<std::mutex> lock(Mutex());
  for (const std::string& secret : Secrets()) {
    size_t pos = 0;
    while ((pos = out.find(secret, pos)) != std::string::npos) {
      out.replace(pos, secret.size(), "REDACTED");
      pos += 8;
    }
  }
  return out;
}

bool HasKnownSecrets() { return g_any.load(); }

void ForgetKnownSecretsForTest() {
  std::lock_guard<std::mutex> lock(Mutex());
  Secrets().clear();
  g_any.store(false);
}

std::string SecretFileProblem(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
    return "is not a readable file (the value is not shown: it may be a pasted secret)";
  return "";
}

}  // namespace feedcheck
