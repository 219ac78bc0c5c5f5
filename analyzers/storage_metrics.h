// Storage-account metrics, whatever file they came in (Azure Monitor JSON or a generic CSV):
// per time bucket egress/ingress bytes and transactions by ResponseType, converted with the
// bucket's interval into Gbit/s and requests/s; latency means; throttling counts and minutes.
#pragma once

#include <map>
#include <string>

#include "analyzers/line_analyzer.h"

namespace feedcheck::analyzers {

/// True for ResponseType values that mean the account throttled or timed out the request.
bool IsThrottlingResponseType(std::string_view response_type);

class StorageMetrics {
 public:
  enum class Metric {
    kEgressBytes,
    kIngressBytes,
    kTransactions,
    kE2ELatencyMs,
    kServerLatencyMs,
    kAvailabilityPercent
  };
  /// Maps an Azure Monitor metric name (any case) to a Metric; nullopt when not used.
  static std::optional<Metric> FromName(std::string_view name);

  /// Adds one data point. `interval_s` <= 0 means "not known yet" (CSV: set later).
  /// `response_type` matters only for transactions ("" = all types together).
  void Add(Metric metric, double epoch_s, double value, double interval_s,
           std::string_view response_type, const Provenance& where);
  /// The account's region as the metrics response states it (`resourceregion`).
  void SetRegion(std::string region, const Provenance& where) {
    region_ = std::move(region);
    region_at_ = where;
  }
  /// The storage account the metrics are about (from the response's resource id), lower case.
  void SetAccount(std::string account, const Provenance& where) {
    account_ = std::move(account);
    account_at_ = where;
  }
  /// Sets the interval of every bucket that has none (CSV rows: spacing of the time column).
  void SetDefaultInterval(double interval_s);
  bool empty() const { return buckets_.empty() && latency_count_[0] + latency_count_[1] == 0; }

  /// Facts metrics.*, series metrics.egress_gbps / requests_per_s / throttled_per_s, and
  /// storage-lane intervals for throttled buckets. Fact keys set are appended to `keys`.
  void Finish(Evidence* out, std::vector<std::string>* keys) const;
  uint64_t dropped_buckets() const { return dropped_buckets_; }

 private:
  struct Bucket {
    double interval_s = 0;
    bool has_egress = false, has_ingress = false, has_tx = false;
    double egress_bytes = 0;
    double ingress_bytes = 0;
    double tx_total = 0;
    double tx_success = 0;  // ResponseType Success, when the split was asked for
    double throttled = 0;
    std::string top_throttle;  // dominant throttling type in this bucket
    double top_throttle_count = 0;
  };
  std::map<double, Bucket> buckets_;
  std::map<std::string, double, std::less<>> by_response_type_;
  std::map<std::string, Provenance, std::less<>> response_type_at_;
  double latency_sum_[2] = {0, 0};
  uint64_t latency_count_[2] = {0, 0};
  bool have_availability_ = false;
  double availability_min_ = 100;
  Provenance availability_at_;
  Provenance first_;
  bool have_first_ = false;
  bool saturated_ = false;  ///< a sum over the input passed the largest double
  uint64_t dropped_buckets_ = 0;
  std::string region_;
  Provenance region_at_;
  std::string account_;
  Provenance account_at_;
};

}  // namespace feedcheck::analyzers
