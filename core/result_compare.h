// Before and after: what changed between two results (probe, pre-flight or post-mortem), fact by
// fact, and whether a change is larger than the noise the results themselves carry (warp's
// `compare` is the model). Only numbers and words here; app/compare_workflow makes them a Report.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/fact_set.h"

namespace feedcheck {

/// Which way is good for a fact: more throughput, fewer errors, or neither (a count of files).
enum class Better { kHigher, kLower, kNeither };

enum class Change {
  kSame,         ///< within the tolerance, and no noise band says otherwise
  kWithinNoise,  ///< different, but inside the noise band both results report
  kNoBand,       ///< a result that changed, with no noise band known and under the floor
  kBetter,
  kWorse,
  kChanged,  ///< different, and neither direction is better (or a text value)
  kAdded,    ///< only in B
  kRemoved,  ///< only in A
};
std::string_view ChangeName(Change change);

/// What a fact is to a comparison: only results are judged better or worse.
enum class FactRole {
  kResult,   ///< measured or observed: what the run found
  kInput,    ///< declared or knowledge-base: a different setup, not a result
  kDerived,  ///< computed from inputs and results (supply.*): follows them, never judged itself
};

struct FactChange {
  std::string key;
  /// What the fact is, as the fact registry describes it ("account egress limit"); "" for a key
  /// the registry does not know.
  std::string description;
  Unit unit = Unit::kCount;
  FactRole role = FactRole::kResult;
  bool is_input = false;  ///< role != kResult (kept for the callers that only ask this)
  /// One of a family per GPU, node or rank ("gpu.util_mean.<gpu>"): listed apart, folded, and not
  /// counted in the verdict (the family's aggregate is).
  bool per_item = false;
  std::optional<double> a, b;        ///< the numbers, when the fact is one
  std::string a_display, b_display;  ///< as the results print them ("" when absent)
  std::optional<double> relative;    ///< (b - a) / |a|, when a != 0
  std::optional<double> noise;       ///< combined half-width of the noise band, in `unit`
  Better better = Better::kNeither;
  Change change = Change::kSame;
};

/// One side of a comparison: a name for headings, its verdict if it has one, and its facts.
struct ComparedResult {
  std::string name;
  std::string verdict;
  const FactSet* facts = nullptr;
};

/// How far apart two results must be before one is called better or worse.
struct CompareLimits {
  double tolerance = 0.02;  ///< relative change below which a fact is "same"
  /// A result without a noise band is judged only when its relative change exceeds this; unset,
  /// it is never judged ("no noise band").
  std::optional<double> floor;
};

struct Comparison {
  std::string a_name, b_name;
  std::string a_verdict, b_verdict;
  double tolerance = 0.02;      ///< relative change below which a fact without a band is "same"
  std::optional<double> floor;  ///< see CompareLimits
  /// Inputs that differ first, then results by the size of their relative change; facts that
  /// did not change are kept (the JSON lists them) but counted apart.
  std::vector<FactChange> changes;
  size_t same = 0;  ///< facts (inputs and results) that did not change
  /// Results only, per-GPU/node/rank ones apart (inputs are a different setup, not better or
  /// worse; derived facts follow them):
  size_t better = 0, worse = 0, within_noise = 0, no_band = 0, one_side = 0;
  size_t per_item = 0;  ///< per-GPU/node/rank facts that changed (not in the counts above)
};

/// The direction that is good for a fact, from its key and unit.
Better BetterDirection(const std::string& key, Unit unit);

/// The key whose value is `key`'s noise half-width: "probe.throughput.knee_gbps" ->
/// "probe.throughput.knee_noise_gbps" (the probes' convention).
std::string NoiseKeyFor(const std::string& key);

/// Whether `key` is one of a family per GPU, node or rank ("gpu.util_mean.3").
bool IsPerItemKey(const std::string& key);

Comparison CompareResults(const ComparedResult& a, const ComparedResult& b,
                          const CompareLimits& limits = {});

}  // namespace feedcheck
