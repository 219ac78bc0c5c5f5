// `rules list` and `rules validate FILE...`: the rules the workflows judge with (the built-ins and
// --rules directories), and whether a rules file reads and compiles (Falco's `-V`: each file Ok,
// Ok with warnings, or Invalid, with coded diagnostics at file:line:column).
#pragma once

#include <string>
#include <vector>

#include "app/knowledge_inputs.h"
#include "app/outcome.h"

namespace feedcheck::app {

struct RulesListRequest {
  KnowledgeInputs knowledge;  ///< --rules directories join the built-ins
};

/// The Report ("Rule set") has one row per rule in the "Rules" table (id, severity, title, file,
/// line) and each rule's public source in the folded "Sources" table; `result` counts them
/// (rules, critical, warnings, info, files). A rules file with errors: its diagnostics, the
/// rules that did compile, and kInputError.
Outcome RunRulesList(const RulesListRequest& request);

struct RulesValidateRequest {
  std::vector<std::string> files;
};

/// The Report ("Rules validation") has the verdict (valid, valid with warnings, invalid), one row
/// per file in the "Files" table (file, status Ok / Ok, with warnings / Invalid, rules, errors,
/// warnings) and in `result` the counts (files, valid, invalid, with_warnings, rules, errors,
/// warnings). The diagnostics of every file are the Outcome's, up to 1,000. Any file invalid or
/// unreadable: kInputError.
Outcome RunRulesValidate(const RulesValidateRequest& request);

}  // namespace feedcheck::app
