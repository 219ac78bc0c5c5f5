// Pins the Markdown and JSON shapes of the sample report; numbers are matched loosely (%float).
// To refresh after an intended change: FEEDCHECK_WRITE_OUTPUT=DIR writes the raw outputs there;
// then replace the drifting numbers with %float by hand.
#include "tests/reports/golden.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "reports/reporter.h"
#include "tests/reports/sample_report.h"

using namespace feedcheck;

namespace {

std::string Render(std::string_view format) {
  std::ostringstream out;
  MakeReporter(format)->Render(feedcheck::testing::MakeSampleReport(4), out);
  if (const char* dir = std::getenv("FEEDCHECK_WRITE_OUTPUT")) {
    std::ofstream(std::string(dir) + "/sample." + std::string(format)) << out.str();
  }
  return out.str();
}

void CheckGolden(std::string_view format, const std::string& golden_file) {
  std::string actual = Render(format);
  std::string golden = feedcheck::testing::ReadFileOrEmpty(std::string(FEEDCHECK_SOURCE_DIR) +
                                                           "/tests/reports/golden/" + golden_file);
  REQUIRE_FALSE(golden.empty());
  std::string why;
  bool ok = feedcheck::testing::MatchesGolden(actual, golden, &why);
  INFO(why);
  CHECK(ok);
}

}  // namespace

TEST_CASE("markdown report matches its golden shape", "[reports][golden]") {
  CheckGolden("md", "sample.md");
}

TEST_CASE("json report matches its golden shape", "[reports][golden]") {
  CheckGolden("json", "sample.json");
}

TEST_CASE("golden matcher matches numbers loosely and text exactly", "[reports][golden]") {
  std::string why;
  CHECK(feedcheck::testing::MatchesGolden("rate 119.62 Gbit/s\n", "rate %float Gbit/s\n", &why));
  CHECK(feedcheck::testing::MatchesGolden("rate 1e+09 bit/s\n", "rate %float bit/s\n", &why));
  CHECK_FALSE(
      feedcheck::testing::MatchesGolden("rate 119.6 Mbit/s\n", "rate %float Gbit/s\n", &why));
  CHECK(why.find("line 1") != std::string::npos);
  CHECK_FALSE(feedcheck::testing::MatchesGolden("a\nb\n", "a\n", &why));
  CHECK(feedcheck::testing::MatchesGolden("x (y) [z] *\n", "x (y) [z] *\n", &why));
}
