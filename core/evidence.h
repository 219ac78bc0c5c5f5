// Everything a probe or analyzer learned: scalar facts, series for charts, a timeline of
// activities, and the diagnostics met on the way. Saved as facts.json and merged later
// ("measure on a node, analyze on a laptop, advise anywhere").
#pragma once

#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "core/fact_set.h"

namespace feedcheck {

inline constexpr int kEvidenceSchemaVersion = 1;

struct SeriesPoint {
  double x = 0;
  double y = 0;
};

/// A curve for a chart: throughput per concurrency step, latency CDF, time per object size,
/// GPU utilisation over time. Units are stated so reporters only format.
struct Series {
  std::string key;    ///< stable: "probe.throughput.by_concurrency", "gpu.util.gpu0"
  std::string title;  ///< legend text
  std::string x_label;
  Unit x_unit = Unit::kCount;
  std::string y_label;
  Unit y_unit = Unit::kCount;
  std::vector<SeriesPoint> points;
  std::string node;  ///< the node of a multi-node job it describes; "" for the whole job
};

/// One bar on the timeline: a data-runtime activity, a starved GPU interval, a throttled minute.
struct TimelineInterval {
  std::string lane;   ///< "data-runtime", "gpu", "storage"
  std::string label;  ///< "download", "starved", "ServerBusyError"
  double start_epoch_s = 0;
  double end_epoch_s = 0;
  std::string status;  ///< "Success", "Failure", ""
  std::string source;  ///< "data-capability.log:12"
  std::string node;    ///< the node whose log it came from; "" for the job or the account
};

struct Evidence {
  FactSet facts;
  std::vector<Series> series;
  std::vector<TimelineInterval> timeline;
  DiagnosticList diagnostics;

  /// Merges `other` in: facts by key (later wins), series by key and node (later wins),
  /// timeline and diagnostics appended. Returns the fact keys that were replaced.
  std::vector<std::string> Merge(const Evidence& other);
  /// The series of `key` for `node` ("": the whole job's).
  const Series* FindSeries(const std::string& key, const std::string& node = "") const;
};

}  // namespace feedcheck
