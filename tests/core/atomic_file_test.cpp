// WriteFileAtomically against planted files (label unit): a regular file is replaced through an
// exclusive, unpredictable temporary name (a planted link or FIFO at the old predictable name is
// never opened), its mode kept; a FIFO, a device or a descriptor path is written through, never
// renamed over; a 250-character name works.
#include "core/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

using namespace feedcheck;

namespace {

struct TempDir {
  std::string path;
  TempDir() {
    char t[] = "/tmp/feedcheck-atomic-XXXXXX";
    REQUIRE(mkdtemp(t) != nullptr);
    path = t;
  }
  ~TempDir() { std::filesystem::remove_all(path); }
};

std::string Read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

mode_t ModeOf(const std::string& path) {
  struct stat st {};
  REQUIRE(lstat(path.c_str(), &st) == 0);
  return st.st_mode;
}

}  // namespace

TEST_CASE("a report file is written whole, the old mode kept", "[core][atomic-file]") {
  TempDir dir;
  std::string path = dir.path + "/report.md";
  std::string error;
  REQUIRE(WriteFileAtomically(path, "first\n", &error));
  CHECK(Read(path) == "first\n");
  REQUIRE(chmod(path.c_str(), 0600) == 0);
  REQUIRE(WriteFileAtomically(path, "second\n", &error));
  CHECK(Read(path) == "second\n");
  CHECK((ModeOf(path) & 07777) == 0600);  // 0600 stays 0600
  CHECK(S_ISREG(ModeOf(path)));
  // Nothing but the report is left in the directory.
  int entries = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path)) ++entries;
  CHECK(entries == 1);
}

TEST_CASE("a 250-character report name works", "[core][atomic-file]") {
  TempDir dir;
  std::string path = dir.path + "/" + std::string(245, 'r') + ".html";
  std::string error;
  CHECK(WriteFileAtomically(path, "<html></html>\n", &error));
  INFO(error);
  CHECK(Read(path) == "<html></html>\n");
}

TEST_CASE("a link or FIFO planted at a temporary name is never opened", "[core][atomic-file]") {
  TempDir dir;
  std::string path = dir.path + "/report.json";
  std::string victim = dir.path + "/victim";
  { std::ofstream(victim) << "precious\n"; }
  // The names the writer used to take (REPORT.tmp-<pid>): a link to a victim, then a FIFO.
  std::string planted = path + ".tmp-" + std::to_string(getpid());
  REQUIRE(symlink(victim.c_str(), planted.c_str()) == 0);
  std::string error;
  REQUIRE(WriteFileAtomically(path, "{}\n", &error));
  CHECK(Read(victim) == "precious\n");
  CHECK(Read(path) == "{}\n");
  CHECK(S_ISLNK(ModeOf(planted)));
  REQUIRE(unlink(planted.c_str()) == 0);

  REQUIRE(mkfifo(planted.c_str(), 0600) == 0);
  // A reader that never reads, so a writer opening the FIFO would not block (and the test
  // cannot hang): what matters is that the report is a regular file and the FIFO stays one.
  int reader = open(planted.c_str(), O_RDONLY | O_NONBLOCK);
  REQUIRE(reader >= 0);
  REQUIRE(WriteFileAtomically(path, "{\"a\":1}\n", &error));
  CHECK(S_ISREG(ModeOf(path)));
  CHECK(Read(path) == "{\"a\":1}\n");
  CHECK(S_ISFIFO(ModeOf(planted)));
  char c;
  CHECK(read(reader, &c, 1) <= 0);  // nothing was written into the FIFO
  close(reader);
}

TEST_CASE("a FIFO target is written through, never renamed over", "[core][atomic-file]") {
  TempDir dir;
  std::string fifo = dir.path + "/pipe";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  std::string got;
  std::thread reader([&] { got = Read(fifo); });
  std::string error;
  CHECK(WriteFileAtomically(fifo, "through the pipe\n", &error));
  reader.join();
  CHECK(got == "through the pipe\n");
  CHECK(S_ISFIFO(ModeOf(fifo)));
}

TEST_CASE("a link at the report's name is refused, never followed", "[core][atomic-file]") {
  TempDir dir;
  std::string real = dir.path + "/real.md", link = dir.path + "/latest.md";
  { std::ofstream(real) << "old\n"; }
  REQUIRE(symlink(real.c_str(), link.c_str()) == 0);
  std::string error;
  CHECK_FALSE(WriteFileAtomically(link, "new\n", &error));
  CHECK(error.find("symbolic link") != std::string::npos);
  CHECK(S_ISLNK(ModeOf(link)));
  CHECK(Read(real) == "old\n");
}

TEST_CASE("/dev/null is written through, never replaced (root only)", "[core][atomic-file]") {
  if (geteuid() != 0) {
    WARN("skipped: as a non-root user /dev/null cannot be replaced anyway; run as root");
    return;
  }
  std::string error;
  CHECK(WriteFileAtomically("/dev/null", "discarded\n", &error));
  CHECK(S_ISCHR(ModeOf("/dev/null")));
}
