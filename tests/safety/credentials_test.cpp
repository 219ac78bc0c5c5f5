// The third safety pass on credentials (label safety): the real CLI and feedcheck-seed with known
// secrets, against the fault server and capture servers on loopback. Each case is a way a
// credential used to reach the wrong hands: a proxy from the environment, a usage error, a
// listing that echoes the signature, a token file of two lines, a core file.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/fault_server/server_process.h"
#include "tests/safety/capture_server.h"
#include "tests/support/subprocess.h"

using namespace feedcheck::testing;

namespace {

const std::string kSasSig = "Q3JlZHNUaGlyZFBhc3NTaWduYXR1cmVWYWx1ZQ%3D%3D";
const std::string kSasSigDecoded = "Q3JlZHNUaGlyZFBhc3NTaWduYXR1cmVWYWx1ZQ==";
const std::string kSas = "sv=2023-11-03&ss=b&srt=sco&sp=rl&se=2030-01-01T00:00:00Z&sig=" + kSasSig;
const std::string kKey =
    "Q3JlZHNUaGlyZFBhc3NBY2NvdW50S2V5LWZlZWRjaGVjay0wMTIzNDU2Nzg5QUJDREVGR0hJSktMTU5PUA==";
const std::string kToken = "eyJhbGciOiJub25lIn0.eyJzdWIiOiJjcmVkcy10aGlyZC1wYXNzIn0.VEhJUkQ";

std::string Feedcheck() { return EnvOr("FEEDCHECK", FEEDCHECK_BINARY_DIR "/feedcheck"); }
std::string Seed() { return EnvOr("FEEDCHECK_SEED", FEEDCHECK_SEED_BINARY); }

std::vector<std::string> Secrets() {
  return {kSasSig, kSasSigDecoded,      kSasSig.substr(0, 20), kKey, kKey.substr(0, 24),
          kToken,  kToken.substr(0, 30)};
}

void RequireNoSecret(const std::string& what, const std::string& text) {
  for (const std::string& secret : Secrets()) {
    INFO(what << " holds '" << secret << "':\n" << text.substr(0, 3000));
    CHECK(text.find(secret) == std::string::npos);
  }
}

std::string TempDir() {
  char dir[] = "/tmp/feedcheck-creds-XXXXXX";
  REQUIRE(mkdtemp(dir) != nullptr);
  return dir;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string Describe(const CommandResult& r) {
  return "exit " + std::to_string(r.exit_code) + "\nstderr: " + r.err.substr(0, 3000) +
         "\nstdout: " + r.out.substr(0, 2000);
}

// The proxy variables libcurl reads, all pointing at `proxy`; no_proxy cleared.
std::string ProxyEnv(const std::string& proxy) {
  return "env -u no_proxy -u NO_PROXY http_proxy=" + proxy + " https_proxy=" + proxy +
         " HTTPS_PROXY=" + proxy + " all_proxy=" + proxy + " ALL_PROXY=" + proxy + " ";
}

// "SOFT HARD" of the "Max core file size" line of /proc/PID/limits.
std::string CoreLimit(const std::string& limits) {
  std::istringstream in(limits);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("Max core file size", 0) != 0) continue;
    std::istringstream words(line.substr(18));
    std::string soft, hard;
    words >> soft >> hard;
    return soft + " " + hard;
  }
  return "";
}

}  // namespace

TEST_CASE("a credential for a loopback target never goes to a proxy from the environment",
          "[safety][credentials]") {
  FaultServerProcess server(FAULT_SERVER, {"--object-bytes", "1048576"});
  CaptureServer proxy("127.0.0.1", 0,
                      [](const std::string&) { return CaptureServer::Answer(502, "proxy"); });
  for (const char* probe : {"latency", "throughput", "list"}) {
    CommandResult r =
        RunCommand(ProxyEnv(proxy.Url()) + "AZURE_STORAGE_SAS_TOKEN=" + ShellQuote(kSas) +
                   " timeout -s KILL 60 " + ShellQuote(Feedcheck()) + " probe " + probe + " " +
                   ShellQuote(server.Url(std::string("/devstoreaccount1/c/") +
                                         (std::string(probe) == "list" ? "" : "blob.bin"))) +
                   " --auth sas --duration 2s --max-requests 20 --json");
    INFO(probe << ": " << Describe(r));
    CHECK(r.exit_code == 0);
    RequireNoSecret("stdout", r.out);
    RequireNoSecret("stderr", r.err);
  }
  INFO("the proxy saw:\n" << proxy.Heads());
  CHECK(proxy.connections() == 0);
}

