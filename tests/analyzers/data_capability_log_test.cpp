#include "analyzers/data_capability_log.h"

#include <catch2/catch.hpp>

#include "test_util.h"

using namespace feedcheck;
using namespace feedcheck::analyzers;
using namespace feedcheck::analyzers::test;

TEST_CASE("the guide's data-capability lines parse to exactly their values",
          "[analyzers][data_capability]") {
  const char* log =
      "INFO 2023-05-18 17:14:47,790 sdk_logger.py:44 [28] - ActivityStarted, download\n"
      "INFO 2023-05-18 17:14:50,295 sdk_logger.py:44 [28] - ActivityCompleted: Activity=download, "
      "HowEnded=Success, Duration=2504.39 [ms]\n";
  DataCapabilityAnalyzer a;
  Evidence ev = Run(a, log, "data-capability.log");
  CHECK(Num(ev, "runtime.download_s") == Approx(2.50439));
  CHECK(*ev.facts.Text("runtime.mode") == "download");
  CHECK(Num(ev, "runtime.activity_failures") == 0);
  REQUIRE(ev.timeline.size() == 1);
  const auto& iv = ev.timeline[0];
  CHECK(iv.lane == "data-runtime");
  CHECK(iv.label == "download");
  CHECK(iv.status == "Success");
  CHECK(iv.end_epoch_s - iv.start_epoch_s == Approx(2.505));  // from the Started line's time
  CHECK(iv.source == "data-capability.log:2");
  CHECK(ev.facts.Find("runtime.download_s")->provenance.line == 2);
  CHECK(a.stats().malformed == 0);
}

TEST_CASE("ActivityCompleted variants", "[analyzers][data_capability]") {
  ActivityCompleted c;
  REQUIRE(ParseActivityCompleted(
      "ActivityCompleted: Activity=download, HowEnded=Success, Duration=2504.39 [ms]", &c));
  CHECK(c.activity == "download");
  CHECK(c.how_ended == "Success");
  CHECK(c.duration_ms == 2504.39);
  CHECK(c.exception.empty());
  REQUIRE(ParseActivityCompleted(
      "ActivityCompleted: Activity=mount, HowEnded=Failure, Duration=12.5[ms], "
      "Exception=ExecutionError",
      &c));
  CHECK(c.activity == "mount");
  CHECK(c.how_ended == "Failure");
  CHECK(c.duration_ms == 12.5);
  CHECK(c.exception == "ExecutionError");
  REQUIRE(ParseActivityCompleted(
      "2023-05-18 17:14:47 | ActivityCompleted: Activity=x, HowEnded=Success, Duration=1 [ms], "
      "Info = {}",
      &c));
  CHECK(c.activity == "x");
  CHECK_FALSE(ParseActivityCompleted("ActivityCompleted: Activity=x, HowEnded=Success", &c));
  CHECK_FALSE(
      ParseActivityCompleted("ActivityCompleted: Activity=x, HowEnded=Success, Duration=abc", &c));
  CHECK(*ParseActivityStarted("ActivityStarted, download") == "download");
  CHECK(*ParseActivityStarted("ActivityStarted: download") == "download");
  CHECK_FALSE(ParseActivityStarted("ActivityStartedX"));
}

TEST_CASE("failed mounts, failures, malformed activity lines, continuation lines",
          "[analyzers][data_capability]") {
  const char* log =
      "INFO 2024-01-01 06:17:46,000 dc.py:1 [9] - ActivityStarted: ro_mount\n"
      "WARNING 2024-01-01 06:17:47,000 dc.py:2 [9] - Failed to mount URI azureml://x due to "
      "exception of type ExecutionError\n"
      "INFO 2024-01-01 06:17:47,100 dc.py:3 [9] - ActivityCompleted: Activity=ro_mount, "
      "HowEnded=Failure, Duration=1100.0 [ms], Exception=ExecutionError\n"
      "ERROR 2024-01-01 06:17:48,000 dc.py:4 [9] - Error Code: "
      "ScriptExecution.StreamAccess.NotFound\n"
      "Traceback (most recent call last):\n"
      "  File \"x.py\", line 1, in <module>\n"
      "INFO 2024-01-01 06:17:49,000 dc.py:5 [9] - ActivityCompleted: Activity=broken\n";
  DataCapabilityAnalyzer a;
  Evidence ev = Run(a, log, "dc.log");
  CHECK(*ev.facts.Text("runtime.mode") == "mount");
  CHECK(Num(ev, "runtime.mount_failures") == 1);
  CHECK(Num(ev, "runtime.activity_failures") == 1);
  CHECK(*ev.facts.Text("runtime.stream_error") == "ScriptExecution.StreamAccess.NotFound");
  CHECK(a.stats().malformed == 1);
  REQUIRE(ev.diagnostics.kept().size() >= 1);
  CHECK(ev.diagnostics.kept()[0].location.line == 7);
  REQUIRE(ev.timeline.size() == 1);
  CHECK(ev.timeline[0].status == "Failure (ExecutionError)");
}

