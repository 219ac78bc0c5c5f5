#include "probes/budget_tracker.h"

#include <catch2/catch.hpp>

using namespace feedcheck;

TEST_CASE("the budget admits requests only while they fit") {
  ProbeBudget b;
  b.max_requests = 3;
  b.max_bytes = 1000;
  b.duration_s = 60;
  BudgetTracker t(b);
  CHECK(t.TryStart(400));
  CHECK(t.TryStart(400));
  CHECK_FALSE(t.TryStart(400));  // would reserve 1200 > 1000
  CHECK(t.stop_reason() == "byte budget reached");
  t.Finish(400, 100);  // the first one got only 100 bytes
  CHECK(t.TryStart(400));
  CHECK_FALSE(t.TryStart(1));  // 3 requests used
  CHECK(t.requests() == 3);
  CHECK(t.bytes() == 100);
}

TEST_CASE("an expired budget admits nothing and caps timeouts") {
  ProbeBudget b;
  b.duration_s = 0.000001;
  BudgetTracker t(b);
  while (!t.Expired()) {
  }
  CHECK_FALSE(t.TryStart(0));
  CHECK(t.stop_reason() == "duration budget reached");
  CHECK(t.RequestTimeout(30) == Approx(0.001));
  CHECK(DescribeBudget(ProbeBudget{}).find("100000 requests") != std::string::npos);
}
