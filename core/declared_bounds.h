// What a declared number may be: the bounds a value given by a user (a profile, a facts file, a
// job file, a flag) must meet before any rule or calculator sees it. A negative size, an account
// with no egress or a 1e308 Gbit/s NIC is a typo, not a cluster: it is refused with the field's
// bounds instead of reaching a formula that prints "inf" or divides by zero.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/units.h"

namespace feedcheck {

/// nullopt when `value` (in `unit`, the fact's own unit) is plausible for `key`; else why not,
/// e.g. "must be above 0" or "must be at most 10,000 Gbit/s". Keys without bounds of their own
/// get the bounds of their unit (no negative amount, no rate past 1 Pbit/s, no size past 1 ZB).
std::optional<std::string> DeclaredValueProblem(std::string_view key, double value, Unit unit);

}  // namespace feedcheck
