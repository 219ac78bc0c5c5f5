#include "core/json_text.h"

namespace feedcheck {

std::string JsonText(const nlohmann::json& value, int indent) {
  return value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string ValidUtf8(std::string_view text) {
  // nlohmann's serializer already implements the replacement; a JSON string round trip reuses
  // it (quotes and escapes added by dump are undone by parse).
  std::string quoted = JsonText(nlohmann::json(std::string(text)), -1);
  return nlohmann::json::parse(quoted).get<std::string>();
}

}  // namespace feedcheck
