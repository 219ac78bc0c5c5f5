// Where the run-time files live: data/ (knowledge base) and rules/ sit beside the binary, in
// the build tree and when installed. FEEDCHECK_HOME overrides both.
#pragma once

#include <string>

namespace feedcheck {

/// Directory of the running executable ("/path/to/build").
std::string ExecutableDir();
/// Knowledge base directory: $FEEDCHECK_HOME/data, <exe>/data, <exe>/../share/feedcheck/data.
std::string DataDir();
/// Built-in rules directory: $FEEDCHECK_HOME/rules, <exe>/rules, <exe>/../share/feedcheck/rules.
std::string BuiltinRulesDir();

}  // namespace feedcheck
