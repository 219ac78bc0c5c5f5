#include "analyzers/azure_monitor_metrics.h"

#include <fmt/format.h>

#include <cmath>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>

#include "analyzers/node_cpu_metric.h"
#include "analyzers/text_util.h"
#include "analyzers/timestamp.h"
#include "core/diagnostic_codes.h"
#include "core/json_input.h"

namespace feedcheck::analyzers {

namespace {

// The series a split answers with unless asked for more (`top`, Microsoft Learn, "Metrics -
// List": "Defaults to 10"; az monitor metrics list --top).
constexpr size_t kDefaultTop = 10;
// Metrics responses are small (a day at PT1M is ~100 KB per series); a larger file is not one.
constexpr size_t kMaxDocumentBytes = 16u << 20;

using Json = nlohmann::json;

const Json* Member(const Json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(key);
  return it == j.end() ? nullptr : &*it;
}

// Values are read the checked way (core/json_input); the structure is walked by the pointers
// above, and what is not of the expected type counts as absent (az prints null for no data).
std::string Text(const Json* v) { return JsonField(v, nullptr, "").StringOr(""); }
std::optional<double> NumberOf(const Json* v) {
  return v && v->is_number() ? JsonField(v, nullptr, "").Number() : std::nullopt;
}

std::string StringAt(const Json& j, const char* key) {
  const Json* v = Member(j, key);
  if (v && v->is_string()) return Text(v);
  if (v && v->is_object()) return Text(Member(*v, "value"));
  return {};
}

// Which aggregation carries the metric: totals for byte and transaction counts, averages for
// latency and availability.
const char* AggregationFor(StorageMetrics::Metric m) {
  switch (m) {
    case StorageMetrics::Metric::kEgressBytes:
    case StorageMetrics::Metric::kIngressBytes:
    case StorageMetrics::Metric::kTransactions:
      return "total";
    case StorageMetrics::Metric::kAvailabilityPercent:
      return "minimum";
    default:
      return "average";
  }
}

void Diag(DiagnosticList* d, const std::string& file, int line, std::string message,
          std::string context = {}) {
  d->Add({codes::kMetricsField,
          DiagnosticSeverity::kWarning,
          std::move(message),
          {file, line, 0},
          std::move(context),
          ""});
}

// The point's timeStamp as epoch seconds; a bad one is a diagnostic at its JSON path.
std::optional<double> PointTime(const Json& point, const std::string& file,
                                const std::string& where, size_t si, size_t di,
                                DiagnosticList* diags) {
  std::string stamp = StringAt(point, "timeStamp");
  auto t = ParseTimestamp(stamp);
  if (!t)
    Diag(diags, file, 0, fmt::format("bad timeStamp '{}'", PrintableSnippet(stamp, 40)),
         fmt::format("{}/timeseries/{}/data/{}", where, si, di));
  return t;
}

// Azure ML's GPU metrics: the value as a percentage, or nullopt when `name` is not one.
std::optional<double> GpuPercent(std::string_view name, double value) {
  if (IEquals(name, "GpuUtilization") || IEquals(name, "GpuUtilizationPercentage")) return value;
  if (IEquals(name, "GpuUtilizationMilliGPUs")) return value / 10;  // 1000 = one GPU busy
  return std::nullopt;
}

std::string Dimension(const Json& ts, std::initializer_list<const char*> names) {
  const Json* md = Member(ts, "metadatavalues");
  if (!md || !md->is_array()) return {};
  for (const Json& dim : *md) {
    std::string dim_name = StringAt(dim, "name");
    for (const char* n : names) {
      if (!IEquals(dim_name, n)) continue;
      if (const Json* v = Member(dim, "value"); v && v->is_string()) return Text(v);
    }
  }
  return {};
}

// Every point of every time series of a metric with a readable time: fn(series, point, time,
// series index, point index). A point whose time cannot be read is said (PointTime) and skipped.
template <typename Fn>
void ForEachTimedPoint(const Json& metric, const std::string& file, const std::string& where,
                       DiagnosticList* diags, Fn&& fn) {
  const Json* series = Member(metric, "timeseries");
  if (!series || !series->is_array()) return;
  for (size_t si = 0; si < series->size(); ++si) {
    const Json& ts = (*series)[si];
    const Json* data = Member(ts, "data");
    if (!data || !data->is_array()) continue;
    for (size_t di = 0; di < data->size(); ++di) {
      const Json& point = (*data)[di];
      if (auto t = PointTime(point, file, where, si, di, diags)) fn(ts, point, *t, si, di);
    }
  }
}

void ParseGpuMetric(const Json& metric, const std::string& name, double interval_s,
                    const std::string& file, const std::string& where, DiagnosticList* diags,
                    std::vector<GpuMetricPoint>* out) {
  ForEachTimedPoint(metric, file, where, diags,
                    [&](const Json& ts, const Json& point, double t, size_t, size_t) {
                      auto value = NumberOf(Member(point, "average"));
                      if (!value) value = NumberOf(Member(point, "maximum"));
                      if (!value) return;  // no data in this bucket (az prints null)
                      auto pct = GpuPercent(name, *value);
                      if (!pct || !std::isfinite(*pct)) return;
                      out->push_back({Dimension(ts, {"NodeId", "InstanceId"}),
                                      Dimension(ts, {"DeviceId"}), t, *pct, interval_s, file});
                    });
}

// Azure ML's CPU metric, per node. Unlike an absent aggregation (no data in the bucket, null
// from az), a value that is there but not a utilisation (a string, a negative number, 250) is
// said, at its JSON path, and left out.
void ParseCpuMetric(const Json& metric, const std::string& name, double interval_s,
                    const std::string& file, const std::string& where, DiagnosticList* diags,
                    std::vector<CpuMetricPoint>* out) {
  ForEachTimedPoint(
      metric, file, where, diags,
      [&](const Json& ts, const Json& point, double t, size_t si, size_t di) {
        // The aggregation asked for: az prints the others as null.
        const char* field = "average";
        const Json* v = Member(point, field);
        if (!v || v->is_null()) v = Member(point, field = "maximum");
        if (!v || v->is_null()) return;  // no data in this bucket
        const std::string path = fmt::format("{}/timeseries/{}/data/{}/{}", where, si, di, field);
        auto number = NumberOf(v);
        if (!number) {
          Diag(diags, file, 0,
               fmt::format("{} {} is not a number: {}", name, field,
                           PrintableSnippet(v->dump(), 40)),
               path);
          return;
        }
        std::string why;
        auto pct = CpuPercentOf(*number, &why);
        if (!pct) {
          Diag(diags, file, 0, fmt::format("{} {}: {}", name, field, why), path);
          return;
        }
        out->push_back({Dimension(ts, {"NodeId", "InstanceId"}), t, *pct, interval_s, file});
      });
}

// The storage account a response is about (lower case), from its resourceid or its first
// metric's id (".../storageAccounts/<name>/..."); "" when it names none.
std::string ResourceAccount(const Json& doc) {
  std::string id = StringAt(doc, "resourceid");
  if (id.empty()) id = StringAt(doc, "resourceId");
  if (const Json* v = Member(doc, "value"); id.empty() && v && v->is_array() && !v->empty())
    id = StringAt((*v)[0], "id");
  std::string lower = ToLower(id);
  const std::string marker = "/storageaccounts/";
  size_t p = lower.find(marker);
  if (p == std::string::npos) return "";
  size_t from = p + marker.size();
  size_t to = lower.find('/', from);
  return lower.substr(from, to == std::string::npos ? std::string::npos : to - from);
}

void ParseResponse(const Json& doc, const std::string& file, StorageMetrics* metrics,
                   DiagnosticList* diags, uint64_t* points, std::vector<GpuMetricPoint>* gpu,
                   std::vector<CpuMetricPoint>* cpu) {
  double interval_s = 60;
  std::string interval_text = StringAt(doc, "interval");
  if (!interval_text.empty()) {
    // REST says "PT5M"; `az monitor metrics list -o json` prints the same as "0:05:00".
    if (auto v = ParseMetricInterval(interval_text); v && *v > 0) {
      interval_s = *v;
    } else {
      Diag(diags, file, 0,
           fmt::format("interval '{}' is neither an ISO 8601 duration (PT5M) nor H:MM:SS "
                       "(0:05:00); using one minute",
                       PrintableSnippet(interval_text, 40)),
           "/interval");
    }
  }
  const Json* value = Member(doc, "value");
  if (!value || !value->is_array()) return;
  // A storage account's response names its region: the account's limits depend on it.
  std::string region = StringAt(doc, "resourceregion");
  if (!region.empty() && region.size() < 64 && IContains(StringAt(doc, "namespace"), "storage"))
    metrics->SetRegion(region,
                       {FactOrigin::kObserved,
                        fmt::format("{} (resourceregion of the metrics response)", file), file, 0});
  // And which account it is: several jobs throttled by one account are one finding.
  if (std::string account = ResourceAccount(doc); !account.empty() && account.size() <= 24)
    metrics->SetAccount(account,
                        {FactOrigin::kObserved,
                         fmt::format("{} (resource id of the metrics response)", file), file, 0});
  for (size_t mi = 0; mi < value->size(); ++mi) {
    const Json& metric = (*value)[mi];
    std::string name = StringAt(metric, "name");
    std::string where = fmt::format("/value/{}", mi);
    if (name.empty()) {
      Diag(diags, file, 0, "metric without name.value", where);
      continue;
    }
    // A split metric of exactly 10 series is most likely cut at the default top (az monitor
    // metrics list and the REST API's $top both give 10 unless told): said, never silent.
    if (const Json* all = Member(metric, "timeseries");
        all && all->is_array() && all->size() == kDefaultTop) {
      const Json* md = Member((*all)[0], "metadatavalues");
      if (md && md->is_array() && !md->empty())
        diags->Add({codes::kMetricsSeriesAtCap,
                    DiagnosticSeverity::kWarning,
                    fmt::format("metric {} holds {} series, the default top of az monitor metrics "
                                "list and the REST API: some may be missing (ask with --top; "
                                "feedcheck fetch asks for all)",
                                name, kDefaultTop),
                    {file, 0, 0},
                    where + "/timeseries",
                    ""});
    }
    if (GpuPercent(name, 0)) {
      if (gpu) ParseGpuMetric(metric, name, interval_s, file, where, diags, gpu);
      continue;
    }
    if (IsCpuMetricName(name)) {
      if (cpu) ParseCpuMetric(metric, name, interval_s, file, where, diags, cpu);
      continue;
    }
    auto kind = StorageMetrics::FromName(name);
    if (!kind) continue;  // BlobCount, capacity, ...: not used
    const Json* series = Member(metric, "timeseries");
    if (!series || !series->is_array()) continue;
    std::string error_code = StringAt(metric, "errorCode");
    if (!error_code.empty() && !IEquals(error_code, "Success"))
      Diag(diags, file, 0, fmt::format("metric {} reports errorCode {}", name, error_code), where);
    for (size_t si = 0; si < series->size(); ++si) {
      const Json& ts = (*series)[si];
      std::string response_type;
      if (const Json* md = Member(ts, "metadatavalues"); md && md->is_array()) {
        for (const Json& dim : *md) {
          if (IEquals(StringAt(dim, "name"), "responsetype")) {
            if (const Json* v = Member(dim, "value"); v && v->is_string()) response_type = Text(v);
          }
        }
      }
      const Json* data = Member(ts, "data");
      if (!data || !data->is_array()) continue;
      Provenance prov{FactOrigin::kObserved, fmt::format("{} {}", file, name), file, 0};
      for (size_t di = 0; di < data->size(); ++di) {
        const Json& point = (*data)[di];
        auto t = PointTime(point, file, where, si, di, diags);
        if (!t) continue;
        const Json* v = Member(point, AggregationFor(*kind));
        if (!v && *kind == StorageMetrics::Metric::kAvailabilityPercent)
          v = Member(point, "average");
        auto number = NumberOf(v);
        if (!number) continue;  // aggregation absent: no data in this bucket
        const double x = *number;
        metrics->Add(*kind, *t, x, interval_s, response_type, prov);
        if (points) ++*points;
      }
    }
  }
}

}  // namespace

bool ParseAzureMonitorJson(std::string_view text, const std::string& file, StorageMetrics* metrics,
                           DiagnosticList* diagnostics, uint64_t* points,
                           std::vector<GpuMetricPoint>* gpu_points,
                           const std::set<std::string>* accounts_read,
                           std::vector<CpuMetricPoint>* cpu_points) {
  // Parsed the checked way (core/json_input): a syntax error names its line, nesting past the
  // limit or a number out of range (1e999) is refused before it costs memory or throws.
  const std::optional<Json> parsed = ParseJsonInput(
      text, JsonSource{file, codes::kBadMetricsJson, diagnostics, DiagnosticSeverity::kError});
  if (!parsed) return false;
  const Json& doc = *parsed;
  // az CLI and REST give one object; a saved list of responses is an array of them; the batch
  // API (metrics:getBatch) answers {"values": [one REST response per resource]}.
  std::vector<std::pair<const Json*, std::string>> docs;
  auto add = [&](const Json& d, std::string where) {
    if (const Json* batch = Member(d, "values"); batch && batch->is_array() && !Member(d, "value"))
      for (size_t i = 0; i < batch->size(); ++i)
        docs.emplace_back(&(*batch)[i], fmt::format("{}/values/{}", where, i));
    else
      docs.emplace_back(&d, where);
  };
  if (doc.is_array()) {
    for (size_t i = 0; i < doc.size(); ++i) add(doc[i], fmt::format("/{}", i));
  } else {
    add(doc, "");
  }
  bool any = false;
  for (const auto& [d, where] : docs) {
    const Json* value = Member(*d, "value");
    if (!value || !value->is_array()) continue;
    any = true;
    // Each resource of a batch is kept apart: a storage account the job did not read is set
    // aside (its limits are another workload's), never merged into this job's series.
    std::string account = ResourceAccount(*d);
    if (accounts_read && !accounts_read->empty() && !account.empty() &&
        accounts_read->count(account) == 0) {
      diagnostics->Add({codes::kOtherAccountMetrics,
                        DiagnosticSeverity::kWarning,
                        fmt::format("metrics of storage account '{}' ({}), which the job's rslex "
                                    "logs never read: set aside, not blamed on this job",
                                    account, where.empty() ? "/" : where),
                        {file, 0, 0},
                        "azure-monitor-json",
                        ""});
      continue;
    }
    ParseResponse(*d, file, metrics, diagnostics, points, gpu_points, cpu_points);
  }
  if (!any)
    diagnostics->Add({codes::kNotMetrics,
                      DiagnosticSeverity::kError,
                      "JSON has no \"value\" array of metrics (not an Azure Monitor response)",
                      {file, 1, 0},
                      "azure-monitor-json",
                      ""});
  return any;
}

AzureMonitorMetricsAnalyzer::AzureMonitorMetricsAnalyzer(const AnalyzerOptions& options)
    : LineAnalyzer("azure-monitor-json", options) {}

void AzureMonitorMetricsAnalyzer::BeginFile(const std::string& path) {
  LineAnalyzer::BeginFile(path);
  text_.clear();
  too_big_ = false;
}

size_t AzureMonitorMetricsAnalyzer::MaxLineBytes() const { return kMaxDocumentBytes; }

void AzureMonitorMetricsAnalyzer::OnLine(const Line& line) {
  if (too_big_) return;
  if (text_.size() + line.text.size() + 1 > kMaxDocumentBytes) {
    too_big_ = true;
    Malformed(line, fmt::format("metrics JSON larger than {} MiB: not read further",
                                kMaxDocumentBytes >> 20));
    text_.clear();
    return;
  }
  text_.append(line.text);
  text_.push_back('\n');
}

void AzureMonitorMetricsAnalyzer::EndFile() {
  if (!too_big_) {
    const size_t cpu_before = cpu_points_.size();
    if (!ParseAzureMonitorJson(text_, file(), &metrics_, &diagnostics(), &points_, &gpu_points_,
                               &accounts_read_, &cpu_points_))
      ++stats().malformed;
    // A node's own folder names the node its unsplit CPU series is about.
    for (size_t i = cpu_before; i < cpu_points_.size(); ++i)
      if (cpu_points_[i].node.empty()) cpu_points_[i].node = node();
  }
  text_.clear();
  text_.shrink_to_fit();
}

void AzureMonitorMetricsAnalyzer::Finish(Evidence* out) {
  metrics_.Finish(out, &stats().fact_keys);
  if (!cpu_points_.empty()) {
    AddNodeCpuFacts(cpu_points_, out);
    stats().fact_keys.push_back("cpu.util_mean");
  }
  FlushDiagnostics(out);
}

}  // namespace feedcheck::analyzers
