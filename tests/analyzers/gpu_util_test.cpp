#include "analyzers/gpu_util.h"

#include <catch2/catch.hpp>
#include <limits>

#include "test_util.h"

using namespace feedcheck;
using namespace feedcheck::analyzers;
using namespace feedcheck::analyzers::test;

namespace {
Evidence RunGpu(GpuUtilAnalyzer& a, GpuFileFormat f, std::string_view data, std::string name) {
  a.SetNextFile(f, "");
  LineReader r = LineReader::FromBuffer(data);
  std::string error;
  FeedLines(r, name, a, &error);
  Evidence ev;
  a.Finish(&ev);
  return ev;
}
}  // namespace

TEST_CASE("nvidia-smi values with units, N/A markers, header", "[analyzers][gpu]") {
  bool ok = false;
  CHECK(*ParseSmiValue(" 87 %", &ok) == 87);
  CHECK(ok);
  CHECK(*ParseSmiValue("87", &ok) == 87);
  CHECK_FALSE(ParseSmiValue("N/A", &ok));
  CHECK(ok);
  CHECK_FALSE(ParseSmiValue("[N/A]", &ok));
  CHECK(ok);
  CHECK_FALSE(ParseSmiValue("[Not Supported]", &ok));
  CHECK(ok);
  CHECK_FALSE(ParseSmiValue("lots", &ok));
  CHECK_FALSE(ok);
}

TEST_CASE("nvidia-smi CSV with header and units", "[analyzers][gpu]") {
  const char* csv =
      "timestamp, index, name, utilization.gpu [%], memory.used [MiB]\n"
      "2024/05/01 10:00:00.000, 0, NVIDIA A100, 0 %, 3 MiB\n"
      "2024/05/01 10:00:00.001, 1, NVIDIA A100, 5 %, 3 MiB\n"
      "2024/05/01 10:00:10.000, 0, NVIDIA A100, 90 %, 70000 MiB\n"
      "2024/05/01 10:00:10.001, 1, NVIDIA A100, [N/A], 70000 MiB\n"
      "2024/05/01 10:00:20.000, 0, NVIDIA A100, 100 %, 70000 MiB\n"
      "2024/05/01 10:00:20.001, 1, NVIDIA A100, 80 %, 70000 MiB\n"
      "2024/05/01 10:00:30.000, 0, NVIDIA A100, 250 %, 70000 MiB\n";
  AnalyzerOptions opt;
  opt.gpu_busy_threshold_percent = 10;
  GpuUtilAnalyzer a(opt);
  Evidence ev = RunGpu(a, GpuFileFormat::kNvidiaSmiCsv, csv, "smi.csv");
  CHECK(Num(ev, "gpu.count") == 2);
  CHECK(Num(ev, "gpu.samples") == 5);
  CHECK(Num(ev, "gpu.util_mean") == Approx((0 + 5 + 90 + 100 + 80) / 5.0));
  CHECK(Num(ev, "gpu.util_p50") == 80);
  CHECK(Num(ev, "gpu.starved_fraction") == Approx(2.0 / 5));
  CHECK(Num(ev, "gpu.first_busy_s") == Approx(10));
  CHECK(Num(ev, "gpu.util_mean.gpu0") == Approx(190.0 / 3));
  CHECK(a.missing_values() == 1);
  CHECK(a.stats().malformed == 1);  // 250 % is not a percentage
  CHECK(ev.diagnostics.kept()[0].location.line == 8);
  REQUIRE(ev.FindSeries("gpu.util"));
  REQUIRE(ev.FindSeries("gpu.util.gpu1"));
  // starved: the first sample time only (mean 2.5 % < 10 %)
  REQUIRE(ev.timeline.size() == 1);
  CHECK(ev.timeline[0].lane == "gpu");
  CHECK(ev.timeline[0].label == "starved");
  CHECK(ev.timeline[0].end_epoch_s - ev.timeline[0].start_epoch_s == Approx(10));
}

