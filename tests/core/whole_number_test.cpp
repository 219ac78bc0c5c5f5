#include "core/whole_number.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>

using namespace feedcheck;

TEST_CASE("whole numbers from doubles: in range truncated, out of range refused", "[core]") {
  CHECK(WholeNumber<int>(12.0) == 12);
  CHECK(WholeNumber<int>(2.9) == 2);
  CHECK(WholeNumber<int>(-2.9) == -2);
  CHECK(WholeNumber<int>(2147483647.0) == 2147483647);
  CHECK_FALSE(WholeNumber<int>(2147483648.0));
  CHECK(WholeNumber<int>(-2147483648.0) == std::numeric_limits<int>::min());
  CHECK_FALSE(WholeNumber<int>(-2147483649.0));
  CHECK_FALSE(WholeNumber<int>(1e300));
  CHECK_FALSE(WholeNumber<int>(std::numeric_limits<double>::quiet_NaN()));
  CHECK_FALSE(WholeNumber<int>(std::numeric_limits<double>::infinity()));
  // 2^63 is exact as a double and one past int64's largest value.
  CHECK_FALSE(WholeNumber<int64_t>(9223372036854775808.0));
  CHECK(WholeNumber<int64_t>(9223372036854774784.0) == INT64_C(9223372036854774784));
  CHECK_FALSE(WholeNumber<uint64_t>(-1.0));
  CHECK(WholeNumber<uint64_t>(-0.5) == 0u);  // truncated toward zero first
  CHECK_FALSE(WholeNumber<uint64_t>(18446744073709551616.0));
}

TEST_CASE("whole numbers clamped: the type's ends instead of nothing", "[core]") {
  CHECK(WholeNumberClamped<uint64_t>(1e300, 7) == std::numeric_limits<uint64_t>::max());
  CHECK(WholeNumberClamped<uint64_t>(-5, 7) == 0u);
  CHECK(WholeNumberClamped<int>(-1e300, 7) == std::numeric_limits<int>::min());
  CHECK(WholeNumberClamped<int>(std::numeric_limits<double>::quiet_NaN(), 7) == 7);
  CHECK(WholeNumberClamped<int>(41.7, 7) == 41);
}
