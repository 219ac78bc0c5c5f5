// nvidia-smi in a local time zone next to UTC logs: the offset that lines them up, and the
// whole job folder read with it.
#include "analyzers/clock_offset.h"

#include <catch2/catch.hpp>

#include "analyzers/analyze_paths.h"
#include "core/diagnostic_codes.h"
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
    if (d.code == std::string(codes::kGpuLocalTime)) {
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

TEST_CASE("the zone nvidia-smi wrote in: the forms --gpu-utc-offset takes, a clear error else",
          "[analyzers][gpu][clock]") {
  std::string error;
  CHECK(*ParseUtcOffsetS("+05:30", &error) == 19800);
  CHECK(*ParseUtcOffsetS("-07:00", &error) == -25200);
  CHECK(*ParseUtcOffsetS("+0545", &error) == 20700);
  CHECK(*ParseUtcOffsetS("UTC-03:30", &error) == -12600);
  CHECK(*ParseUtcOffsetS("+9", &error) == 32400);
  CHECK(*ParseUtcOffsetS("+14:00", &error) == 50400);
  CHECK(*ParseUtcOffsetS("Z", &error) == 0);
  CHECK(*ParseUtcOffsetS("UTC", &error) == 0);
  for (const char* bad : {"05:30", "+5:3", "+05:20", "+15:00", "-12:30", "+05:30:00", "IST", "+ 5",
                          "+05:60", "--07:00", ""}) {
    INFO(bad);
    error.clear();
    if (std::string(bad).empty()) continue;  // "" is "not given", handled by the caller
    CHECK_FALSE(ParseUtcOffsetS(bad, &error));
    CHECK(error.find("is not a UTC offset") != std::string::npos);
    CHECK(error.find("+HH:MM or -HH:MM") != std::string::npos);
  }
  CHECK(UtcOffsetName(19800) == "UTC+05:30");
  CHECK(UtcOffsetName(-25200) == "UTC-07:00");
}

TEST_CASE("a stated --gpu-utc-offset is used instead of the guess", "[analyzers][gpu][clock]") {
  auto run = [](std::optional<double> offset_s) {
    AnalyzeRequest req;
    req.paths = {test::DataDir() + "/joblogs/nvidia-smi-local-time-small-files"};
    req.options.gpu_utc_offset_s = offset_s;
    return AnalyzePaths(req);
  };
  AnalysisResult stated = run(-7 * 3600.0);
  AnalysisResult guessed = run(std::nullopt);
  int notes = 0;
  for (const auto& d : stated.evidence.diagnostics.kept())
    if (d.code == std::string(codes::kGpuLocalTime)) {
      ++notes;
      CHECK(d.message.find("as --gpu-utc-offset states") != std::string::npos);
      CHECK(d.message.find("UTC-07:00") != std::string::npos);
    }
  CHECK(notes == 2);
  CHECK(*stated.evidence.facts.Number("gpu.lost_mount_gpu_s") ==
        Approx(*guessed.evidence.facts.Number("gpu.lost_mount_gpu_s")));
  // A stated zone is not guessed over, even when it is wrong: UTC leaves the samples hours
  // before the logs, and the GPU time falls before the data runtime started.
  AnalysisResult wrong = run(0.0);
  CHECK(*wrong.evidence.facts.Number("gpu.lost_mount_gpu_s") == 0);
  CHECK(*wrong.evidence.facts.Number("gpu.lost_unknown_gpu_s") > 0);
}