TEST_CASE("nvidia-smi: a row cut short of the header's columns is named, not read",
          "[analyzers][gpu]") {
  // The node went away mid-write: "95 %" became "9", memory.used is gone.
  const char* csv =
      "timestamp, index, name, utilization.gpu [%], memory.used [MiB]\n"
      "2026/04/07 11:19:40.000, 0, NVIDIA A100-SXM4-40GB, 93 %, 35120 MiB\n"
      "2026/04/07 11:19:50.000, 0, NVIDIA A100-SXM4-40GB, [Unknown Error], [Unknown Error]\n"
      "2026/04/07 11:20:00.000, 0, NVIDIA A100-SXM4-40GB, 9";
  GpuUtilAnalyzer a;
  Evidence ev = RunGpu(a, GpuFileFormat::kNvidiaSmiCsv, csv, "nvidia-smi.csv");
  CHECK(Num(ev, "gpu.samples") == 1);
  CHECK(a.missing_values() == 1);  // [Unknown Error]: no sample
  REQUIRE(a.stats().malformed == 1);
  const Diagnostic& d = ev.diagnostics.kept()[0];
  CHECK(d.location.file == "nvidia-smi.csv");
  CHECK(d.location.line == 4);
  CHECK(d.message.find("4 columns, the header has 5: a cut row") != std::string::npos);
  CHECK(d.message.find("last line has no newline") != std::string::npos);
}

TEST_CASE("nvidia-smi CSV without header, nounits", "[analyzers][gpu]") {
  const char* csv =
      "2024/05/01 10:00:00.000, 0, 3\n"
      "2024/05/01 10:00:01.000, 0, 50\n";
  GpuUtilAnalyzer a;
  Evidence ev = RunGpu(a, GpuFileFormat::kNvidiaSmiCsv, csv, "smi.csv");
  CHECK(Num(ev, "gpu.samples") == 2);
  CHECK(Num(ev, "gpu.util_mean") == Approx(26.5));
  GpuUtilAnalyzer b;
  Evidence ev2 = RunGpu(b, GpuFileFormat::kNvidiaSmiCsv, "0, 12\n1, 14\n", "smi2.csv");
  CHECK(Num(ev2, "gpu.count") == 2);
  CHECK(Num(ev2, "gpu.util_mean") == Approx(13));
  CHECK(ev2.timeline.empty());  // no time column: statistics only
}

TEST_CASE("nvidia-smi CSV without header, more columns asked for", "[analyzers][gpu]") {
  // --query-gpu=timestamp,index,name,utilization.gpu,utilization.memory,memory.used
  // --format=csv,noheader: utilization.gpu is the first percentage after the index, and a later
  // "[N/A]" in it does not move the column to utilization.memory.
  const char* csv =
      "2024/05/01 10:00:00.000, 0, NVIDIA A100-SXM4-80GB, 10 %, 70 %, 3 MiB\n"
      "2024/05/01 10:00:01.000, 0, NVIDIA A100-SXM4-80GB, [N/A], 71 %, 3 MiB\n"
      "2024/05/01 10:00:02.000, 0, NVIDIA A100-SXM4-80GB, 30 %, 72 %, 3 MiB\n";
  GpuUtilAnalyzer a;
  Evidence ev = RunGpu(a, GpuFileFormat::kNvidiaSmiCsv, csv, "smi.csv");
  CHECK(Num(ev, "gpu.samples") == 2);
  CHECK(Num(ev, "gpu.util_mean") == Approx(20));
  // without units: the first number after the index (a GPU's name is none)
  GpuUtilAnalyzer b;
  Evidence ev2 = RunGpu(b, GpuFileFormat::kNvidiaSmiCsv,
                        "2024/05/01 10:00:00.000, 1, Tesla T4, 40, 1200\n"
                        "2024/05/01 10:00:01.000, 1, Tesla T4, 60, 1200\n",
                        "smi2.csv");
  CHECK(Num(ev2, "gpu.samples") == 2);
  CHECK(Num(ev2, "gpu.util_mean") == Approx(50));
  // the first row's utilisation missing: its column is still the one after the name, with or
  // without units (never memory.used's)
  for (const char* text : {"2024/05/01 10:00:00.000, 0, Tesla T4, [N/A], 3 MiB\n"
                           "2024/05/01 10:00:01.000, 0, Tesla T4, 80 %, 3 MiB\n",
                           "2024/05/01 10:00:00.000, 0, Tesla T4, [N/A], 3\n"
                           "2024/05/01 10:00:01.000, 0, Tesla T4, 80, 3\n"}) {
    GpuUtilAnalyzer c;
    Evidence ev3 = RunGpu(c, GpuFileFormat::kNvidiaSmiCsv, text, "smi3.csv");
    INFO(text);
    CHECK(Num(ev3, "gpu.samples") == 1);
    CHECK(Num(ev3, "gpu.util_mean") == Approx(80));
  }
}

