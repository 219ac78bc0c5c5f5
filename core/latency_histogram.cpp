#include "core/latency_histogram.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>

#include "core/json_input.h"
#include "core/whole_number.h"

namespace feedcheck {

LatencyHistogram::LatencyHistogram() : chunks_(kChunkCount) {}

// The bucket layout is chunk-aligned: bucket i is entry i % 1024 of chunk i / 1024 (chunk 0 the
// linear range below 1024 ns, chunk 1 + k the power of two 2^(10 + k)).
static_assert(LatencyHistogram::kBucketCount % LatencyHistogram::kSubBuckets == 0);

uint64_t& LatencyHistogram::Slot(size_t index) {
  std::vector<uint64_t>& chunk = chunks_[index / kSubBuckets];
  if (chunk.empty()) chunk.assign(kSubBuckets, 0);
  return chunk[index % kSubBuckets];
}

uint64_t LatencyHistogram::CountAt(size_t index) const {
  const std::vector<uint64_t>& chunk = chunks_[index / kSubBuckets];
  return chunk.empty() ? 0 : chunk[index % kSubBuckets];
}

size_t LatencyHistogram::chunks_in_use() const {
  return static_cast<size_t>(
      std::count_if(chunks_.begin(), chunks_.end(), [](const auto& c) { return !c.empty(); }));
}

std::vector<uint64_t> LatencyHistogram::counts() const {
  std::vector<uint64_t> dense(kBucketCount, 0);
  for (size_t c = 0; c < kChunkCount; ++c)
    if (!chunks_[c].empty())
      std::copy(chunks_[c].begin(), chunks_[c].end(), &dense[c * kSubBuckets]);
  return dense;
}

namespace {

// The log-linear layout for `bits` sub-bucket bits: values below 2^bits have a bucket each;
// above, [2^e, 2^(e+1)) is split into 2^bits buckets of width 2^(e-bits).
size_t IndexFor(uint64_t v, int bits, int max_exponent, size_t bucket_count) {
  const uint64_t sub_buckets = uint64_t{1} << bits;
  if (v < sub_buckets) return static_cast<size_t>(v);
  int exponent = static_cast<int>(std::bit_width(v)) - 1;  // v in [2^exponent, 2^(exponent+1))
  if (exponent > max_exponent) return bucket_count - 1;
  int shift = exponent - bits;
  size_t sub = static_cast<size_t>((v >> shift) - sub_buckets);
  return static_cast<size_t>(sub_buckets + static_cast<uint64_t>(shift) * sub_buckets + sub);
}

double MidFor(size_t index, int bits) {
  const size_t sub_buckets = size_t{1} << bits;
  if (index < sub_buckets) return static_cast<double>(index);
  size_t shift = (index - sub_buckets) / sub_buckets;
  size_t sub = (index - sub_buckets) % sub_buckets;
  double width = std::ldexp(1.0, static_cast<int>(shift));
  double low = static_cast<double>(sub_buckets + sub) * width;
  // Width-1 buckets hold one integer value: that value, not a half-way point.
  return width > 1 ? low + width / 2 : low;
}

constexpr size_t LegacyBucketCount() {
  constexpr size_t sub = size_t{1} << LatencyHistogram::kLegacySubBucketBits;
  return sub + static_cast<size_t>(LatencyHistogram::kMaxExponent -
                                   LatencyHistogram::kLegacySubBucketBits + 1) *
                   sub;
}

}  // namespace

size_t LatencyHistogram::BucketIndex(uint64_t v) {
  return IndexFor(v, kSubBucketBits, kMaxExponent, kBucketCount);
}

double LatencyHistogram::BucketMidNanos(size_t index) { return MidFor(index, kSubBucketBits); }

void LatencyHistogram::RecordSeconds(double seconds) {
  if (!(seconds > 0)) seconds = 0;
  double ns = std::min(seconds * 1e9, std::ldexp(1.0, 62));
  RecordNanos(static_cast<uint64_t>(std::llround(ns)));
}

void LatencyHistogram::RecordNanos(uint64_t nanos) {
  ++Slot(BucketIndex(nanos));
  if (count_ == 0 || nanos < min_ns_) min_ns_ = nanos;
  if (count_ == 0 || nanos > max_ns_) max_ns_ = nanos;
  ++count_;
  sum_ns_ += static_cast<double>(nanos);
}

void LatencyHistogram::Merge(const LatencyHistogram& other) {
  if (other.count_ == 0) return;
  for (size_t c = 0; c < kChunkCount; ++c) {
    const std::vector<uint64_t>& theirs = other.chunks_[c];
    if (theirs.empty()) continue;
    std::vector<uint64_t>& mine = chunks_[c];
    if (mine.empty()) mine.assign(kSubBuckets, 0);
    for (size_t i = 0; i < kSubBuckets; ++i) mine[i] += theirs[i];
  }
  if (count_ == 0 || other.min_ns_ < min_ns_) min_ns_ = other.min_ns_;
  if (count_ == 0 || other.max_ns_ > max_ns_) max_ns_ = other.max_ns_;
  count_ += other.count_;
  sum_ns_ += other.sum_ns_;
}

double LatencyHistogram::PercentileSeconds(double q) const {
  if (count_ == 0) return 0;
  q = std::clamp(q, 0.0, 1.0);
  uint64_t rank = static_cast<uint64_t>(std::ceil(q * static_cast<double>(count_)));
  rank = std::clamp<uint64_t>(rank, 1, count_);
  if (rank == count_) return static_cast<double>(max_ns_) / 1e9;  // the maximum is exact
  uint64_t seen = 0;
  for (size_t i = 0; i < kBucketCount; ++i) {
    if (chunks_[i / kSubBuckets].empty()) {
      i += kSubBuckets - 1;  // a whole power of two with nothing in it
      continue;
    }
    seen += CountAt(i);
    if (seen >= rank) {
      double mid =
          std::clamp(BucketMidNanos(i), static_cast<double>(min_ns_), static_cast<double>(max_ns_));
      return mid / 1e9;
    }
  }
  return static_cast<double>(max_ns_) / 1e9;
}

std::optional<LatencyHistogram> LatencyHistogram::FromCounts(const std::vector<uint64_t>& counts,
                                                             uint64_t min_ns, uint64_t max_ns,
                                                             double sum_ns) {
  if (counts.size() != kBucketCount) return std::nullopt;
  LatencyHistogram h;
  for (size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] == 0) continue;
    h.Slot(i) = counts[i];
    h.count_ += counts[i];
  }
  if (h.count_ && min_ns > max_ns) return std::nullopt;
  h.min_ns_ = h.count_ ? min_ns : 0;
  h.max_ns_ = h.count_ ? max_ns : 0;
  h.sum_ns_ = h.count_ ? sum_ns : 0;
  return h;
}