TEST_CASE("feedcheck-seed usage errors never echo a secret and exit 2 like feedcheck",
          "[safety][credentials]") {
  const std::string url = "http://127.0.0.1:9/devstoreaccount1/c/seed/";
  const std::string cases[] = {
      "--sas-tokn " + ShellQuote(kSas),     "--sas-tokn=" + ShellQuote(kSas),
      "--acount-key " + ShellQuote(kKey),   "--key-file " + ShellQuote(kKey),
      "--token-file " + ShellQuote(kToken), "--sas-file " + ShellQuote(kSas),
      "--account-key " + ShellQuote(kKey),  ShellQuote(kToken)};
  for (const std::string& args : cases) {
    CommandResult r =
        RunCommand("timeout -s KILL 30 " + ShellQuote(Seed()) + " " + ShellQuote(url) + " " + args);
    INFO(args << "\n" << Describe(r));
    CHECK(r.exit_code == 2);
    CHECK_FALSE(r.err.empty());
    RequireNoSecret("stderr", r.err);
    RequireNoSecret("stdout", r.out);
  }
  // Out-of-range sizes are usage errors too.
  CommandResult sizes = RunCommand("timeout -s KILL 30 " + ShellQuote(Seed()) + " " +
                                   ShellQuote(url) + " --large-bytes 2GiB");
  INFO(Describe(sizes));
  CHECK(sizes.exit_code == 2);
}

TEST_CASE("SIG= and Sig= in a target URL are refused like sig=, not echoed",
          "[safety][credentials]") {
  for (const char* name : {"SIG", "Sig", "sIg"}) {
    std::string url = "http://127.0.0.1:9/devstoreaccount1/c/blob.bin?sv=2023-11-03&" +
                      std::string(name) + "=" + kSasSig;
    CommandResult r = RunCommand("timeout -s KILL 30 " + ShellQuote(Feedcheck()) +
                                 " probe latency " + ShellQuote(url) + " --duration 2s");
    INFO(name << ": " << Describe(r));
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("AZURE_STORAGE_SAS_TOKEN") != std::string::npos);
    RequireNoSecret("stderr", r.err);
  }
  // A SAS token whose signature is spelt SIG= is a SAS token.
  CommandResult upper =
      RunCommand("AZURE_STORAGE_SAS_TOKEN=" + ShellQuote("sv=2023-11-03&sp=rl&SIG=" + kSasSig) +
                 " timeout -s KILL 30 " + ShellQuote(Feedcheck()) +
                 " probe latency http://127.0.0.1:9/devstoreaccount1/c/b --auth sas --duration 1s");
  INFO(Describe(upper));
  CHECK(upper.err.find("no sig= part") == std::string::npos);
  RequireNoSecret("stderr", upper.err);
}

TEST_CASE("a credential of two lines is refused before anything is sent", "[safety][credentials]") {
  CaptureServer target("127.0.0.1", 0,
                       [](const std::string&) { return CaptureServer::Answer(200, "ok"); });
  std::string dir = TempDir();
  const std::string url = target.Url() + "/devstoreaccount1/c/blob.bin";
  std::ofstream(dir + "/token") << kToken << "\nX-Injected: yes\n";
  std::ofstream(dir + "/sas") << kSas << "\nX-Injected: yes\n";
  const std::string runs[] = {
      "--auth bearer --token-file " + ShellQuote(dir + "/token"),
      "--auth sas --sas-file " + ShellQuote(dir + "/sas"),
  };
  for (const std::string& args : runs) {
    CommandResult r =
        RunCommand("timeout -s KILL 30 " + ShellQuote(Feedcheck()) + " probe latency " +
                   ShellQuote(url) + " " + args + " --duration 2s --max-requests 5");
    INFO(args << ": " << Describe(r));
    CHECK(r.exit_code == 3);
    CHECK(r.err.find("one line") != std::string::npos);
    RequireNoSecret("stderr", r.err);
  }
  CommandResult env = RunCommand("AZURE_STORAGE_BEARER_TOKEN=\"$(printf '%s\\nX-Injected: yes' " +
                                 ShellQuote(kToken) + ")\" timeout -s KILL 30 " +
                                 ShellQuote(Feedcheck()) + " probe latency " + ShellQuote(url) +
                                 " --auth bearer --duration 2s --max-requests 5");
  INFO(Describe(env));
  CHECK(env.exit_code == 3);
  RequireNoSecret("stderr", env.err);
  INFO("the server saw:\n" << target.Heads());
  CHECK(target.connections() == 0);
  CHECK(target.Heads().find("X-Injected") == std::string::npos);
  RunCommand("rm -rf " + ShellQuote(dir));
}

