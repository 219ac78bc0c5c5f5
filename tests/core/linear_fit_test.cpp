#include "core/linear_fit.h"

#include <catch2/catch.hpp>

using namespace feedcheck;

TEST_CASE("an exact line is recovered exactly", "[core][fit]") {
  // 2 ms overhead + 1 GB/s: t = 0.002 + size / 1e9, sizes 4 KiB .. 64 MiB.
  std::vector<double> x = {4096, 65536, 1048576, 16777216, 67108864}, y;
  for (double s : x) y.push_back(0.002 + s / 1e9);
  auto fit = FitLine(x, y);
  REQUIRE(fit);
  CHECK(fit->intercept == Approx(0.002).epsilon(1e-9));
  CHECK(fit->slope == Approx(1e-9).epsilon(1e-9));
  CHECK(fit->r_squared == Approx(1.0));
  CHECK(fit->points == 5);
  std::vector<double> w;
  for (double t : y) w.push_back(1 / (t * t));
  auto weighted = FitLine(x, y, w);
  REQUIRE(weighted);
  CHECK(weighted->intercept == Approx(0.002).epsilon(1e-9));
}

TEST_CASE("least squares on a small hand-computed set", "[core][fit]") {
  // Points (0,1) (1,3) (2,4): mean x 1, mean y 8/3, Sxy = 3, Sxx = 2 -> b = 1.5, a = 7/6.
  auto fit = FitLine({0, 1, 2}, {1, 3, 4});
  REQUIRE(fit);
  CHECK(fit->slope == Approx(1.5));
  CHECK(fit->intercept == Approx(7.0 / 6.0));
  // SSE = (1-7/6)^2 + (3-8/3)^2 + (4-25/6)^2 = 1/36 + 4/36 + 1/36 = 1/6; Syy = 14/3.
  CHECK(fit->r_squared == Approx(1.0 - (1.0 / 6.0) / (14.0 / 3.0)));
}

TEST_CASE("weights pull the fit toward heavy points", "[core][fit]") {
  // With the middle point weighted 0 the line goes through the outer two exactly.
  auto fit = FitLine({0, 1, 2}, {0, 5, 2}, {1, 0, 1});
  REQUIRE(fit);
  CHECK(fit->slope == Approx(1.0));
  CHECK(fit->intercept == Approx(0.0).margin(1e-12));
}

TEST_CASE("degenerate inputs give no fit", "[core][fit]") {
  CHECK_FALSE(FitLine({1}, {1}));
  CHECK_FALSE(FitLine({1, 1, 1}, {1, 2, 3}));  // one distinct x
  CHECK_FALSE(FitLine({1, 2}, {1}));
  CHECK_FALSE(FitLine({1, 2}, {1, 2}, {1}));
  CHECK_FALSE(FitLine({1, 2}, {1, 2}, {-1, 1}));
  CHECK_FALSE(FitLine({1, 2}, {1, 2}, {0, 0}));
}
