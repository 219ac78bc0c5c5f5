#include "core/finding.h"

namespace feedcheck {

std::string_view SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kInfo: return "info";
    case Severity::kWarning: return "warning";
    case Severity::kCritical: return "critical";
  }
  return "info";
}

std::optional<Severity> SeverityFromName(std::string_view name) {
  if (name == "info") return Severity::kInfo;
  if (name == "warning") return Severity::kWarning;
  if (name == "critical") return Severity::kCritical;
  return std::nullopt;
}

}  // namespace feedcheck
