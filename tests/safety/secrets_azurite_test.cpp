// Secrets on the success path of the writing probes (labels safety, azurite): `probe list` and
// `probe smallfiles --create-test-data` against a real Azurite, signed with the emulator's Shared
// Key, really create and delete their test objects; the key (and fragments of it) must appear in
// no output and no file, with --json or not. A wrong key (a distinctive fake) takes the 403 path.
#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "fs_azurite_support.h"
#include "tests/support/subprocess.h"

using namespace feedcheck;
using namespace feedcheck::testing;

namespace {

const std::string kFakeKey =
    "V3JvbmdLZXktZmVlZGNoZWNrLXNlY3JldHMtYXp1cml0ZS10ZXN0LTAxMjM0NTY3ODlBQkNERUZHSElKS0w=";

std::vector<std::string> Secrets() {
  const std::string key = kAzuriteKey;
  return {key, key.substr(0, 24), key.substr(key.size() - 24), kFakeKey, kFakeKey.substr(0, 24)};
}

void RequireNoSecret(const std::string& what, const std::string& text) {
  for (const std::string& secret : Secrets()) {
    INFO(what << " contains a secret fragment '" << secret << "':\n" << text.substr(0, 3000));
    CHECK(text.find(secret) == std::string::npos);
  }
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("list and smallfiles --create-test-data on Azurite print no key", "[.][azurite]") {
  std::string container =
      "fch-secrets-" +
      std::to_string(std::chrono::steady_clock::now().time_since_epoch().count() % 1000000);
  CreateContainer(container);
  REQUIRE(PutBlob(AzuriteEnv(container, ""), "data/keep.bin", 100));
  char dir_template[] = "/tmp/feedcheck-secrets-az-XXXXXX";
  REQUIRE(mkdtemp(dir_template) != nullptr);
  const std::string dir = dir_template;
  const std::string url =
      AzuriteBase() + "/" + std::string(kAzuriteAccount) + "/" + container + "/data/";
  std::string feedcheck = EnvOr("FEEDCHECK", FEEDCHECK_BINARY_DIR "/feedcheck");
  int runs = 0;
  for (const std::string& key : {std::string(kAzuriteKey), kFakeKey}) {
    for (const char* probe : {"list", "smallfiles"}) {
      for (const char* extra : {"--json", ""}) {
        std::string sizes = std::string(probe) == "smallfiles" ? " --sizes 4KiB,64KiB" : "";
        std::string command =
            "cd " + ShellQuote(dir) + " && env AZURE_STORAGE_ACCOUNT=" + kAzuriteAccount +
            " AZURE_STORAGE_KEY=" + ShellQuote(key) + " " + ShellQuote(feedcheck) + " probe " +
            probe + " " + ShellQuote(url) + " --create-test-data --duration 10s " + extra + sizes;
        CommandResult r = RunCommand("timeout -s KILL 60 sh -c " + ShellQuote(command));
        std::ofstream(dir + "/run" + std::to_string(runs++) + ".out") << r.out << r.err;
        bool real_key = key == kAzuriteKey;
        INFO(probe << " " << extra << (real_key ? " (emulator key)" : " (wrong key)") << ": exit "
                   << r.exit_code << "\nstderr: " << r.err
                   << "\nstdout: " << r.out.substr(0, 2000));
        // The real key writes, measures and removes (exit 0); a wrong key is refused: the
        // test data cannot even be created, a target error (3).
        CHECK(r.exit_code == (real_key ? 0 : 3));
        if (real_key && std::string(extra) == "--json") {
          auto j = ParseJson(r.out);
          REQUIRE(j.has_value());
          CHECK((*j)["result"]["test_data_removed"] == true);
        }
        RequireNoSecret("stdout", r.out);
        RequireNoSecret("stderr", r.err);
      }
    }
  }
  CHECK(ListNames(container, "") == std::vector<std::string>{"data/keep.bin"});
  CommandResult files = RunCommand("find " + ShellQuote(dir) + " -type f");
  std::istringstream lines(files.out);
  std::string path;
  int found = 0;
  while (std::getline(lines, path)) {
    ++found;
    RequireNoSecret(path, ReadFile(path));
  }
  CHECK(found >= runs);
  RunCommand("rm -rf " + ShellQuote(dir));
}
