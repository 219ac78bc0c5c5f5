// The one list of fact keys: unit, origin and meaning of each. Drives `feedcheck facts list`,
// the rule compiler's unknown-key check and "did you mean", and the docs.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/fact.h"

namespace feedcheck {

struct FactSpec {
  std::string_view
      key;  ///< exact key, or a family ending in ".<name>" (e.g. "runtime.setting.<ENV_VAR>")
  Unit unit;
  FactOrigin origin;
  std::string_view description;
};

class FactRegistry {
 public:
  /// The built-in registry (all keys of all modules).
  static const FactRegistry& Builtin();

  /// Looks a key up; family keys match any last segment ("runtime.http_errors.503").
  const FactSpec* Find(std::string_view key) const;
  /// Near misses for an unknown key.
  std::vector<std::string> Suggest(std::string_view key) const;
  const std::vector<FactSpec>& all() const { return specs_; }

  explicit FactRegistry(std::vector<FactSpec> specs) : specs_(std::move(specs)) {}

 private:
  std::vector<FactSpec> specs_;
};

}  // namespace feedcheck