nlohmann::json LatencyHistogram::ToJson() const {
  nlohmann::json buckets = nlohmann::json::array();
  for (size_t i = 0; i < kBucketCount; ++i)
    if (uint64_t c = CountAt(i)) buckets.push_back({i, c});
  return {{"unit", "ns"},      {"sub_bucket_bits", kSubBucketBits},
          {"count", count_},   {"min", min_ns_},
          {"max", max_ns_},    {"sum", sum_ns_},
          {"buckets", buckets}};
}

std::optional<LatencyHistogram> LatencyHistogram::FromJson(const nlohmann::json& json,
                                                           std::string* error) {
  auto fail = [&](const std::string& m) -> std::optional<LatencyHistogram> {
    if (error) *error = m;
    return std::nullopt;
  };
  if (!json.is_object()) return fail("histogram: not an object");
  // Read the checked way (core/json_input); what it finds wrong is said through `fail`.
  DiagnosticList diags;
  const JsonSource source{"histogram", "", &diags};
  const JsonField in = JsonField::Root(json, source);
  const int64_t bits =
      in["sub_bucket_bits"].is_number() ? in["sub_bucket_bits"].WholeOr(-1, 0, 64) : -1;
  if (in["unit"].StringOr("") != "ns" || (bits != kSubBucketBits && bits != kLegacySubBucketBits))
    return fail(fmt::format("histogram: unit must be \"ns\" with sub_bucket_bits {} (or {})",
                            kSubBucketBits, kLegacySubBucketBits));
  const bool legacy = bits == kLegacySubBucketBits;
  const size_t count_in_file = legacy ? LegacyBucketCount() : kBucketCount;
  if (!in["buckets"].is_array())
    return fail("histogram: \"buckets\" must be an array of [index, count]");
  std::vector<uint64_t> counts(kBucketCount, 0);
  constexpr int64_t kMaxCount = std::numeric_limits<int64_t>::max();
  for (const JsonField& b : in["buckets"].Elements()) {
    const bool pair = b.is_array() && b.size() == 2 && b[0].is_number() && b[1].is_number();
    auto index_in = pair ? b[0].Whole(0, kMaxCount) : std::nullopt;
    auto count = pair ? b[1].Whole(0, kMaxCount) : std::nullopt;
    if (!index_in || !count)
      return fail("histogram: bucket entries must be [index, count] with unsigned numbers");
    auto index = static_cast<uint64_t>(*index_in);
    if (index >= count_in_file) return fail("histogram: bucket index out of range");
    if (legacy) {
      double mid = MidFor(static_cast<size_t>(index), kLegacySubBucketBits);
      index = BucketIndex(static_cast<uint64_t>(std::llround(mid)));
    }
    // Saturates: a forged count cannot wrap the total around to a small one.
    const auto add = static_cast<uint64_t>(*count);
    counts[index] = counts[index] > UINT64_MAX - add ? UINT64_MAX : counts[index] + add;
  }
  auto number = [&](const char* key) -> std::optional<double> {
    return in[key].is_number() ? in[key].Number() : std::nullopt;
  };
  auto mn = number("min"), mx = number("max"), sum = number("sum");
  if (!mn || !mx || !sum || *mn < 0 || *mx < 0) return fail("histogram: min/max/sum missing");
  auto h = FromCounts(counts, WholeNumberClamped<uint64_t>(*mn, 0),
                      WholeNumberClamped<uint64_t>(*mx, 0), *sum);
  if (!h) return fail("histogram: min is larger than max");
  return h;
}

}  // namespace feedcheck