TEST_CASE("nvidia-smi dmon: sm per GPU, headers reprinted, '-' no value", "[analyzers][gpu]") {
  // `nvidia-smi dmon -s pu -o DT`: date and time, as nvidia-smi's timestamp, without a zone
  const char* text =
      "#Date       Time        gpu   pwr gtemp mtemp    sm   mem   enc   dec\n"
      "#YYYYMMDD   HH:MM:SS    Idx     W     C     C     %     %     %     %\n"
      " 20240501   10:00:00      0    37    19     -     0     0     0     0\n"
      " 20240501   10:00:00      1    37    19     -    90     0     0     0\n"
      " 20240501   10:00:01      0    37    19     -    20     0     0     0\n"
      " 20240501   10:00:01      1    37    19     -     -     0     0     0\n"
      "#Date       Time        gpu   pwr gtemp mtemp    sm   mem   enc   dec\n"
      "#YYYYMMDD   HH:MM:SS    Idx     W     C     C     %     %     %     %\n"
      " 20240501   10:00:02      0    37    19     -    40     0     0     0\n"
      " 20240501   10:00:02      1    37    19\n";  // cut by the node going away
  GpuUtilAnalyzer a;
  Evidence ev = RunGpu(a, GpuFileFormat::kNvidiaSmiCsv, text, "dmon.log");
  CHECK(Num(ev, "gpu.count") == 2);
  CHECK(Num(ev, "gpu.samples") == 4);
  CHECK(Num(ev, "gpu.util_mean") == Approx(37.5));
  CHECK(a.stats().malformed == 1);
  CHECK(ev.facts.Has("gpu.span_s"));  // timed: the samples' span is known
  // without -o: no time column, statistics only
  GpuUtilAnalyzer b;
  Evidence ev2 = RunGpu(b, GpuFileFormat::kNvidiaSmiCsv,
                        "# gpu    sm   mem   enc   dec\n# Idx     %     %     %     %\n"
                        "    0    80    45     0     0\n    0    60    45     0     0\n",
                        "dmon2.log");
  CHECK(Num(ev2, "gpu.samples") == 2);
  CHECK(Num(ev2, "gpu.util_mean") == Approx(70));
  CHECK_FALSE(ev2.facts.Has("gpu.span_s"));
}

TEST_CASE("the busy threshold is an option", "[analyzers][gpu]") {
  const char* csv = "index, utilization.gpu [%]\n0, 20\n0, 40\n0, 60\n0, 80\n";
  AnalyzerOptions opt;
  opt.gpu_busy_threshold_percent = 50;
  GpuUtilAnalyzer a(opt);
  Evidence ev = RunGpu(a, GpuFileFormat::kNvidiaSmiCsv, csv, "smi.csv");
  CHECK(Num(ev, "gpu.starved_fraction") == Approx(0.5));
  CHECK(Num(ev, "gpu.busy_threshold_percent") == 50);
}

TEST_CASE("DCGM exporter text: GPU_UTIL lines, sentinels, comment timestamps", "[analyzers][gpu]") {
  const char* text =
      "# 2024-05-01T10:00:00Z\n"
      "# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).\n"
      "# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n"
      "DCGM_FI_DEV_SM_CLOCK{gpu=\"0\",Hostname=\"n1\"} 1410\n"
      "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-a\",Hostname=\"n1\",modelName=\"A100 {x}\"} 87\n"
      "DCGM_FI_DEV_GPU_UTIL{gpu=\"1\",UUID=\"GPU-b\",Hostname=\"n1\"} 9223372036854775794\n"
      "DCGM_FI_DEV_GPU_UTIL{gpu=\"1\",UUID=\"GPU-b\",Hostname=\"n1\"} 3 1714557630000\n"
      "DCGM_FI_DEV_GPU_UTIL{gpu=\"1\",Hostname=\"n1\" 3\n"
      "DCGM_FI_DEV_GPU_UTIL_EXTRA{gpu=\"1\"} 3\n";
  GpuUtilAnalyzer a;
  Evidence ev = RunGpu(a, GpuFileFormat::kDcgmText, text, "dcgm.txt");
  CHECK(Num(ev, "gpu.samples") == 2);
  CHECK(Num(ev, "gpu.util_mean.n1_gpu0") == 87);
  CHECK(Num(ev, "gpu.util_mean.n1_gpu1") == 3);
  CHECK(a.missing_values() == 1);  // the blank sentinel
  CHECK(a.stats().malformed == 1);
  CHECK(ev.diagnostics.kept()[0].location.line == 8);
  REQUIRE(a.first_sample_epoch_s());
  CHECK(*a.first_sample_epoch_s() == Approx(1714557600));  // 2024-05-01T10:00:00Z
}

