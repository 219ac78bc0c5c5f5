// Two or three examples at the end of each command's --help: the command lines people copy
// first. Those without ACCOUNT in them run offline from the repository's top directory (a test
// runs them).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace feedcheck::cli {

/// The examples of a command, by its path under `feedcheck` ("egress", "probe throughput");
/// empty for a path without any.
const std::vector<std::string>& HelpExamples(std::string_view command_path);

/// Every command path that has examples (for tests).
std::vector<std::string> CommandsWithExamples();

}  // namespace feedcheck::cli
