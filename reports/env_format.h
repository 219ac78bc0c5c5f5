// Environment variables printed in the form a user pastes: an AzureML job YAML
// `environment_variables:` block, shell exports, a Python dict for azure.ai.ml's
// command(environment_variables=...), or JSON. Pure formatting; values are already rendered.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/finding.h"

namespace feedcheck {

enum class EnvFormat { kYaml, kShell, kPython, kJson };

std::optional<EnvFormat> EnvFormatFromName(std::string_view name);
std::string_view EnvFormatName(EnvFormat format);

/// The settings in `format`, ending with a newline. Values are always quoted strings (job
/// environment variables are strings; "true" and "0" must not turn into YAML/JSON scalars).
std::string FormatEnv(const std::vector<EnvSetting>& env, EnvFormat format);

}  // namespace feedcheck
