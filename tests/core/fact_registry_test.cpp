#include "core/fact_registry.h"

#include <catch2/catch.hpp>
#include <set>

using namespace feedcheck;

TEST_CASE("registry knows the design vocabulary and families", "[core][facts]") {
  const auto& reg = FactRegistry::Builtin();
  REQUIRE(reg.Find("probe.latency.ttfb_p50_ms"));
  CHECK(reg.Find("probe.latency.ttfb_p50_ms")->unit == Unit::kMilliseconds);
  CHECK(reg.Find("node.nic_gbps")->unit == Unit::kGbps);
  REQUIRE(reg.Find("runtime.http_errors.503"));
  CHECK(reg.Find("runtime.setting.RSLEX_DOWNLOADER_THREADS"));
  CHECK(reg.Find("metrics.throttled.ServerBusyError"));
  CHECK_FALSE(reg.Find("runtime.http_errors"));
  CHECK_FALSE(reg.Find("runtime.http_errors.503.x"));
  CHECK_FALSE(reg.Find("probe.latency.ttfb_p50"));
}

TEST_CASE("registry suggests near misses", "[core][facts]") {
  auto s = FactRegistry::Builtin().Suggest("probe.latency.ttfb_p5O_ms");
  REQUIRE_FALSE(s.empty());
  CHECK(s.front() == "probe.latency.ttfb_p50_ms");
}

TEST_CASE("registry keys are unique", "[core][facts]") {
  std::set<std::string_view> seen;
  for (const auto& spec : FactRegistry::Builtin().all()) {
    INFO(spec.key);
    CHECK(seen.insert(spec.key).second);
    CHECK_FALSE(spec.description.empty());
  }
}