TEST_CASE("an activity that never completes is reported", "[analyzers][data_capability]") {
  DataCapabilityAnalyzer a;
  Evidence ev =
      Run(a, "INFO 2024-01-01 06:17:46,000 dc.py:1 [9] - ActivityStarted, download\n", "dc.log");
  bool warned = false;
  for (const auto& d : ev.diagnostics.kept()) warned |= d.code == "A205";
  CHECK(warned);
  REQUIRE(ev.timeline.size() == 1);
  CHECK(ev.timeline[0].status == "unfinished");
}

namespace {

// Feeds `files` (name, text) to one analyzer in the order given, as AnalyzePaths does.
Evidence RunFiles(DataCapabilityAnalyzer& a,
                  const std::vector<std::pair<std::string, std::string>>& files) {
  std::string error;
  for (const auto& [name, text] : files) {
    LineReader reader = LineReader::FromBuffer(text, a.MaxLineBytes());
    FeedLines(reader, name, a, &error);
  }
  Evidence ev;
  a.Finish(&ev);
  return ev;
}

bool HasCode(const Evidence& ev, const char* code) {
  for (const auto& d : ev.diagnostics.kept())
    if (d.code == code) return true;
  return false;
}

}  // namespace

TEST_CASE("a download that starts in data-capability.log.1 and ends in .log is one download",
          "[analyzers][data_capability]") {
  // Python's RotatingFileHandler rolled the log over while the download ran.
  const std::string older =
      "INFO 2026-02-11 07:02:10,118 data_capability.py:230 [31] - create dir for "
      "/mnt/azureml/cr/j/job/cap/data-capability/wd/INPUT_data\n"
      "INFO 2026-02-11 07:02:14,500 sdk_logger.py:44 [31] - ActivityStarted, download\n";
  const std::string live =
      "INFO 2026-02-11 07:41:54,500 sdk_logger.py:44 [31] - ActivityCompleted: "
      "Activity=download, HowEnded=Success, Duration=2380000.00 [ms]\n";
  DataCapabilityAnalyzer a;
  Evidence ev = RunFiles(a, {{"job/data_capability/data-capability.log.1", older},
                             {"job/data_capability/data-capability.log", live}});
  CHECK_FALSE(HasCode(ev, "A205"));
  REQUIRE(ev.timeline.size() == 1);
  CHECK(ev.timeline[0].status == "Success");
  CHECK(ev.timeline[0].end_epoch_s - ev.timeline[0].start_epoch_s == Approx(2380));
  CHECK(Num(ev, "runtime.download_s") == Approx(2380));

  // Another node's folder is another log: an activity open there does not complete here.
  DataCapabilityAnalyzer b;
  Evidence two = RunFiles(
      b, {{"job/node-0/data-capability.log", older}, {"job/node-1/data-capability.log", live}});
  CHECK(HasCode(two, "A205"));
  // A restarted session (a preempted node) starts the download again: the first attempt never
  // completed.
  DataCapabilityAnalyzer c;
  Evidence restarted = RunFiles(
      c, {{"job/dc/data-capability.log.1", older}, {"job/dc/data-capability.log", older + live}});
  CHECK(HasCode(restarted, "A205"));
  bool named = false;
  for (const auto& d : restarted.diagnostics.kept())
    named |= d.code == "A205" && d.location.file == "job/dc/data-capability.log.1" &&
             d.location.line == 2;
  CHECK(named);
}

TEST_CASE("a log's last line without a newline is read, with a note at its line",
          "[analyzers][data_capability]") {
  // The node was deallocated mid-write.
  const char* log =
      "INFO 2026-04-07 10:00:26,000 sdk_logger.py:44 [28] - ActivityStarted, mount\n"
      "INFO 2026-04-07 10:00:28,400 sdk_logger.py:44 [28] - ActivityCompleted: Activity=mount, "
      "HowEnded=Success, Duration=2400.00 [ms]\n"
      "INFO 2026-04-07 11:19:57,000 data_capability.py:402 [28] - Stopping data capabil";
  DataCapabilityAnalyzer a;
  Evidence ev = Run(a, log, "data-capability.log");
  CHECK(*ev.facts.Text("runtime.mode") == "mount");
  CHECK(a.stats().malformed == 0);
  bool noted = false;
  for (const auto& d : ev.diagnostics.kept())
    noted |= d.code == "A207" && d.location.file == "data-capability.log" && d.location.line == 3;
  CHECK(noted);
}