TEST_CASE("DCGM: a timestamp past any clock is named, and the samples around it still count",
          "[analyzers][gpu]") {
  // From a fuzzer: two samples 1e6 s apart near 1e21 s. The ledger's buckets stay narrow for
  // so short a stretch, and a bucket index near 1e19 does not fit an int64.
  const char* text =
      "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",Hostname=\"n1\"} 90 1714557600000\n"
      "DCGM_FI_DEV_GPU_UTIL{gpu=\"1\",Hostname=\"n1\"} 5 1000000000000000000000000\n"
      "DCGM_FI_DEV_GPU_UTIL{gpu=\"1\",Hostname=\"n1\"} 5 1000000000000001000000000\n"
      "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",Hostname=\"n1\"} 5 1714557610000\n"
      "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",Hostname=\"n1\"} 5 1714557620000\n";
  GpuUtilAnalyzer a;
  Evidence ev = RunGpu(a, GpuFileFormat::kDcgmText, text, "dcgm.txt");
  CHECK(a.stats().malformed == 2);
  REQUIRE(ev.diagnostics.kept().size() >= 2);
  CHECK(ev.diagnostics.kept()[0].location.line == 2);
  CHECK(ev.diagnostics.kept()[1].location.line == 3);
  CHECK(ev.diagnostics.kept()[0].message.find("not a time") != std::string::npos);
  CHECK(Num(ev, "gpu.samples") == 3);
  CHECK(Num(ev, "gpu.sampled_gpu_s") == Approx(30));  // the last sample covers one interval too
  CHECK(Num(ev, "gpu.lost_gpu_s") == Approx(20));
  // The last seconds of the year 9999 are still a time (the dates of other formats reach it).
  const char* late =
      "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",Hostname=\"n1\"} 90 253402300780000\n"
      "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",Hostname=\"n1\"} 90 253402300790000\n"
      "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",Hostname=\"n1\"} 5 253402300800000\n";
  GpuUtilAnalyzer b;
  Evidence last = RunGpu(b, GpuFileFormat::kDcgmText, late, "late.txt");
  CHECK(b.stats().malformed == 1);  // 10000-01-01T00:00:00Z
  CHECK(Num(last, "gpu.sampled_gpu_s") == Approx(20));
}

TEST_CASE("the percent histogram: bins of half a percent, ends clamped, NaN no sample",
          "[analyzers][gpu]") {
  PercentHistogram h;
  h.Add(50.25);
  h.Add(-3);   // clamped to 0
  h.Add(250);  // clamped to 100
  h.Add(std::numeric_limits<double>::quiet_NaN());
  CHECK(h.count() == 3);
  CHECK(h.CountBelow(1) == 1);
  CHECK(h.CountBelow(100) == 2);
  CHECK(h.mean() == Approx((50.25 + 0 + 100) / 3));
}

TEST_CASE("DCGM on MIG: each instance's engine activity is a GPU of its own", "[analyzers][gpu]") {
  // With MIG on, dcgm-exporter has no DCGM_FI_DEV_GPU_UTIL for an instance: the graphics
  // engine's active ratio (0..1) per GPU_I_ID stands in. Without GPU_I_ID (a whole GPU that
  // also reports GPU_UTIL) the ratio is not read, so nothing is counted twice.
  const char* text =
      "# 2024-05-01T10:00:00Z\n"
      "DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu=\"0\",GPU_I_PROFILE=\"3g.40gb\",GPU_I_ID=\"1\","
      "Hostname=\"n1\"} 0.870000\n"
      "DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu=\"0\",GPU_I_PROFILE=\"3g.40gb\",GPU_I_ID=\"2\","
      "Hostname=\"n1\"} 0.010000\n"
      "DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu=\"1\",Hostname=\"n1\"} 0.5\n"
      "DCGM_FI_DEV_GPU_UTIL{gpu=\"1\",Hostname=\"n1\"} 40\n"
      "DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu=\"0\",GPU_I_ID=\"1\",Hostname=\"n1\"} 1.7\n";
  GpuUtilAnalyzer a;
  Evidence ev = RunGpu(a, GpuFileFormat::kDcgmText, text, "dcgm-mig.txt");
  CHECK(Num(ev, "gpu.samples") == 3);
  CHECK(Num(ev, "gpu.util_mean.n1_gpu0i1") == Approx(87));
  CHECK(Num(ev, "gpu.util_mean.n1_gpu0i2") == Approx(1));
  CHECK(Num(ev, "gpu.util_mean.n1_gpu1") == 40);
  CHECK(a.stats().malformed == 1);  // a ratio above 1
  CHECK(ev.diagnostics.kept()[0].location.line == 6);
}
