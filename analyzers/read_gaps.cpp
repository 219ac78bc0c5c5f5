#include "analyzers/read_gaps.h"

#include <algorithm>
#include <cmath>

namespace feedcheck::analyzers {

namespace {

bool Longer(const ReadGaps::Silence& a, const ReadGaps::Silence& b) {
  return a.end_s - a.start_s > b.end_s - b.start_s;
}

}  // namespace

void ReadGaps::Add(double epoch_s) {
  if (!std::isfinite(epoch_s) || interleaved_) return;
  if (!last_s_) {
    last_s_ = epoch_s;
    return;
  }
  if (epoch_s < *last_s_ - 1) {
    interleaved_ = true;
    silences_.clear();
    return;
  }
  const double gap = epoch_s - *last_s_;
  if (gap <= 0) return;  // closes in the same instant: one read's pieces
  const Silence s{*last_s_, epoch_s};
  last_s_ = epoch_s;
  bins_[BinOf(gap)] += 1;
  if (gap < kMinSilenceS) return;
  if (silences_.size() < kMaxSilences) {
    silences_.push_back(s);
    if (silences_.size() == kMaxSilences)
      std::make_heap(silences_.begin(), silences_.end(), Longer);
  } else if (Longer(s, silences_.front())) {
    std::pop_heap(silences_.begin(), silences_.end(), Longer);
    silences_.back() = s;
    std::push_heap(silences_.begin(), silences_.end(), Longer);
  }
}

size_t ReadGaps::BinOf(double gap_s) {
  const double bin =
      std::floor(std::log2(std::max(gap_s, kFirstBinS) / kFirstBinS) * kBinsPerDoubling);
  return static_cast<size_t>(std::clamp(bin, 0.0, static_cast<double>(kBins - 1)));
}

std::optional<double> ReadGaps::FenceFrom(size_t first_bin) const {
  double count = 0;
  for (size_t i = first_bin; i < kBins; ++i) count += static_cast<double>(bins_[i]);
  if (count < static_cast<double>(kMinGaps)) return std::nullopt;
  auto quantile = [&](double q) {
    double seen = 0;
    for (size_t i = first_bin; i < kBins; ++i) {
      seen += static_cast<double>(bins_[i]);
      if (seen >= q * count && bins_[i] > 0)  // the bin's upper edge: a fence errs long
        return kFirstBinS * std::exp2(static_cast<double>(i + 1) / kBinsPerDoubling);
    }
    return kFirstBinS * std::exp2(static_cast<double>(kBins) / kBinsPerDoubling);
  };
  const double q1 = quantile(0.25), q3 = quantile(0.75);
  return q3 + kFenceIqr * (q3 - q1);
}

std::optional<double> ReadGaps::FenceS() const {
  if (interleaved_) return std::nullopt;
  auto fence = FenceFrom(0);
  if (!fence) return std::nullopt;
  // Reads that close in bursts (requests in flight together, all waiting on one slow answer)
  // leave many tiny gaps and a long one each round: the long ones are then the node's
  // ordinary pace, and a silence must stand out from them too.
  if (auto long_gaps = FenceFrom(BinOf(kMinSilenceS))) fence = std::max(*fence, *long_gaps);
  return fence;
}

std::vector<ReadGaps::Silence> ReadGaps::Silences() const {
  std::vector<Silence> out;
  const auto fence = FenceS();
  if (!fence) return out;
  for (const auto& s : silences_)
    if (s.end_s - s.start_s > std::max(*fence, kMinSilenceS)) out.push_back(s);
  std::sort(out.begin(), out.end(),
            [](const Silence& a, const Silence& b) { return a.start_s < b.start_s; });
  return out;
}

std::optional<double> ReadGaps::LastS() const {
  if (interleaved_) return std::nullopt;
  return last_s_;
}

}  // namespace feedcheck::analyzers
