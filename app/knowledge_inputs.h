// Where the knowledge base and the rules come from beyond the built-ins: the user's --kb files
// and --rules directories. Every workflow that judges takes one.
#pragma once

#include <string>
#include <vector>

namespace feedcheck::app {

struct KnowledgeInputs {
  std::vector<std::string> kb_files;    ///< knowledge-base overrides, read after data/*.yaml
  std::vector<std::string> rules_dirs;  ///< extra rule directories, added to the built-ins
};

}  // namespace feedcheck::app
