// `compare A.json B.json`: what changed between two saved results (probe, pre-flight or
// post-mortem --json, or facts files), by how much, and whether a change is outside the noise
// the results carry. Deciding is core/result_compare's; this turns its Comparison into a Report.
#pragma once

#include <string>

#include "app/outcome.h"

namespace feedcheck::app {

struct CompareRequest {
  std::string a, b;              ///< the result before and after (JSON)
  std::string tolerance = "2%";  ///< relative change under which a fact without a band is same
  bool fail_on_worse = false;    ///< kFindings when a result got worse beyond its band
};

/// The Report ("Compare") has a verdict (worse, better, mixed, no change), the counts in `result`
/// (a, b, a_verdict, b_verdict, verdict_changed, better, worse, within_noise, same, one_side,
/// tolerance), and the tables "Inputs that differ", "Results that changed" and the folded
/// "Unchanged": one row per fact with the change, both values (numbers in the fact's unit), the
/// relative change, the noise band and which way is better. A bad --tolerance: kUsage; a file
/// that cannot be read as a result: kInputError.
Outcome RunCompare(const CompareRequest& request);

}  // namespace feedcheck::app