TEST_CASE("no core file while a credential is held, even with core dumps enabled",
          "[safety][credentials]") {
  // The target accepts and never answers: the probe holds the SAS while it waits.
  CaptureServer target("127.0.0.1", 0, [](const std::string&) { return CaptureServer::kHang; });
  std::string dir = TempDir();
  const std::string url = target.Url() + "/devstoreaccount1/c/blob.bin";
  const std::string script = "ulimit -c unlimited; cd " + ShellQuote(dir) + " && exec " +
                             ShellQuote(Feedcheck()) + " probe latency " + ShellQuote(url) +
                             " --auth sas --duration 30s --max-requests 3";
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    setenv("AZURE_STORAGE_SAS_TOKEN", kSas.c_str(), 1);
    execl("/bin/sh", "sh", "-c", script.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
  while (target.connections() == 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  REQUIRE(target.connections() > 0);  // the request (with its SAS) is out: a credential is held
  std::string limits = ReadFile("/proc/" + std::to_string(pid) + "/limits");
  kill(pid, SIGQUIT);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  INFO("limits:\n" << limits);
  CHECK(CoreLimit(limits) == "0 0");
  REQUIRE(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGQUIT);
  CHECK_FALSE(WCOREDUMP(status));
  CommandResult ls = RunCommand("ls -A " + ShellQuote(dir));
  CHECK(ls.out.find("core") == std::string::npos);
  RunCommand("rm -rf " + ShellQuote(dir));
}

TEST_CASE("a listing whose names carry the bare signature: no output shows it",
          "[safety][credentials]") {
  // Names that are the signature's value, as a hostile server could list them: no sig= pattern
  // gives them away, only the value this process knows it holds.
  CaptureServer server("127.0.0.1", 0, [](const std::string& head) {
    if (head.find("comp=list") != std::string::npos) {
      std::string xml =
          "<?xml version=\"1.0\" encoding=\"utf-8\"?><EnumerationResults ContainerName=\"c\">"
          "<Blobs>";
      for (int i = 0; i < 3; ++i)
        xml += "<Blob><Name>d/" + kSasSigDecoded + "-" + std::to_string(i) +
               ".bin</Name><Properties><Content-Length>4096</Content-Length>"
               "<BlobType>BlockBlob</BlobType></Properties></Blob>";
      xml += "<Blob><Name>d/" + kSasSig +
             ".bin</Name><Properties><Content-Length>4096</Content-Length>"
             "<BlobType>BlockBlob</BlobType></Properties></Blob>";
      xml += "</Blobs><NextMarker/></EnumerationResults>";
      return CaptureServer::Answer(200, xml, "Content-Type: application/xml\r\n");
    }
    return CaptureServer::Answer(
        403,
        "<?xml version=\"1.0\"?><Error><Code>AuthorizationFailure</Code><Message>no</Message>"
        "</Error>",
        "x-ms-error-code: AuthorizationFailure\r\n");
  });
  std::string dir = TempDir();
  std::string all;
  for (const char* probe : {"smallfiles", "list"}) {
    for (const char* format : {"term", "json", "md", "html"}) {
      std::string out = dir + "/" + probe + "." + format;
      CommandResult r =
          RunCommand("AZURE_STORAGE_SAS_TOKEN=" + ShellQuote(kSas) + " timeout -s KILL 60 " +
                     ShellQuote(Feedcheck()) + " probe " + probe + " " +
                     ShellQuote(server.Url() + "/devstoreaccount1/c/d/") +
                     " --auth sas --duration 2s --max-requests 20 -f " + format + " -o " + out);
      INFO(probe << " " << format << ": " << Describe(r));
      CHECK(r.exit_code < 128);
      all += r.out + r.err + ReadFile(out);
      CommandResult plain =
          RunCommand("AZURE_STORAGE_SAS_TOKEN=" + ShellQuote(kSas) + " timeout -s KILL 60 " +
                     ShellQuote(Feedcheck()) + " probe " + probe + " " +
                     ShellQuote(server.Url() + "/devstoreaccount1/c/d/") +
                     " --auth sas --duration 2s --max-requests 20 -f " + format);
      all += plain.out + plain.err;
    }
  }
  // The names were read (the listing was parsed), and shown without the value.
  CHECK(all.find("d/REDACTED") != std::string::npos);
  RequireNoSecret("output", all);
  RunCommand("rm -rf " + ShellQuote(dir));
}
