#include "diagnosis/evidence_sources.h"

#include <string>

#include "analyzers/job_definition.h"
#include "reports/measurement_caveat.h"

namespace feedcheck::diagnosis {

namespace {
bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

}  // namespace

std::string_view SourceKindName(SourceKind kind) {
  switch (kind) {
    case SourceKind::kDataRuntimeLog:
      return "data-runtime logs";
    case SourceKind::kStorageMetrics:
      return "storage account metrics";
    case SourceKind::kGpuSamples:
      return "GPU samples";
    case SourceKind::kProbe:
      return "probe measurements";
    case SourceKind::kJobDefinition:
      return "the job's definition";
  }
  return "";
}

std::set<SourceKind> SourcesOf(const Fact& fact, bool probes_saw_storage) {
  std::set<SourceKind> out;
  FactOrigin origin = fact.provenance.origin;
  std::string_view key = fact.key;
  // The settings the job ran with, as its definition records them (and what is derived from
  // them): the job's own record, not a claim about it.
  if (StartsWith(key, "runtime.") && origin != FactOrigin::kKnowledge &&
      analyzers::IsJobDefinitionFile(fact.provenance.file)) {
    out.insert(SourceKind::kJobDefinition);
    return out;
  }
  if (origin == FactOrigin::kDeclared || origin == FactOrigin::kKnowledge) return out;
  if (StartsWith(key, "runtime.")) out.insert(SourceKind::kDataRuntimeLog);
  if (StartsWith(key, "metrics.")) out.insert(SourceKind::kStorageMetrics);
  if ((StartsWith(key, "probe.") || StartsWith(key, "preflight.")) &&
      (probes_saw_storage || !MeasuresStorageTarget(key)))
    out.insert(SourceKind::kProbe);
  if (StartsWith(key, "gpu.") && key != "gpu.busy_threshold_percent") {
    out.insert(SourceKind::kGpuSamples);
    // Joined with the data runtime's activities: the phase facts rest on both.
    if (StartsWith(key, "gpu.lost_download") || StartsWith(key, "gpu.lost_mount") ||
        StartsWith(key, "gpu.lost_after") || StartsWith(key, "gpu.idle_download") ||
        StartsWith(key, "gpu.util_during") || StartsWith(key, "gpu.util_after"))
      out.insert(SourceKind::kDataRuntimeLog);
  }
  if (origin == FactOrigin::kDerived && StartsWith(key, "metrics.") &&
      key.find("during_download") != std::string_view::npos)
    out.insert(SourceKind::kDataRuntimeLog);
  return out;
}

}  // namespace feedcheck::diagnosis
