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
  /// A result with no noise band is called better or worse only beyond this relative change
  /// ("50%"); "" (the default): never, it is "no noise band".
  std::string floor;
  bool fail_on_worse = false;  ///< kFindings when a result got worse beyond its band
};

/// The Report ("Compare") has a verdict (worse, better, mixed, within noise, no change), the
/// counts in `result` (a, b, a_verdict, b_verdict, verdict_changed, better, worse, within_noise,
/// no_band, same, one_side, per_item, tolerance, floor), and the tables "Inputs that differ",
/// "Derived", "Results that changed" and the folded "Per GPU, node or rank" and "Unchanged": one
/// row per fact with the change, both values (numbers in the fact's unit), the relative change,
/// the noise band and which way is better. Only measured and observed results are judged; inputs
/// and what is derived from them are listed apart. A bad --tolerance or --floor: kUsage; a file
/// that cannot be read as a result: kInputError.
Outcome RunCompare(const CompareRequest& request);

}  // namespace feedcheck::app
