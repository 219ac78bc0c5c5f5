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
  kBetter,
  kWorse,
  kChanged,  ///< different, and neither direction is better (or a text value)
  kAdded,    ///< only in B
  kRemoved,  ///< only in A
};
std::string_view ChangeName(Change change);

struct FactChange {
  std::string key;
  Unit unit = Unit::kCount;
  bool is_input = false;       ///< declared or knowledge-base (a different setup, not a result)
  std::optional<double> a, b;  ///< the numbers, when the fact is one
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

struct Comparison {
  std::string a_name, b_name;
  std::string a_verdict, b_verdict;
  double tolerance = 0.02;  ///< relative change below which a fact without a band is "same"
  /// Inputs that differ first, then results by the size of their relative change; facts that
  /// did not change are kept (the JSON lists them) but counted apart.
  std::vector<FactChange> changes;
  size_t same = 0;  ///< facts (inputs and results) that did not change
  /// Results only (inputs are a different setup, not better or worse):
  size_t better = 0, worse = 0, within_noise = 0, one_side = 0;
};

/// The direction that is good for a fact, from its key and unit.
Better BetterDirection(const std::string& key, Unit unit);

/// The key whose value is `key`'s noise half-width: "probe.throughput.knee_gbps" ->
/// "probe.throughput.knee_noise_gbps" (the probes' convention).
std::string NoiseKeyFor(const std::string& key);

Comparison CompareResults(const ComparedResult& a, const ComparedResult& b,
                          double tolerance = 0.02);

}  // namespace feedcheck
