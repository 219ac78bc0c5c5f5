#include "reports/verdict.h"

#include <fmt/format.h>

namespace feedcheck {

Verdict PreflightVerdict(const std::vector<Finding>& findings) {
  for (const auto& f : findings) {
    if (f.severity == Severity::kCritical)
      return {"will starve the GPUs", VerdictLevel::kBad,
              fmt::format("{} ({}).", f.title, f.rule_id)};
  }
  for (const auto& f : findings) {
    if (f.severity == Severity::kWarning)
      return {"at risk", VerdictLevel::kWarning, fmt::format("{} ({}).", f.title, f.rule_id)};
  }
  return {"ready", VerdictLevel::kGood, "No rule found a warning or a critical problem."};
}

}  // namespace feedcheck
