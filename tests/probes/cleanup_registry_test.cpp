#include "probes/cleanup_registry.h"

#include <catch2/catch.hpp>
#include <stdexcept>
#include <string>

using namespace feedcheck;

TEST_CASE("cleanup actions run newest first, once each", "[probes][cleanup]") {
  CleanupRegistry r;
  std::string order;
  r.Add("a", [&] { order += "a"; });
  auto b = r.Add("b", [&] { order += "b"; });
  r.Add("c", [&] { order += "c"; });
  CHECK(r.pending() == 3);
  r.Remove(b);
  CHECK(r.PendingDescriptions() == std::vector<std::string>{"a", "c"});
  r.RunAll();
  r.RunAll();
  CHECK(order == "ca");
  CHECK(r.pending() == 0);
}

TEST_CASE("a throwing cleanup does not stop the others", "[probes][cleanup]") {
  CleanupRegistry r;
  int ran = 0;
  r.Add("ok", [&] { ++ran; });
  r.Add("throws", [] { throw std::runtime_error("x"); });
  r.Add("ok2", [&] { ++ran; });
  r.RunAll();
  CHECK(ran == 2);
  CHECK(r.failures() == 1);
}

TEST_CASE("a scoped cleanup runs at scope end unless the registry ran it", "[probes][cleanup]") {
  CleanupRegistry r;
  int ran = 0;
  {
    ScopedCleanup s(&r, "x", [&] { ++ran; });
    CHECK(r.pending() == 1);
  }
  CHECK(ran == 1);
  CHECK(r.pending() == 0);
  {
    ScopedCleanup s(&r, "y", [&] { ++ran; });
    r.RunAll();  // e.g. the signal watcher tore down first
    CHECK(ran == 2);
  }
  CHECK(ran == 2);
  {
    ScopedCleanup s(nullptr, "z", [&] { ++ran; });
  }
  CHECK(ran == 3);
}

TEST_CASE("stop requests are visible and resettable", "[probes][cleanup]") {
  ResetStopRequest();
  CHECK_FALSE(StopRequested());
  RequestStop(15);
  CHECK(StopRequested());
  CHECK(StopSignal() == 15);
  ResetStopRequest();
  CHECK_FALSE(StopRequested());
}
