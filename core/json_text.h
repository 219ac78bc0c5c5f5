// JSON text that never throws on the strings it carries: blob names, error codes and paths come
// from servers and file systems and may hold invalid UTF-8, which nlohmann's default dump rejects
// with an exception (type_error 316). Invalid bytes become U+FFFD (the replacement character).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace feedcheck {

/// `value.dump(indent)`, with every invalid UTF-8 sequence replaced by U+FFFD.
std::string JsonText(const nlohmann::json& value, int indent = 2);

/// `text` with every invalid UTF-8 sequence replaced by U+FFFD (valid text is returned as is).
std::string ValidUtf8(std::string_view text);

}  // namespace feedcheck
