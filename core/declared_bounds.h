// What a declared number may be: the bounds a value given by a user (a profile, a facts file, a
// job file, a flag) must meet before any rule or calculator sees it. A negative size, an account
// with no egress or a 1e308 Gbit/s NIC is a typo, not a cluster: it is refused with the field's
// bounds instead of reaching a formula that prints "inf" or divides by zero.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/fact_set.h"
#include "core/units.h"

namespace feedcheck {

/// nullopt when `value` (in `unit`, the fact's own unit) is plausible for `key`; else why not,
/// e.g. "must be above 0" or "must be at most 10,000 Gbit/s". Keys without bounds of their own
/// get the bounds of their unit (no negative amount, no rate past 1 Pbit/s, no size past 1 ZB).
std::optional<std::string> DeclaredValueProblem(std::string_view key, double value, Unit unit);

/// Two declared facts that cannot both be true, reported at `key` (the one to look at).
struct DeclaredContradiction {
  std::string key;
  std::string message;
};

/// Declared dataset facts that contradict each other, each plausible alone: a median or mean
/// file larger than the largest file or than the whole dataset (often MB written for GB), or
/// files x mean size more than 2x away from the dataset's bytes.
std::vector<DeclaredContradiction> DeclaredContradictions(const FactSet& facts);

}  // namespace feedcheck
