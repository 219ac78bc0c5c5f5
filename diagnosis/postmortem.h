// What a post-mortem concluded, beside the evidence it read: the verdict and how good it is,
// the findings ordered by the GPU time they cost, the rules not evaluated, the settings to
// paste, and the diagnosis (GPU time lost, cause, confidence, fix, nodes). The app puts it into
// its report; diagnosis/ knows no report and no reporter.
#pragma once

#include <string>
#include <vector>

#include "core/diagnosis_summary.h"
#include "core/evidence.h"
#include "core/finding.h"
#include "core/verdict_level.h"

namespace feedcheck::diagnosis {

struct Postmortem {
  Evidence evidence;    ///< what was read; its facts gain what the diagnosis observed
  std::string verdict;  ///< "account egress, confirmed", "no storage bottleneck, likely", ...
  VerdictLevel verdict_level = VerdictLevel::kUnknown;
  std::string verdict_detail;          ///< the deciding finding and the sources that agree
  std::vector<Finding> findings;       ///< the cause first, secondary ones last
  std::vector<SkippedRule> skipped;    ///< rules not evaluated for missing facts
  std::vector<EnvSetting> env;         ///< the primary findings' settings, merged
  std::vector<ConfigFragment> config;  ///< their config fragments, merged
  DiagnosisSummary diagnosis;
};

}  // namespace feedcheck::diagnosis
