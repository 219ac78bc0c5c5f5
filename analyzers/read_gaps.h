// The gaps between a data runtime's read span closes, in bounded memory: how long its ordinary
// gaps are (a log-binned histogram, for their quartiles) and the silences that stand out from
// them (beyond Tukey's far fence: the third quartile plus three interquartile ranges).
//
// A loader that waits for storage keeps reading, so its closes come at a steady pace; a silence
// far beyond that pace means nothing was asked for then. The diagnosis weighs such a silence
// beside the GPUs (a stop of the job's own code, or a cache that served the reads).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace feedcheck::analyzers {

class ReadGaps {
 public:
  /// A gap shorter than this is never a silence worth keeping (shorter than a GPU sample).
  static constexpr double kMinSilenceS = 10;
  /// The fence is only worked out over at least this many gaps.
  static constexpr uint64_t kMinGaps = 8;
  /// At most this many candidate silences are kept (the longest).
  static constexpr size_t kMaxSilences = 4096;

  /// A close at `epoch_s`. Closes come in time order within one stream; one that goes back
  /// more than a second (another node's file, read after this one) ends the record: gaps
  /// across two streams mean nothing.
  void Add(double epoch_s);

  struct Silence {
    double start_s = 0, end_s = 0;
  };
  /// Tukey's far fence over the gaps, in seconds (and over the gaps of kMinSilenceS or more,
  /// when there are enough: the larger); none with fewer than kMinGaps gaps or after the
  /// streams interleaved.
  std::optional<double> FenceS() const;
  /// The silences beyond the fence (and kMinSilenceS), in time order.
  std::vector<Silence> Silences() const;
  /// The last close.
  std::optional<double> LastS() const;

 private:
  // Tukey's far fence over the gaps in bins `first_bin` on; none over fewer than kMinGaps.
  std::optional<double> FenceFrom(size_t first_bin) const;
  static size_t BinOf(double gap_s);

  static constexpr double kFenceIqr = 3;
  // Bins of a gap's log2 at eight per doubling, from 1 ms to about 25 days.
  static constexpr int kBinsPerDoubling = 8;
  static constexpr double kFirstBinS = 1e-3;
  static constexpr size_t kBins = 8 * 31;
  std::array<uint64_t, kBins> bins_{};
  std::optional<double> last_s_;
  bool interleaved_ = false;
  std::vector<Silence> silences_;  // a min-heap on length once full
};

}  // namespace feedcheck::analyzers
