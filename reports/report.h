// The one result model every reporter renders. Reporters format; they never compute: every
// number a report shows is in here already.
#pragma once

#include <string>
#include <vector>

#include "core/evidence.h"
#include "core/finding.h"
#include "core/run_context.h"

namespace feedcheck {

inline constexpr int kReportSchemaVersion = 1;

struct Report {
  RunContext context;
  std::string title;           ///< "Pre-flight check", "Post-mortem", "Advice"
  std::string verdict;         ///< "ready" | "at risk" | "will starve the GPUs" | bottleneck; "" for none
  std::string verdict_detail;  ///< one or two sentences with the deciding evidence
  Evidence evidence;
  std::vector<Finding> findings;      ///< ordered by severity, most severe first
  std::vector<SkippedRule> skipped;   ///< rules not evaluated for missing facts
  std::vector<EnvSetting> env;        ///< merged settings to paste
  std::vector<ConfigFragment> config; ///< merged config fragments (BlobFuse2)
};

}  // namespace feedcheck
