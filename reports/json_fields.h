// Lenient field readers for report documents read back from JSON (a saved post-mortem or fleet):
// a field that is missing or of the wrong type gives the fallback, never an exception, so a
// hand-edited file loads with what it still holds.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/json_input.h"
#include "core/whole_number.h"

namespace feedcheck::json_fields {

using nlohmann::json;

// Each read goes through core/json_input's typed reads, quietly (no diagnostics list).
inline JsonField Member(const json& j, const char* key) { return JsonField(&j, nullptr, "")[key]; }

inline double Num(const json& j, const char* key, double fallback) {
  const JsonField f = Member(j, key);
  return f.is_number() ? f.NumberOr(fallback) : fallback;
}

/// A whole number that fits an int (2.5 reads as 2); 1e300 or a string gives the fallback.
inline int Int(const json& j, const char* key, int fallback) {
  const auto v = Member(j, key).is_number() ? Member(j, key).Number() : std::nullopt;
  return v ? WholeNumber<int>(*v).value_or(fallback) : fallback;
}

inline std::string Text(const json& j, const char* key) {
  const JsonField f = Member(j, key);
  return f.is_string() ? f.StringOr("") : std::string();
}

inline bool Flag(const json& j, const char* key) {
  const JsonField f = Member(j, key);
  return f.is_bool() && f.BoolOr(false);
}

inline std::vector<std::string> Texts(const json& j, const char* key) {
  std::vector<std::string> out;
  const JsonField f = Member(j, key);
  if (!f.is_array()) return out;
  for (const JsonField& v : f.Elements())
    if (v.is_string()) out.push_back(v.StringOr(""));
  return out;
}

/// The member when it is an array, else an empty one.
inline const json& Array(const json& j, const char* key) {
  static const json kEmpty = json::array();
  auto it = j.find(key);
  return it != j.end() && it->is_array() ? *it : kEmpty;
}

/// The member when it is an object, else an empty one.
inline const json& Object(const json& j, const char* key) {
  static const json kEmpty = json::object();
  auto it = j.find(key);
  return it != j.end() && it->is_object() ? *it : kEmpty;
}

}  // namespace feedcheck::json_fields
