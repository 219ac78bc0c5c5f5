#include "analyzers/storage_metrics.h"

#include <fmt/format.h>

#include <algorithm>

#include "analyzers/bounded_series.h"
#include "analyzers/text_util.h"
#include "core/diagnostic_codes.h"
#include "core/run_context.h"
#include "core/saturating_sum.h"

namespace feedcheck::analyzers {

namespace {
// A day of 1-minute buckets is 1440; a month is 43,200. Beyond this, buckets are not kept.
constexpr size_t kMaxBuckets = 200000;
constexpr size_t kMaxResponseTypes = 64;
}  // namespace

bool IsThrottlingResponseType(std::string_view t) {
  return IEquals(t, "ServerBusyError") || IEquals(t, "ServerTimeoutError") ||
         IContains(t, "Throttling");
}

std::optional<StorageMetrics::Metric> StorageMetrics::FromName(std::string_view name) {
  if (IEquals(name, "Egress")) return Metric::kEgressBytes;
  if (IEquals(name, "Ingress")) return Metric::kIngressBytes;
  if (IEquals(name, "Transactions")) return Metric::kTransactions;
  if (IEquals(name, "SuccessE2ELatency")) return Metric::kE2ELatencyMs;
  if (IEquals(name, "SuccessServerLatency")) return Metric::kServerLatencyMs;
  if (IEquals(name, "Availability")) return Metric::kAvailabilityPercent;
  return std::nullopt;
}

void StorageMetrics::Add(Metric metric, double epoch_s, double value, double interval_s,
                         std::string_view response_type, const Provenance& where) {
  if (!have_first_) {
    first_ = where;
    have_first_ = true;
  }
  switch (metric) {
    case Metric::kE2ELatencyMs:
    case Metric::kServerLatencyMs: {
      int i = metric == Metric::kE2ELatencyMs ? 0 : 1;
      saturated_ |= !AddSaturating(&latency_sum_[i], value);
      ++latency_count_[i];
      return;
    }
    case Metric::kAvailabilityPercent:
      if (!have_availability_ || value < availability_min_) {
        availability_min_ = value;
        availability_at_ = where;
      }
      have_availability_ = true;
      return;
    default:
      break;
  }
  auto it = buckets_.find(epoch_s);
  if (it == buckets_.end()) {
    if (buckets_.size() >= kMaxBuckets) {
      ++dropped_buckets_;
      return;
    }
    it = buckets_.emplace(epoch_s, Bucket{}).first;
  }
  Bucket& b = it->second;
  if (interval_s > 0) b.interval_s = interval_s;
  if (metric == Metric::kEgressBytes) {
    saturated_ |= !AddSaturating(&b.egress_bytes, value);
    b.has_egress = true;
  } else if (metric == Metric::kIngressBytes) {
    saturated_ |= !AddSaturating(&b.ingress_bytes, value);
    b.has_ingress = true;
  } else {
    saturated_ |= !AddSaturating(&b.tx_total, value);
    b.has_tx = true;
    if (IEquals(response_type, "Success")) saturated_ |= !AddSaturating(&b.tx_success, value);
    if (!response_type.empty()) {
      auto rt = by_response_type_.find(response_type);
      if (rt == by_response_type_.end() && by_response_type_.size() < kMaxResponseTypes) {
        rt = by_response_type_.emplace(std::string(response_type), 0).first;
        response_type_at_.emplace(std::string(response_type), where);
      }
      if (rt != by_response_type_.end()) saturated_ |= !AddSaturating(&rt->second, value);
      if (IsThrottlingResponseType(response_type) && value > 0) {
        saturated_ |= !AddSaturating(&b.throttled, value);
        if (value > b.top_throttle_count) {
          b.top_throttle_count = value;
          b.top_throttle = std::string(response_type);
        }
      }
    }
  }
}

void StorageMetrics::SetDefaultInterval(double interval_s) {
  if (interval_s <= 0) return;
  for (auto& [t, b] : buckets_)
    if (b.interval_s <= 0) b.interval_s = interval_s;
}

void StorageMetrics::Finish(Evidence* out, std::vector<std::string>* keys) const {
  if (saturated_)
    out->diagnostics.Add({codes::kMetricsField,
                          DiagnosticSeverity::kWarning,
                          "metric values add up past the largest number a double holds: the "
                          "sums are held there, and what follows from them is not a measurement",
                          {first_.file, 0, 0},
                          "",
                          ""});
  auto set = [&](Fact f) {
    keys->push_back(f.key);
    out->facts.Set(std::move(f));
  };
  Series egress{
      "metrics.egress_gbps", "account egress", "time", Unit::kSeconds, "Gbit/s", Unit::kGbps, {}};
  Series requests{"metrics.requests_per_s",
                  "transactions",
                  "time",
                  Unit::kSeconds,
                  "requests/s",
                  Unit::kPerSecond,
                  {}};
  Series ingress{
      "metrics.ingress_gbps", "account ingress", "time", Unit::kSeconds, "Gbit/s", Unit::kGbps, {}};
  Series throttled{"metrics.throttled_per_s",
                   "throttled transactions",
                   "time",
                   Unit::kSeconds,
                   "requests/s",
                   Unit::kPerSecond,
                   {}};
  double egress_peak = -1, egress_sum = 0, ingress_peak = -1, req_peak = -1;
  // Bytes per successful read, over buckets with both metrics: the size a request moves.
  double sized_bytes = 0, sized_requests = 0;
  double egress_peak_t = 0, req_peak_t = 0;
  size_t egress_n = 0;
  std::map<std::string, IntervalMerger, std::less<>> throttle_lanes;
  for (const auto& [t, b] : buckets_) {
    double interval = b.interval_s > 0 ? b.interval_s : 60;  // PT1M is the storage grain
    if (b.has_egress) {
      double gbps = b.egress_bytes * 8 / interval / 1e9;
      egress.points.push_back({t, gbps});
      egress_sum += gbps;
      ++egress_n;
      if (gbps > egress_peak) {
        egress_peak = gbps;
        egress_peak_t = t;
      }
    }
    if (b.has_egress && b.has_tx) {
      sized_bytes += b.egress_bytes;
      sized_requests += b.tx_success > 0 ? b.tx_success : b.tx_total - b.throttled;
    }
    if (b.has_ingress) {
      double gbps = b.ingress_bytes * 8 / interval / 1e9;
      ingress.points.push_back({t, gbps});
      ingress_peak = std::max(ingress_peak, gbps);
    }
    if (b.has_tx) {
      double rps = b.tx_total / interval;
      requests.points.push_back({t, rps});
      throttled.points.push_back({t, b.throttled / interval});
      if (rps > req_peak) {
        req_peak = rps;
        req_peak_t = t;
      }
      if (b.throttled > 0) {
        auto it = throttle_lanes.find(b.top_throttle);
        if (it == throttle_lanes.end())
          it = throttle_lanes.emplace(b.top_throttle, IntervalMerger(0, 512)).first;
        it->second.Add(t, t + interval);
      }
    }
  }
  Provenance p = first_;
  auto at = [&](std::string what) {
    Provenance q = p;
    q.source = fmt::format("{} ({})", p.file, what);
    return q;
  };
  if (egress_n > 0) {
    set(NumberFact("metrics.egress_gbps_peak", egress_peak, Unit::kGbps,
                   at(fmt::format("Egress at {}", IsoUtc(egress_peak_t)))));
    set(NumberFact("metrics.egress_gbps_mean", egress_sum / static_cast<double>(egress_n),
                   Unit::kGbps, at("Egress, mean over buckets")));
    out->series.push_back(std::move(egress));
  }
  if (sized_requests >= 1 && sized_bytes > 0)
    set(NumberFact("metrics.bytes_per_request", sized_bytes / sized_requests, Unit::kBytes,
                   at("Egress / successful Transactions")));
  if (ingress_peak >= 0) {
    set(NumberFact("metrics.ingress_gbps_peak", ingress_peak, Unit::kGbps, at("Ingress")));
    out->series.push_back(std::move(ingress));
  }
  if (req_peak >= 0) {
    set(NumberFact("metrics.requests_per_s_peak", req_peak, Unit::kPerSecond,
                   at(fmt::format("Transactions at {}", IsoUtc(req_peak_t)))));
    out->series.push_back(std::move(requests));
    out->series.push_back(std::move(throttled));
  }
  double throttled_total = 0;
  for (const auto& [type, count] : by_response_type_) {
    Provenance q = response_type_at_.at(type);
    q.source = fmt::format("{} (Transactions, ResponseType={})", q.file, type);
    set(NumberFact("metrics.transactions." + KeySegment(type), count, Unit::kCount, q));
    if (IsThrottlingResponseType(type)) {
      set(NumberFact("metrics.throttled." + KeySegment(type), count, Unit::kCount, q));
      throttled_total += count;
    }
  }
  if (!by_response_type_.empty())
    set(NumberFact("metrics.throttled_total", throttled_total, Unit::kCount,
                   at("Transactions by ResponseType")));
  if (latency_count_[0] > 0)
    set(NumberFact("metrics.e2e_latency_ms",
                   latency_sum_[0] / static_cast<double>(latency_count_[0]), Unit::kMilliseconds,
                   at("SuccessE2ELatency average")));
  if (latency_count_[1] > 0)
    set(NumberFact("metrics.server_latency_ms",
                   latency_sum_[1] / static_cast<double>(latency_count_[1]), Unit::kMilliseconds,
                   at("SuccessServerLatency average")));
  if (have_availability_)
    set(NumberFact("metrics.availability_min_percent", availability_min_, Unit::kPercent,
                   availability_at_));
  for (const auto& [label, merger] : throttle_lanes)
    for (const auto& iv : merger.Result())
      out->timeline.push_back({"storage", label, iv.start, iv.end, "metrics", p.file});
  if (!region_.empty() && !buckets_.empty()) set(TextFact("metrics.region", region_, region_at_));
  if (!account_.empty() && !buckets_.empty())
    set(TextFact("metrics.account", account_, account_at_));
}

}  // namespace feedcheck::analyzers
