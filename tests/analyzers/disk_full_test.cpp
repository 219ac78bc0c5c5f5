// A full local disk in the data runtime's logs: the operating system's ENOSPC text in the forms
// Rust and Python print it, found in rslex's warnings and errors and anywhere in
// data-capability.log (a traceback's continuation lines too), with the first line named.
#include "analyzers/disk_full.h"

#include <catch2/catch.hpp>

#include "analyzers/data_capability_log.h"
#include "analyzers/rslex_log.h"
#include "test_util.h"

using namespace feedcheck;
using namespace feedcheck::analyzers;
using namespace feedcheck::analyzers::test;

TEST_CASE("ENOSPC is recognised in Rust's and Python's words, nothing else",
          "[analyzers][disk_full]") {
  CHECK(SaysDiskFull("err=No space left on device (os error 28)"));
  CHECK(SaysDiskFull("Failed to write: (os error 28)"));
  CHECK(SaysDiskFull("OSError: [Errno 28] No space left on device: '/mnt/x'"));
  CHECK_FALSE(SaysDiskFull("No space left in the queue"));
  CHECK_FALSE(SaysDiskFull("os error 2"));
  CHECK_FALSE(SaysDiskFull("(os error 2)"));
  CHECK_FALSE(SaysDiskFull("[Errno 2] No such file or directory"));
}

TEST_CASE("rslex: a warning or error saying the disk is full is counted, from its first line",
          "[analyzers][disk_full]") {
  const char* log =
      "2026-06-03T14:10:30.400000Z  INFO rslex::prefetching: the text No space left on device "
      "in an INFO line is no failure\n"
      "2026-06-03T14:29:41.400000Z ERROR rslex::python_error_handling: Execution has failed "
      "with: copying the input: No space left on device (os error 28)\n"
      "2026-06-03T14:29:41.500000Z  WARN rslex::file_io: write failed err=(os error 28)\n";
  RslexLogAnalyzer a;
  Evidence ev = Run(a, log, "rslex.log.2026-06-03-14");
  const Fact* f = ev.facts.Find("runtime.disk_full_lines");
  REQUIRE(f != nullptr);
  CHECK(f->number() == 2);
  CHECK(f->provenance.file == "rslex.log.2026-06-03-14");
  CHECK(f->provenance.line == 2);
}

TEST_CASE("data-capability: a traceback's ENOSPC line is counted where it stands",
          "[analyzers][disk_full]") {
  const char* log =
      "INFO 2026-06-03 14:10:30,000 sdk_logger.py:44 [28] - ActivityStarted, download\n"
      "ERROR 2026-06-03 14:29:41,000 data_capability.py:318 [28] - download failed\n"
      "Traceback (most recent call last):\n"
      "OSError: [Errno 28] No space left on device\n"
      "INFO 2026-06-03 14:29:42,000 sdk_logger.py:44 [28] - ActivityCompleted: "
      "Activity=download, HowEnded=Failure, Duration=1152000.00 [ms]\n";
  DataCapabilityAnalyzer a;
  Evidence ev = Run(a, log, "data-capability.log");
  const Fact* f = ev.facts.Find("runtime.disk_full_lines");
  REQUIRE(f != nullptr);
  CHECK(f->number() == 1);
  CHECK(f->provenance.line == 4);
  CHECK(Num(ev, "runtime.activity_failures") == 1);
  // A log that never says so has no such fact.
  DataCapabilityAnalyzer quiet;
  Evidence none = Run(quiet,
                      "INFO 2026-06-03 14:10:30,000 sdk_logger.py:44 [28] - ActivityStarted, "
                      "download\n",
                      "data-capability.log");
  CHECK(none.facts.Find("runtime.disk_full_lines") == nullptr);
}
