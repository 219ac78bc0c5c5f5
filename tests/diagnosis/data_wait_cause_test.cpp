// Why a training loop waited for data: the classification over every combination of its inputs,
// and what the data runtime's facts say of storage.
#include "diagnosis/data_wait_cause.h"

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <optional>

namespace fd = feedcheck::diagnosis;
using feedcheck::FactOrigin;
using feedcheck::FactSet;
using feedcheck::NumberFact;
using feedcheck::Provenance;
using feedcheck::Unit;

TEST_CASE("data wait: every combination gets the cause its evidence supports", "[data_wait]") {
  const double wait = GENERATE(0.0, 0.05, 0.19, 0.2, 0.5, 0.85, 1.0);
  const fd::StorageSpeed storage = GENERATE(fd::StorageSpeed::kUnknown, fd::StorageSpeed::kFast,
                                            fd::StorageSpeed::kSlowOrRefusing);
  const int cpu = GENERATE(-1, 0, 1);  // not recorded, not busy, busy
  fd::DataWaitInputs in;
  in.loader_wait_fraction = wait;
  in.storage = storage;
  if (cpu >= 0) in.cpu_busy = cpu == 1;
  fd::DataWaitVerdict v = fd::ClassifyDataWait(in);
  CAPTURE(wait, static_cast<int>(storage), cpu, v.text);
  CHECK(v.key == fd::DataWaitCauseKey(v.cause));
  if (wait < fd::kLoaderWaitFraction) {
    CHECK(v.cause == fd::DataWaitCause::kNotInput);
    CHECK(v.text.rfind("not input", 0) == 0);
  } else if (storage == fd::StorageSpeed::kSlowOrRefusing) {
    CHECK(v.cause == fd::DataWaitCause::kStorage);
  } else if ((storage == fd::StorageSpeed::kFast && cpu != 0) ||
             (storage == fd::StorageSpeed::kUnknown && cpu == 1)) {
    CHECK(v.cause == fd::DataWaitCause::kInputPipeline);
    CHECK(v.text.find("num_workers") != std::string::npos);
    CHECK(v.text.find("decode") != std::string::npos);
  } else {
    CHECK(v.cause == fd::DataWaitCause::kCauseNotShown);
    CHECK(v.text.rfind("waited for data, cause not shown", 0) == 0);
  }
  // The share is said as a percentage, whatever the cause.
  CHECK(v.text.find(fmt::format("{:.0f}%", 100 * wait)) != std::string::npos);
}

TEST_CASE("data wait: storage is slow when refused or slow to read, fast when read fast",
          "[data_wait]") {
  Provenance p;
  p.origin = FactOrigin::kObserved;
  std::string why;
  FactSet none;
  CHECK(fd::StorageSpeedOf(none, &why) == fd::StorageSpeed::kUnknown);
  const double read_ms = GENERATE(0.2, 10.0, 49.0, 50.0, 400.0);
  FactSet reads;
  reads.Set(NumberFact("runtime.reads", 120, Unit::kCount, p));
  reads.Set(NumberFact("runtime.read_ms_mean", read_ms, Unit::kMilliseconds, p));
  CHECK(fd::StorageSpeedOf(reads, &why) ==
        (read_ms >= fd::kSlowReadMs ? fd::StorageSpeed::kSlowOrRefusing : fd::StorageSpeed::kFast));
  CHECK(why.find("120 reads") != std::string::npos);
  // Any refusal makes fast reads slow-or-refusing.
  const char* refusal = GENERATE("runtime.throttled.egress", "runtime.http_errors.503",
                                 "runtime.retry_give_ups", "runtime.timeouts");
  FactSet refused = reads;
  refused.Set(NumberFact(refusal, 3, Unit::kCount, p));
  CHECK(fd::StorageSpeedOf(refused, &why) == fd::StorageSpeed::kSlowOrRefusing);
  CHECK(why.find("3 ") != std::string::npos);
}

TEST_CASE("data wait: the CPU of the node a trace ran on", "[data_wait]") {
  Provenance p;
  p.origin = FactOrigin::kObserved;
  const double a = GENERATE(5.0, 84.9, 85.0, 99.0);
  FactSet none;
  CHECK_FALSE(fd::NodeCpuPercentOf(none, "node-1", true));
  // The metric names the node as the folder does: that node's, whatever else is there.
  FactSet named;
  named.Set(NumberFact("cpu.node_util_mean.node-1", a, Unit::kPercent, p));
  named.Set(NumberFact("cpu.node_util_mean.node-2", 100 - a, Unit::kPercent, p));
  CHECK(fd::NodeCpuPercentOf(named, "node-1", false) == a);
  CHECK(fd::NodeCpuPercentOf(named, "node-2", false) == 100 - a);
  // Two nodes the folder does not name: not guessed.
  CHECK_FALSE(fd::NodeCpuPercentOf(named, "node-3", false));
  CHECK_FALSE(fd::NodeCpuPercentOf(named, "node-3", true));
  // One node in the metric (Azure ML's NodeId) and the traces on one node: that one.
  FactSet one;
  one.Set(NumberFact("cpu.node_util_mean.tvmps_0a_d", a, Unit::kPercent, p));
  one.Set(NumberFact("cpu.util_mean", a, Unit::kPercent, p));
  CHECK(fd::NodeCpuPercentOf(one, "node-1", true) == a);
  CHECK_FALSE(fd::NodeCpuPercentOf(one, "node-1", false));
  // An unsplit series: the job's nodes together, for a one-node job.
  FactSet unsplit;
  unsplit.Set(NumberFact("cpu.util_mean", a, Unit::kPercent, p));
  CHECK(fd::NodeCpuPercentOf(unsplit, "", true) == a);
  CHECK_FALSE(fd::NodeCpuPercentOf(unsplit, "node-1", false));
  // What busy means for the verdict: with the reads fast, busy is the input pipeline.
  fd::DataWaitInputs in;
  in.loader_wait_fraction = 0.84;
  in.storage = fd::StorageSpeed::kFast;
  in.cpu_busy = a >= fd::kCpuBusyPercent;
  CHECK((fd::ClassifyDataWait(in).cause == fd::DataWaitCause::kInputPipeline) ==
        (a >= fd::kCpuBusyPercent));
}
