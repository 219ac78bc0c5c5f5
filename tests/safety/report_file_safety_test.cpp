// The third safety pass, files and inputs (label safety): -o writes through what is not a
// regular file (/dev/stdout, a FIFO, /dev/null as root) and replaces a regular file keeping its
// mode, whatever its name's length; `analyze` of an 8 TiB sparse log skips the holes; a profile
// that gives a key twice is refused naming both lines; and a 206 whose body is shorter than its
// Content-Range is never measured as ok.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/fault_server/server_process.h"
#include "tests/support/subprocess.h"

using namespace feedcheck::testing;

namespace {

std::string Feedcheck() { return EnvOr("FEEDCHECK", FEEDCHECK_BINARY_DIR "/feedcheck"); }

std::string Describe(const CommandResult& r) {
  return "exit " + std::to_string(r.exit_code) + " in " + std::to_string(r.wall_s) +
         " s\nstderr: " + r.err.substr(0, 3000) + "\nstdout: " + r.out.substr(0, 3000);
}

CommandResult Run(const std::string& args) {
  return RunCommand("timeout -s KILL 60 " + ShellQuote(Feedcheck()) + " " + args);
}

// A command that writes a report and needs no input or network.
const std::string kEgress = "egress --nic-gbps 24 --region eastus";

struct TempDir {
  std::string path;
  TempDir() {
    char t[] = "/tmp/feedcheck-files-XXXXXX";
    REQUIRE(mkdtemp(t) != nullptr);
    path = t;
  }
  ~TempDir() { RunCommand("rm -rf " + ShellQuote(path)); }
};

std::string Read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

mode_t LinkMode(const std::string& path) {
  struct stat st {};
  REQUIRE(lstat(path.c_str(), &st) == 0);
  return st.st_mode;
}

}  // namespace

TEST_CASE("report file: -o /dev/stdout and -o FIFO are written through, never replaced",
          "[safety][report-files]") {
  REQUIRE(S_ISLNK(LinkMode("/dev/stdout")));
  CommandResult out = Run(kEgress + " -f json -o /dev/stdout");
  INFO(Describe(out));
  CHECK(out.exit_code == 0);
  CHECK(ParseJson(out.out).has_value());  // the report reached stdout
  CHECK(S_ISLNK(LinkMode("/dev/stdout")));

  TempDir dir;
  std::string fifo = dir.path + "/report.pipe", got = dir.path + "/got.md";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  CommandResult piped =
      RunCommand("cat " + ShellQuote(fifo) + " > " + ShellQuote(got) + " & timeout -s KILL 30 " +
                 ShellQuote(Feedcheck()) + " " + kEgress + " -f md -o " + ShellQuote(fifo) +
                 "; status=$?; wait; exit $status");
  INFO(Describe(piped));
  CHECK(piped.exit_code == 0);
  CHECK(S_ISFIFO(LinkMode(fifo)));
  CHECK(Read(got).find("# ") != std::string::npos);  // the Markdown came through the pipe
}

TEST_CASE("report file: -o /dev/null keeps the device (root only)", "[safety][report-files]") {
  if (geteuid() != 0) {
    WARN("skipped: only root could replace /dev/null; this user cannot, so there is no case");
    return;
  }
  REQUIRE(S_ISCHR(LinkMode("/dev/null")));
  CommandResult r = Run(kEgress + " -f json -o /dev/null");
  INFO(Describe(r));
  CHECK(r.exit_code == 0);
  CHECK(S_ISCHR(LinkMode("/dev/null")));
}

TEST_CASE("report file: -o over a 0600 file keeps 0600; a 250-character name works",
          "[safety][report-files]") {
  TempDir dir;
  std::string path = dir.path + "/report.json";
  { std::ofstream(path) << "old\n"; }
  REQUIRE(chmod(path.c_str(), 0600) == 0);
  CommandResult r = Run(kEgress + " -o " + ShellQuote(path));
  INFO(Describe(r));
  CHECK(r.exit_code == 0);
  CHECK(ParseJson(Read(path)).has_value());
  CHECK((LinkMode(path) & 07777) == 0600);

  std::string long_name = dir.path + "/" + std::string(245, 'r') + ".json";
  CommandResult l = Run(kEgress + " -o " + ShellQuote(long_name));
  INFO(Describe(l));
  CHECK(l.exit_code == 0);
  CHECK(ParseJson(Read(long_name)).has_value());
}

TEST_CASE("analyze of an 8 TiB sparse rslex.log skips the holes, naming the file",
          "[safety][limits]") {
  TempDir dir;
  std::string log = dir.path + "/rslex.log";
  const std::string line =
      "2026-01-09T21:00:28.000000Z   INFO mount:fuse_read:read_file: rslex::prefetching: close "
      "time.busy=1.22ms time.idle=1.90us parallelization_degree=4\n";
  { std::ofstream(log) << line; }
  // 8 TiB of hole, then a newline and one more line: a hole only the file system stores.
  REQUIRE(RunCommand("truncate -s 8T " + ShellQuote(log)).exit_code == 0);
  { std::ofstream(log, std::ios::app) << "\n" << line; }
  CommandResult r = Run("analyze " + ShellQuote(log) + " --json");
  INFO(Describe(r));
  CHECK(r.wall_s < 20);
  CHECK(r.exit_code != 124);
  CHECK(r.exit_code != 137);
  std::string all = r.out + r.err;
  CHECK(all.find("a sparse file") != std::string::npos);
  CHECK(all.find("rslex.log") != std::string::npos);
}

TEST_CASE("a profile that gives a key twice is refused, naming both lines", "[safety][limits]") {
  TempDir dir;
  std::string profile = dir.path + "/twice.yaml";
  {
    std::ofstream(profile) << "nodes: 1\n"
                              "sku: Standard_ND96isr_H100_v5\n"
                              "region: italynorth\n"
                              "nodes: 8\n"
                              "sku: Standard_ND96isr_H100_v5\n"
                              "region: italynorth\n";
  }
  CommandResult r = Run("advise --profile " + ShellQuote(profile));
  INFO(Describe(r));
  CHECK(r.exit_code == 3);
  std::string all = r.out + r.err;
  CHECK(all.find("twice.yaml:4") != std::string::npos);
  CHECK(all.find("key 'nodes' is given twice in one mapping, at line 1 and again at line 4") !=
        std::string::npos);
  CHECK(all.find("key 'region'") != std::string::npos);
}

TEST_CASE("a 206 whose body is shorter than its Content-Range is not measured as ok",
          "[safety][faults]") {
  FaultServerProcess server(FAULT_SERVER, {"--object-bytes", "1048576"});
  for (const char* fault : {"empty-206", "short-206"}) {
    // Both engines: latency's raw lane, throughput's libcurl transfers.
    for (const std::string probe : {"latency", "throughput"}) {
      std::string url = server.Url(std::string("/devstoreaccount1/fault-") + fault + "/blob-1.bin");
      CommandResult r =
          Run("probe " + probe + " " + ShellQuote(url) + " --json --duration 3s --max-requests 50");
      INFO(fault << " " << probe << ": " << Describe(r));
      CHECK(r.exit_code == 4);
      auto j = ParseJson(r.out);
      REQUIRE(j);
      CHECK((*j)["status"] != "ok");
      CHECK((r.out + r.err).find("HTTP 206 ") != std::string::npos);
    }
  }
}
