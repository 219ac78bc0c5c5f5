// The built-in rules (rules/builtin/*.yaml) compiled into the binary (cmake/EmbedFiles.cmake).
#pragma once

#include <vector>

#include "core/embedded_file.h"

namespace feedcheck::rules {

/// rules/builtin/*.yaml, sorted by name, each named "rules/builtin/FILE.yaml" (generated:
/// embedded_rules.cpp in the build folder).
const std::vector<EmbeddedFile>& EmbeddedBuiltinRules();

}  // namespace feedcheck::rules
