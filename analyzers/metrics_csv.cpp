#include "analyzers/metrics_csv.h"

#include <fmt/format.h>

#include "analyzers/text_util.h"
#include "analyzers/timestamp.h"

namespace feedcheck::analyzers {

namespace {
constexpr std::string_view kResponseTypes[] = {"ClientAccountBandwidthThrottlingError",
                                               "ClientAccountRequestThrottlingError",
                                               "ClientThrottlingError",
                                               "SuccessWithThrottling",
                                               "ServerBusyError",
                                               "ServerTimeoutError",
                                               "ServerOtherError",
                                               "ClientTimeoutError",
                                               "ClientOtherError",
                                               "AuthorizationError",
                                               "NetworkError",
                                               "Success"};

std::optional<StorageMetrics::Metric> MetricOfColumn(std::string_view name) {
  using M = StorageMetrics::Metric;
  if (IContains(name, "e2e")) return M::kE2ELatencyMs;
  if (IContains(name, "serverlatency") || IContains(name, "server latency"))
    return M::kServerLatencyMs;
  if (IContains(name, "egress")) return M::kEgressBytes;
  if (IContains(name, "ingress")) return M::kIngressBytes;
  if (IContains(name, "transactions")) return M::kTransactions;
  if (IContains(name, "availability")) return M::kAvailabilityPercent;
  return std::nullopt;
}
}  // namespace

MetricsCsvAnalyzer::MetricsCsvAnalyzer(const AnalyzerOptions& options)
    : LineAnalyzer("metrics-csv", options) {}

void MetricsCsvAnalyzer::BeginFile(const std::string& path) {
  LineAnalyzer::BeginFile(path);
  have_header_ = false;
  columns_.clear();
  have_previous_ = false;
}

bool MetricsCsvAnalyzer::ReadHeader(const Line& line) {
  if (!SplitCsvLine(line.text, &scratch_, &fields_) || fields_.size() < 2) return false;
  bool time_found = false;
  columns_.assign(fields_.size(), std::nullopt);
  for (size_t i = 0; i < fields_.size(); ++i) {
    std::string_view name = Trim(fields_[i]);
    if (!time_found && (IContains(name, "time") || IContains(name, "date")) &&
        !IContains(name, "timeout") && !MetricOfColumn(name)) {
      time_column_ = i;
      time_found = true;
      continue;
    }
    auto metric = MetricOfColumn(name);
    if (!metric) continue;
    Column c{*metric, ""};
    if (*metric == StorageMetrics::Metric::kTransactions) {
      for (auto rt : kResponseTypes) {
        if (IContains(name, rt)) {
          c.response_type = std::string(rt);
          break;
        }
      }
    }
    columns_[i] = c;
  }
  if (!time_found) time_column_ = 0;
  columns_[time_column_] = std::nullopt;
  bool any = false;
  for (const auto& c : columns_) any |= c.has_value();
  return any;
}

void MetricsCsvAnalyzer::OnLine(const Line& line) {
  if (Trim(line.text).empty()) return;
  if (!have_header_) {
    if (!ReadHeader(line)) {
      Malformed(line,
                "header names no time column and no known metric column "
                "(Egress, Ingress, Transactions, SuccessE2ELatency, ...)");
      return;
    }
    have_header_ = true;
    return;
  }
  if (!SplitCsvLine(line.text, &scratch_, &fields_)) {
    Malformed(line, "unterminated quote");
    return;
  }
  if (fields_.size() <= time_column_) {
    Malformed(line, "fewer columns than the header");
    return;
  }
  auto t = ParseTimestamp(fields_[time_column_]);
  if (!t) {
    Malformed(line, "time column is not a timestamp");
    return;
  }
  ++rows_;
  if (have_previous_ && *t > previous_t_) {
    double spacing = *t - previous_t_;
    if (min_spacing_s_ == 0 || spacing < min_spacing_s_) min_spacing_s_ = spacing;
  }
  previous_t_ = *t;
  have_previous_ = true;
  Provenance where = At(line.number);
  bool bad = false;
  for (size_t i = 0; i < fields_.size() && i < columns_.size(); ++i) {
    if (!columns_[i]) continue;
    std::string_view cell = Trim(fields_[i]);
    if (cell.empty()) continue;  // no data in this bucket
    auto v = ParseDouble(cell);
    if (!v) {
      bad = true;
      continue;
    }
    metrics_.Add(columns_[i]->metric, *t, *v, 0, columns_[i]->response_type, where);
  }
  if (bad) Malformed(line, "a metric cell is not a number (kept the others)");
}

void MetricsCsvAnalyzer::EndFile() {
  metrics_.SetDefaultInterval(min_spacing_s_ > 0 ? min_spacing_s_ : 60);
  min_spacing_s_ = 0;
}

void MetricsCsvAnalyzer::Finish(Evidence* out) {
  metrics_.Finish(out, &stats().fact_keys);
  FlushDiagnostics(out);
}

}  // namespace feedcheck::analyzers
