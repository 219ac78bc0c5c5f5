#include "analyzers/dcgm_text.h"

#include <initializer_list>

#include "analyzers/text_util.h"
#include "analyzers/timestamp.h"

namespace feedcheck::analyzers {

namespace {
constexpr double kBlankSentinel = 9.2e18;
constexpr std::string_view kUtilMetric = "DCGM_FI_DEV_GPU_UTIL";
constexpr std::string_view kEngineMetric = "DCGM_FI_PROF_GR_ENGINE_ACTIVE";

// The metric name the line starts with, when it is one of `names` (followed by '{' or ' ').
std::string_view MetricOf(std::string_view line, std::initializer_list<std::string_view> names) {
  for (std::string_view n : names)
    if (StartsWith(line, n) &&
        (line.size() == n.size() || line[n.size()] == '{' || line[n.size()] == ' '))
      return n;
  return {};
}
}  // namespace

std::optional<std::string> PrometheusLabel(std::string_view labels, std::string_view name,
                                           bool* ok) {
  *ok = true;
  size_t i = 0;
  std::optional<std::string> found;
  while (i < labels.size()) {
    while (i < labels.size() && (labels[i] == ' ' || labels[i] == ',')) ++i;
    if (i >= labels.size()) break;
    size_t eq = labels.find('=', i);
    if (eq == std::string_view::npos || eq + 1 >= labels.size() || labels[eq + 1] != '"') {
      *ok = false;
      return std::nullopt;
    }
    std::string_view key = Trim(labels.substr(i, eq - i));
    std::string value;
    size_t j = eq + 2;
    bool closed = false;
    while (j < labels.size()) {
      char c = labels[j];
      if (c == '\\' && j + 1 < labels.size()) {
        char n = labels[j + 1];
        value.push_back(n == 'n' ? '\n' : n);
        j += 2;
        continue;
      }
      if (c == '"') {
        closed = true;
        ++j;
        break;
      }
      value.push_back(c);
      ++j;
    }
    if (!closed) {
      *ok = false;
      return std::nullopt;
    }
    if (key == name && !found) found = std::move(value);
    i = j;
  }
  return found;
}

DcgmTextParser::Result DcgmTextParser::Parse(std::string_view line, GpuSample* sample,
                                             std::string* gpu_key, std::string* error) {
  line = Trim(line);
  if (line.empty()) return Result::kSkip;
  if (line.front() == '#') {
    std::string_view rest = Trim(line.substr(1));
    if (auto t = ParseTimestamp(rest)) current_time_ = *t;
    return Result::kSkip;  // # HELP, # TYPE, comments
  }
  std::string_view metric = MetricOf(line, {kUtilMetric, kEngineMetric});
  if (metric.empty()) return Result::kSkip;  // another metric
  std::string_view rest = line.substr(metric.size());
  std::string_view labels;
  if (!rest.empty() && rest.front() == '{') {
    // The closing brace is the last '}' before the value (label values may hold '}').
    size_t close = rest.rfind('}');
    if (close == std::string_view::npos) {
      *error = "label block without '}'";
      return Result::kMalformed;
    }
    labels = rest.substr(1, close - 1);
    rest = rest.substr(close + 1);
  }
  rest = Trim(rest);
  size_t sp = rest.find(' ');
  std::string_view value_text = rest.substr(0, sp);
  std::string_view stamp_text =
      sp == std::string_view::npos ? std::string_view{} : Trim(rest.substr(sp));
  auto value = ParseDouble(value_text);
  if (!value && value_text != "NaN") {
    *error = "value is not a number";
    return Result::kMalformed;
  }
  bool ok = true;
  auto gpu = PrometheusLabel(labels, "gpu", &ok);
  if (!ok) {
    *error = "malformed label block";
    return Result::kMalformed;
  }
  auto instance = PrometheusLabel(labels, "GPU_I_ID", &ok);
  if (instance && instance->empty()) instance.reset();
  // Engine activity stands in for utilisation only where DCGM has none: a MIG instance.
  const bool engine = metric == kEngineMetric;
  if (engine && !instance) return Result::kSkip;
  auto host = PrometheusLabel(labels, "Hostname", &ok);
  if (!host) host = PrometheusLabel(labels, "hostname", &ok);
  std::string id = gpu ? *gpu : std::string("0");
  if (id.size() > 32) id.resize(32);
  if (instance) id += "i" + instance->substr(0, 16);
  // The host as the node's name, as written (10.0.0.5, node-3.cluster.local: the same identity
  // as its log folder); only '/' (the key's separator) and control bytes are replaced.
  std::string node = host ? *host : std::string();
  for (char& c : node)
    if (c == '/' || static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '_';
  *gpu_key = !node.empty() ? node + "/gpu" + KeySegment(id) : "gpu" + KeySegment(id);
  *sample = GpuSample{};
  sample->gpu = *gpu_key;
  if (!stamp_text.empty()) {
    auto ms = ParseDouble(stamp_text);
    if (!ms) {
      *error = "timestamp after the value is not milliseconds";
      return Result::kMalformed;
    }
    // Milliseconds since 1970, before the year 10000 (what the other formats' dates can say).
    if (*ms < 0 || *ms >= kEndOfYear9999EpochS * 1000) {
      *error = "timestamp after the value is not a time (milliseconds since 1970)";
      return Result::kMalformed;
    }
    sample->epoch_s = *ms / 1000;
  } else {
    sample->epoch_s = current_time_;
  }
  if (value && *value < kBlankSentinel && engine) {
    if (*value < 0 || *value > 1) {
      *error = "engine activity outside 0..1";
      return Result::kMalformed;
    }
    sample->util_percent = *value * 100;
  } else if (value && *value < kBlankSentinel) {
    if (*value < 0 || *value > 100) {
      *error = "GPU utilisation outside 0..100";
      return Result::kMalformed;
    }
    sample->util_percent = *value;
  }
  return Result::kSample;
}

}  // namespace feedcheck::analyzers
