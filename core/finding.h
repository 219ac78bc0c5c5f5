// What the rules conclude: findings with evidence and settings, and the rules that could not
// be evaluated because facts were missing.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/bottleneck.h"
#include "core/fact.h"

namespace feedcheck {

enum class Severity { kInfo, kWarning, kCritical };

std::string_view SeverityName(Severity severity);
std::optional<Severity> SeverityFromName(std::string_view name);

/// One environment variable to set, with the value already rendered.
struct EnvSetting {
  std::string name;
  std::string value;
};

/// A configuration fragment to paste, e.g. a BlobFuse2 YAML block.
struct ConfigFragment {
  std::string kind;  ///< "blobfuse2"
  std::string text;
};

/// The two sides of a finding's excess, for a chart: what the plan or the job needs (549,316
/// requests/s) against the limit it meets (the account's 40,000), both in the limit's unit. Set
/// from the rule's `demand:` and `limit:`, so reporters draw it without computing.
struct FindingGauge {
  double demand = 0;
  double limit = 0;
  Unit unit = Unit::kCount;
};

struct Finding {
  std::string rule_id;
  Severity severity = Severity::kInfo;
  std::string title;
  std::string message;          ///< the rule's `say`, with facts substituted
  std::vector<Fact> evidence;   ///< copies of the facts the rule names as evidence
  std::vector<EnvSetting> env;  ///< settings to paste into the job
  std::vector<ConfigFragment> config;
  std::string source;  ///< where the advice comes from: a public document's title, section and URL
  std::string rule_file;  ///< rules/*.yaml file and line the rule was defined at
  int rule_line = 0;
  Bottleneck bottleneck = Bottleneck::kNone;     ///< the rule's `class:`
  FindingBasis basis = FindingBasis::kObserved;  ///< the rule's `basis:`
  /// What it cost, set by a post-mortem so reporters only sort and print: GPU-seconds lost in
  /// the part of the job this finding explains (< 0: not known), and the figure as shown.
  double impact_gpu_s = -1;
  std::string impact;
  /// A post-mortem keeps a finding that does not explain this job (contradicted by what was
  /// observed, or advice for after the cause is fixed) but marks it secondary, saying why.
  bool secondary = false;
  std::string secondary_note;
  /// How far past its limit the finding is, as a ratio (13.7 = 13.7x the account's request
  /// limit), from the rule's `excess:` expression; absent when the rule has none or its facts
  /// are missing. Findings of one severity are listed by it, largest first.
  std::optional<double> excess;
  /// What `excess` is the ratio of: the demand and the limit; absent when the rule names none
  /// or their facts are missing.
  std::optional<FindingGauge> gauge;
  /// The rule's severity was raised to critical because `excess` passed its `critical_above`.
  bool escalated = false;
};

/// Most severe first; within a severity, the largest excess first, then findings without one,
/// each group keeping its order (rule order). Reporters call this; they never compute excess.
void SortFindings(std::vector<Finding>* findings);

/// A rule that was not evaluated because facts it needs are absent.
struct SkippedRule {
  std::string rule_id;
  std::string title;
  std::vector<std::string> missing_facts;
};

}  // namespace feedcheck
