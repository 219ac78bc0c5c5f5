// Secrets never appear in any output (label safety). Runs the real CLI with known secrets — a
// Shared Key in AZURE_STORAGE_KEY, a SAS token, a bearer token — against the fault server
// (healthy and failing paths, so error messages are printed too) and searches stdout, stderr and
// every file the run wrote for the secrets. Secrets given on the command line are refused.
#include <dirent.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/fault_server/server_process.h"
#include "tests/support/subprocess.h"

using namespace feedcheck::testing;

namespace {

// Distinctive values, so a hit cannot be a coincidence. The key is valid base64 (64 bytes).
const std::string kKey =
    "S2VlcFRoaXNLZXlTZWNyZXQtZmVlZGNoZWNrLXRlc3Qta2V5LTAxMjM0NTY3ODlBQkNERUZHSElKS0xNTk9QUQ==";
const std::string kSasSig = "c2FzU2lnbmF0dXJlU2VjcmV0LWZlZWRjaGVjaw%3D%3D";
const std::string kSasSigDecoded = "c2FzU2lnbmF0dXJlU2VjcmV0LWZlZWRjaGVjaw==";
const std::string kSas = "sv=2023-11-03&ss=b&srt=sco&sp=rl&se=2030-01-01T00:00:00Z&sig=" + kSasSig;
const std::string kToken =
    "eyJhbGciOiJub25lIn0.eyJzdWIiOiJmZWVkY2hlY2stc2VjcmV0LXRva2VuIn0.U0VDUkVU";

std::string Feedcheck() { return EnvOr("FEEDCHECK", FEEDCHECK_BINARY_DIR "/feedcheck"); }

std::vector<std::string> Secrets() {
  // Also distinctive fragments, so a truncated or re-wrapped print is still caught.
  return {kKey,   kKey.substr(0, 24),   kSasSig,   kSasSigDecoded, kSasSig.substr(0, 20),
          kToken, kToken.substr(0, 30), "U0VDUkVU"};
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every regular file under `dir` (reports and facts the run wrote).
void CollectFiles(const std::string& dir, std::vector<std::string>* out) {
  DIR* d = opendir(dir.c_str());
  if (!d) return;
  while (dirent* e = readdir(d)) {
    std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    std::string path = dir + "/" + name;
    if (e->d_type == DT_DIR) {
      CollectFiles(path, out);
    } else {
      out->push_back(path);
    }
  }
  closedir(d);
}

void RequireNoSecret(const std::string& what, const std::string& text) {
  for (const std::string& secret : Secrets()) {
    INFO(what << " contains a secret fragment '" << secret << "':\n" << text.substr(0, 4000));
    CHECK(text.find(secret) == std::string::npos);
  }
}

struct Credential {
  const char* name;
  std::string env;   ///< environment assignments for the run
  std::string auth;  ///< --auth mode
};

std::vector<Credential> Credentials() {
  return {
      {"shared key", "AZURE_STORAGE_ACCOUNT=devstoreaccount1 AZURE_STORAGE_KEY=" + ShellQuote(kKey),
       "shared-key"},
      {"sas", "AZURE_STORAGE_SAS_TOKEN=" + ShellQuote(kSas), "sas"},
      {"bearer", "AZURE_STORAGE_BEARER_TOKEN=" + ShellQuote(kToken), "bearer"}};
}

}  // namespace

TEST_CASE("no probe prints a secret, on success or failure, in any output", "[safety][secrets]") {
  FaultServerProcess server(FAULT_SERVER, {"--object-bytes", "4194304"});
  char dir_template[] = "/tmp/feedcheck-secrets-XXXXXX";
  REQUIRE(mkdtemp(dir_template) != nullptr);
  const std::string out_dir = dir_template;
  int runs = 0;
  for (const Credential& cred : Credentials()) {
    for (const char* probe : {"throughput", "latency"}) {
      for (const char* path : {"/devstoreaccount1/c/blob.bin", "/devstoreaccount1/fault-busy-ops/b",
                               "/devstoreaccount1/fault-forbidden-some/blob-1.bin",
                               "/devstoreaccount1/fault-forbidden/blob-1.bin"}) {
        std::string url = server.Url(path);
        std::string facts = out_dir + "/run" + std::to_string(runs++) + ".json";
        std::string command = "cd " + ShellQuote(out_dir) + " && env " + cred.env + " " +
                              ShellQuote(Feedcheck()) + " probe " + probe + " " + ShellQuote(url) +
                              " --auth " + cred.auth + " --duration 2s --max-requests 50 --json";
        CommandResult r = RunCommand("timeout -s KILL 30 sh -c " + ShellQuote(command));
        std::ofstream(facts) << r.out;  // searched again below, with any file the run wrote
        INFO(cred.name << " / " << probe << " / " << path << ": exit " << r.exit_code);
        // The probe ran (a usage error would mean the secret path was never exercised).
        CHECK(r.exit_code != 2);
        CHECK(r.exit_code != 127);
        RequireNoSecret("stdout", r.out);
        RequireNoSecret("stderr", r.err);
      }
    }
  }
  std::vector<std::string> files;
  CollectFiles(out_dir, &files);
  CHECK(files.size() >= static_cast<size_t>(runs));
  for (const std::string& f : files) RequireNoSecret(f, ReadFile(f));
  RunCommand("rm -rf " + ShellQuote(out_dir));
}

// The listing probes too: list and smallfiles, JSON and human output, healthy and failing
// paths (throttled, refused, a stalled listing), and --create-test-data, whose PUTs the fault
// server does not accept, so its error path (the messages naming the objects it tried to
// write, and the cleanup report) is printed as well.
TEST_CASE("list and smallfiles print no secret, with --json or not, on success or failure",
          "[safety][secrets]") {
  FaultServerProcess server(FAULT_SERVER, {"--object-bytes", "65536", "--list-body-faults", "1"});
  char dir_template[] = "/tmp/feedcheck-secrets-XXXXXX";
  REQUIRE(mkdtemp(dir_template) != nullptr);
  const std::string out_dir = dir_template;
  int runs = 0;
  struct Variant {
    const char* path;
    const char* extra;
  };
  const Variant variants[] = {{"/devstoreaccount1/c/", "--json"},
                              {"/devstoreaccount1/c/", ""},
                              {"/devstoreaccount1/fault-busy-ops/", "--json"},
                              {"/devstoreaccount1/fault-forbidden/", ""},
                              {"/devstoreaccount1/fault-stall/", "--json"},
                              {"/devstoreaccount1/c/", "--create-test-data --json"},
                              {"/devstoreaccount1/c/", "--create-test-data"}};
  for (const Credential& cred : Credentials()) {
    for (const char* probe : {"list", "smallfiles"}) {
      for (const Variant& v : variants) {
        std::string url = server.Url(v.path);
        std::string out = out_dir + "/run" + std::to_string(runs++) + ".out";
        std::string command = "cd " + ShellQuote(out_dir) + " && env " + cred.env + " " +
                              ShellQuote(Feedcheck()) + " probe " + probe + " " + ShellQuote(url) +
                              " --auth " + cred.auth + " --duration 1s --max-requests 50 " +
                              v.extra;
        CommandResult r = RunCommand("timeout -s KILL 30 sh -c " + ShellQuote(command));
        std::ofstream(out) << r.out << r.err;
        INFO(cred.name << " / " << probe << " / " << v.path << " " << v.extra << ": exit "
                       << r.exit_code << "\nstderr: " << r.err);
        CHECK(r.exit_code != 2);
        CHECK(r.exit_code != 127);
        CHECK(r.exit_code < 128);  // no crash
        CHECK_FALSE(r.err.empty());
        RequireNoSecret("stdout", r.out);
        RequireNoSecret("stderr", r.err);
      }
    }
  }
  std::vector<std::string> files;
  CollectFiles(out_dir, &files);
  CHECK(files.size() >= static_cast<size_t>(runs));
  for (const std::string& f : files) RequireNoSecret(f, ReadFile(f));
  RunCommand("rm -rf " + ShellQuote(out_dir));
}

TEST_CASE("secrets on the command line are refused with a message saying where they go",
          "[safety][secrets]") {
  const std::string url = "http://127.0.0.1:9/devstoreaccount1/c/blob.bin";
  struct Case {
    std::string args;
    std::string hint;
  } cases[] = {{"--key " + ShellQuote(kKey), "AZURE_STORAGE_KEY"},
               {"--account-key " + ShellQuote(kKey), "AZURE_STORAGE_KEY"},
               {"--sas " + ShellQuote(kSas), "AZURE_STORAGE_SAS_TOKEN"},
               {"--token " + ShellQuote(kToken), "AZURE_STORAGE_BEARER_TOKEN"}};
  for (const Case& c : cases) {
    CommandResult r =
        RunCommand(ShellQuote(Feedcheck()) + " probe latency " + ShellQuote(url) + " " + c.args);
    INFO(c.args << "\nexit " << r.exit_code << "\nstderr: " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(c.hint) != std::string::npos);
    RequireNoSecret("stderr", r.err);
    RequireNoSecret("stdout", r.out);
  }
  // A SAS signature inside the URL given as an argument is refused too, and not echoed.
  CommandResult sas_in_url =
      RunCommand(ShellQuote(Feedcheck()) + " probe latency " + ShellQuote(url + "?" + kSas));
  INFO(sas_in_url.err);
  CHECK(sas_in_url.exit_code == 2);
  CHECK(sas_in_url.err.find("AZURE_STORAGE_SAS_TOKEN") != std::string::npos);
  RequireNoSecret("stderr", sas_in_url.err);
  RequireNoSecret("stdout", sas_in_url.out);
}
