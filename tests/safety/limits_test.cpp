// Limits (label safety): hostile inputs to the parsers, through the real CLI, end with a clear
// error naming the file — never a crash, a hang or memory that grows with the input's depth.
// Memory is the child's peak RSS (getrusage RUSAGE_CHILDREN after each run).
#include <sys/resource.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <string>

#include "tests/support/subprocess.h"

using namespace feedcheck::testing;

namespace {

std::string Feedcheck() { return EnvOr("FEEDCHECK", FEEDCHECK_BINARY_DIR "/feedcheck"); }

struct TempFile {
  std::string path;
  explicit TempFile(const std::string& content) {
    char name[] = "/tmp/feedcheck-limits-XXXXXX.yaml";
    int fd = mkstemps(name, 5);
    REQUIRE(fd >= 0);
    close(fd);
    path = name;
    std::ofstream(path, std::ios::binary) << content;
  }
  ~TempFile() { std::remove(path.c_str()); }
};

// Peak RSS in MiB of the largest child so far; runs are checked one by one, so the peak only
// rises when a run exceeded the ones before.
double ChildPeakRssMiB() {
  rusage u{};
  getrusage(RUSAGE_CHILDREN, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

CommandResult ValidateRules(const std::string& path) {
  return RunCommand("timeout -s KILL 60 " + ShellQuote(Feedcheck()) + " rules validate " +
                    ShellQuote(path));
}

// `says` must appear in the message, so yaml-cpp's bare "bad file" does not count as clear.
void RequireCleanRefusal(const CommandResult& r, const std::string& path, const std::string& says) {
  std::string output = r.out + r.err;
  INFO("exit " << r.exit_code << " in " << r.wall_s << " s\noutput: " << output.substr(0, 3000));
  CHECK(r.exit_code == 3);                              // invalid rules; not a crash (>= 128)
  CHECK(output.find(path + ":") != std::string::npos);  // names the file and line
  CHECK(output.find(says) != std::string::npos);
  CHECK(r.wall_s < 10);
  CHECK(ChildPeakRssMiB() < 512);
}

std::string Rule(const std::string& when) {
  return "- id: hostile\n  severity: info\n  title: t\n  when: " + when +
         "\n  say: s\n  source: test\n";
}

}  // namespace

TEST_CASE("deeply nested YAML is refused without exhausting the stack", "[safety][limits]") {
  for (int depth : {1000, 100000}) {
    DYNAMIC_SECTION("flow sequences nested " << depth << " deep") {
      TempFile f("- " + std::string(static_cast<size_t>(depth), '[') +
                 std::string(static_cast<size_t>(depth), ']') + "\n");
      RequireCleanRefusal(ValidateRules(f.path), f.path, "nests deeper than");
    }
  }
  SECTION("block mappings nested 3,000 deep") {
    std::string yaml = "- id: deep\n  when: ";
    for (size_t i = 0; i < 3000; ++i) yaml += "\n" + std::string(i + 4, ' ') + "k:";
    yaml += " 1\n";
    TempFile f(yaml);
    RequireCleanRefusal(ValidateRules(f.path), f.path, "nests deeper than");
  }
}

TEST_CASE("pathological rule conditions get a clear error", "[safety][limits]") {
  SECTION("parentheses nested 1,500 deep (under the length cap)") {
    TempFile f(
        Rule("\"" + std::string(1500, '(') + "node.count" + std::string(1500, ')') + " > 1\""));
    RequireCleanRefusal(ValidateRules(f.path), f.path, "nests deeper than 64 levels");
  }
  SECTION("unary operators chained 800 times") {
    std::string nots;
    for (int i = 0; i < 800; ++i) nots += "not ";
    TempFile f(Rule("\"" + nots + "(node.count > 1)\""));
    RequireCleanRefusal(ValidateRules(f.path), f.path, "nests deeper than 64 levels");
  }
  SECTION("an expression of 1 MB") {
    std::string when = "node.count > 1";
    while (when.size() < (1u << 20)) when += " and node.count > 1";
    TempFile f(Rule("\"" + when + "\""));
    RequireCleanRefusal(ValidateRules(f.path), f.path, "longer than 4096 characters");
  }
}

TEST_CASE("a huge rules file is handled with bounded memory", "[safety][limits]") {
  // 32 MiB of one long scalar line: whatever the loader decides, it must say so clearly,
  // finish promptly, and not need memory many times the file's size.
  std::string big = "- id: huge\n  title: " + std::string(32u << 20, 'x') + "\n";
  TempFile f(big);
  CommandResult r = ValidateRules(f.path);
  INFO("exit " << r.exit_code << " in " << r.wall_s << " s\nstderr: " << r.err.substr(0, 2000));
  CHECK(r.exit_code < 128);
  CHECK((r.exit_code == 0 || r.exit_code == 3));
  CHECK(r.wall_s < 20);
  CHECK(ChildPeakRssMiB() < 512);
  CHECK(r.err.size() + r.out.size() < (1u << 20));  // the 32 MiB value is not echoed back
}
