// Stage 1, read: YAML text -> RuleInfo with file:line for every field. Checks only the shape
// (a list of mappings, known fields, scalar vs list); conditions and templates are compiled in
// stage 2 (rule_compiler.h).
#pragma once

#include <memory>
#include <vector>

#include "core/diagnostic.h"
#include "rules/rule_info.h"

namespace feedcheck::rules {

/// Reads every rule of `file`. Returns false when the file is not a rules file at all (YAML
/// syntax error, not a list); a bad rule adds diagnostics and is skipped, the rest are read.
bool ReadRules(const std::shared_ptr<const SourceFile>& file, std::vector<RuleInfo>* out,
               DiagnosticList* diagnostics);

}  // namespace feedcheck::rules
