// nvidia-smi in a local time zone next to UTC logs: the offset that lines them up, and the
// whole job folder read with it.
#include "analyzers/clock_offset.h"

#include <catch2/catch.hpp>

#include "analyzers/analyze_paths.h"
#include "analyzers/analyzer_messages.h"
#include "test_util.h"

using namespace feedcheck;
using namespace feedcheck::analyzers;

TEST_CASE("local time: the quarter-hour offset that puts the first sample at the logs' start",
          "[analyzers][gpu][clock]") {
  const double h = 3600;
  // Logs 16:40..17:42 UTC; samples written in UTC-7 start 8 s after the logs.
  double logs_first = 60000 + 16 * h + 40 * 60, logs_last = logs_first + 62 * 60;
  auto o = LocalClockOffsetS(logs_first + 8 - 7 * h, logs_last - 7 * h, logs_first, logs_last);
  REQUIRE(o);
  CHECK(*o == Approx(7 * h));
  // India (UTC+5:30) and Nepal (UTC+5:45) are quarter hours too.
  o = LocalClockOffsetS(logs_first + 20 + 5.75 * h, logs_last + 5.75 * h, logs_first, logs_last);
  REQUIRE(o);
  CHECK(*o == Approx(-5.75 * h));
  // Overlapping samples (a sampler started late, or early by minutes) are left alone.
  CHECK_FALSE(LocalClockOffsetS(logs_first + 30 * 60, logs_last + h, logs_first, logs_last));
  CHECK_FALSE(LocalClockOffsetS(logs_first - 8 * 60, logs_last, logs_first, logs_last));
  // Samples of another day, or no span at all: no offset within 14 hours fits.
  CHECK_FALSE(LocalClockOffsetS(logs_first + 30 * h, logs_last + 30 * h, logs_first, logs_last));
  CHECK_FALSE(LocalClockOffsetS(logs_last, logs_first, logs_first, logs_last));
}

TEST_CASE("a job whose nvidia-smi wrote UTC-7: samples shifted, a note names the file",
          "[analyzers][gpu][clock]") {
  AnalyzeRequest req;
  req.paths = {test::DataDir() + "/joblogs/nvidia-smi-local-time-small-files"};
  AnalysisResult r = AnalyzePaths(req);
  REQUIRE(r.anything_read);
  int notes = 0;
  for (const auto& d : r.evidence.diagnostics.kept())
    if (d.code == std::string(kCodeGpuLocalTime)) {
      ++notes;
      CHECK(d.message.find("UTC-07:00") != std::string::npos);
      CHECK(d.location.file.find("nvidia-smi-") != std::string::npos);
    }
  CHECK(notes == 2);  // one per node's file
  // Lined up, the lost time falls during the mount's reads, none before the runtime started.
  auto mount = r.evidence.facts.Number("gpu.lost_mount_gpu_s");
  auto before = r.evidence.facts.Number("gpu.lost_unknown_gpu_s");
  REQUIRE(mount);
  REQUIRE(before);
  CHECK(*mount > 10 * *before);
}
