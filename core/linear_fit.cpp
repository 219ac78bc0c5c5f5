#include "core/linear_fit.h"

#include <cmath>

namespace feedcheck {

std::optional<LineFit> FitLine(const std::vector<double>& x, const std::vector<double>& y,
                               const std::vector<double>& weights) {
  if (x.size() != y.size() || x.size() < 2) return std::nullopt;
  if (!weights.empty() && weights.size() != x.size()) return std::nullopt;
  double sw = 0, sx = 0, sy = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    double w = weights.empty() ? 1.0 : weights[i];
    if (!std::isfinite(w) || w < 0 || !std::isfinite(x[i]) || !std::isfinite(y[i]))
      return std::nullopt;
    sw += w;
    sx += w * x[i];
    sy += w * y[i];
  }
  if (sw <= 0) return std::nullopt;
  // Centre on the weighted means first: sums of squares of raw byte counts (up to 2^26) would
  // lose precision otherwise.
  double mx = sx / sw, my = sy / sw;
  double sxx = 0, sxy = 0, syy = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    double w = weights.empty() ? 1.0 : weights[i];
    double dx = x[i] - mx, dy = y[i] - my;
    sxx += w * dx * dx;
    sxy += w * dx * dy;
    syy += w * dy * dy;
  }
  if (sxx <= 0) return std::nullopt;
  LineFit fit;
  fit.slope = sxy / sxx;
  fit.intercept = my - fit.slope * mx;
  fit.points = x.size();
  double sse = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    double w = weights.empty() ? 1.0 : weights[i];
    double r = y[i] - fit.intercept - fit.slope * x[i];
    sse += w * r * r;
  }
  fit.r_squared = syy > 0 ? 1.0 - sse / syy : 1.0;
  return fit;
}

}  // namespace feedcheck
