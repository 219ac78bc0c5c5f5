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
  } else if (storage == fd::StorageSpeed::kFast && cpu != 0) {
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
