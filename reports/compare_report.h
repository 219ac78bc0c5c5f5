// Renders a before/after Comparison (core/result_compare) as terminal text, Markdown, one HTML
// page or JSON. Formatting only: every number was decided by CompareResults.
#pragma once

#include <ostream>
#include <string_view>

#include "core/result_compare.h"

namespace feedcheck {

/// `format` is "term", "md", "html" or "json"; false for any other.
bool RenderComparison(const Comparison& comparison, std::string_view format, bool color,
                      std::ostream& out);

}  // namespace feedcheck
