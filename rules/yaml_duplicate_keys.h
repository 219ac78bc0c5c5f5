// Finds keys given twice in one YAML mapping. yaml-cpp keeps both and answers lookups with the
// first, so "nodes: 2 ... nodes: 8" would silently mean 2; every YAML input (rules, profiles, job
// files) is refused instead, with both lines named. Read from the parser's events, so an alias
// is never expanded and nesting costs no recursion.
#pragma once

#include <string>

#include "core/diagnostic.h"

namespace feedcheck::rules {

/// Adds one codes::kDuplicateKey error per key repeated in a mapping of `content` (at the repeat,
/// naming the line of the first) and returns how many. Plain scalar keys are compared as
/// written; the merge key "<<" may repeat.
int FindDuplicateYamlKeys(const std::string& name, const std::string& content,
                          DiagnosticList* diagnostics);

}  // namespace feedcheck::rules
