#include "tests/support/subprocess.h"

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace feedcheck::testing {
namespace {

std::string ReadWhole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

const nlohmann::json* FindFact(const nlohmann::json& j, const std::string& key) {
  if (j.is_object()) {
    auto k = j.find("key");
    if (k != j.end() && k->is_string() && *k == key && j.contains("value")) return &j;
    for (const auto& [name, child] : j.items()) {
      if (const nlohmann::json* hit = FindFact(child, key)) return hit;
    }
  } else if (j.is_array()) {
    for (const auto& child : j) {
      if (const nlohmann::json* hit = FindFact(child, key)) return hit;
    }
  }
  return nullptr;
}

}  // namespace

std::string ShellQuote(const std::string& text) {
  std::string q = "'";
  for (char c : text) {
    if (c == '\'') {
      q += "'\\''";
    } else {
      q += c;
    }
  }
  return q + "'";
}

std::string EnvOr(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : fallback;
}

CommandResult RunCommand(const std::string& command) {
  char out_path[] = "/tmp/feedcheck-test-out-XXXXXX";
  char err_path[] = "/tmp/feedcheck-test-err-XXXXXX";
  int out_fd = mkstemp(out_path);
  int err_fd = mkstemp(err_path);
  if (out_fd >= 0) close(out_fd);
  if (err_fd >= 0) close(err_fd);
  std::string line = command + " >" + ShellQuote(out_path) + " 2>" + ShellQuote(err_path);
  auto start = std::chrono::steady_clock::now();
  int status = std::system(line.c_str());
  CommandResult r;
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (status >= 0 && WIFEXITED(status)) {
    r.exit_code = WEXITSTATUS(status);
  } else if (status >= 0 && WIFSIGNALED(status)) {
    r.exit_code = 128 + WTERMSIG(status);
  }
  r.out = ReadWhole(out_path);
  r.err = ReadWhole(err_path);
  std::remove(out_path);
  std::remove(err_path);
  return r;
}

std::optional<double> FindFactNumber(const nlohmann::json& document, const std::string& key) {
  const nlohmann::json* fact = FindFact(document, key);
  if (!fact || !(*fact)["value"].is_number()) return std::nullopt;
  return (*fact)["value"].get<double>();
}

std::optional<std::string> FindFactText(const nlohmann::json& document, const std::string& key) {
  const nlohmann::json* fact = FindFact(document, key);
  if (!fact || !(*fact)["value"].is_string()) return std::nullopt;
  return (*fact)["value"].get<std::string>();
}

std::optional<nlohmann::json> ParseJson(const std::string& text) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return std::nullopt;
  return j;
}

}  // namespace feedcheck::testing
